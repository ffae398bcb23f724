import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import {
  ApiBody,
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import { Scope, V1Auth } from '../common/auth/auth.decorators';
import { ApiV1Errors, notFound, VENDOR_CONFLICT } from '../common/http/api-errors.decorator';
import { lenientBody } from '../common/http/validation';
import type { ShopScope } from '../common/tenancy';
import {
  CreateVendorDto,
  PROFILE_ENTRIES_MAX,
  ProfileEntryDto,
  UpdateVendorDto,
  VendorAddressDto,
  VendorReadQueryDto,
  VendorV1ListQueryDto,
} from './dto/vendor.dto';
import { VendorListDto, VendorMessageDto, VendorProfileDto, VendorReadDto } from './dto/vendor-response.dto';
import { ProfileEntriesPipe } from './profile-entries.pipe';
import { VendorUsersService } from './vendor-users.service';
import { VendorsService } from './vendors.service';
import { ObjectIdParam } from '../common/http/params';
import { Idempotent } from '../idempotency/idempotent.decorator';

@ApiTags('Vendors')
@ApiExtraModels(ProfileEntryDto)
@V1Auth('shop')
@Controller('v1/vendors')
export class VendorsV1Controller {
  constructor(
    private readonly vendors: VendorsService,
    private readonly vendorUsers: VendorUsersService,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'createVendor',
    summary: 'Create a vendor',
    description: 'The name is stored trimmed and lowercased and is unique per shop in any letter case (409).',
  })
  @ApiOkResponse({ type: VendorMessageDto })
  @ApiV1Errors(400, VENDOR_CONFLICT, 422)
  @Idempotent('v1')
  async create(@Scope() scope: ShopScope, @Body() body: CreateVendorDto): Promise<VendorMessageDto> {
    return { message: 'Vendor created', vendor: await this.vendors.create(scope, body) };
  }

  @Get()
  @ApiOperation({
    operationId: 'listVendors',
    summary: 'Every vendor of the shop, by name (offset paging)',
    description:
      "`users=true` adds each vendor's portal users (never a password); `active` keeps only active or only " +
      'deactivated vendors.',
  })
  @ApiOkResponse({ type: VendorListDto })
  @ApiV1Errors(422)
  list(@Scope() scope: ShopScope, @Query() query: VendorV1ListQueryDto): Promise<VendorListDto> {
    return this.vendorUsers.list(scope, query);
  }

  @Get(':vendorId')
  @ApiOperation({
    operationId: 'getVendor',
    summary: 'One vendor with its profile (and its users with users=true)',
  })
  @ObjectIdParam('vendorId', '6740c1a2e4b0f15b3c9d0a21', 'Vendor id')
  @ApiOkResponse({ type: VendorReadDto })
  @ApiV1Errors(notFound('Vendor'), 422)
  read(
    @Scope() scope: ShopScope,
    @Param('vendorId') vendorId: string,
    @Query() query: VendorReadQueryDto,
  ): Promise<VendorReadDto> {
    return this.vendorUsers.read(scope, vendorId, query.users === 'true');
  }

  @Get(':vendorId/profile')
  @ApiOperation({ operationId: 'getVendorProfile', summary: "A vendor's profile entries" })
  @ObjectIdParam('vendorId', '6740c1a2e4b0f15b3c9d0a21', 'Vendor id')
  @ApiOkResponse({ type: VendorProfileDto })
  @ApiV1Errors(404)
  async profile(@Scope() scope: ShopScope, @Param('vendorId') vendorId: string): Promise<VendorProfileDto> {
    return { profile: (await this.vendors.get(scope, vendorId)).profile };
  }

  @Delete(':vendorId')
  @ApiOperation({
    operationId: 'deactivateVendor',
    summary: 'Deactivate a vendor (soft delete)',
    description:
      'The vendor and its history stay — line items, payouts and adjustments, and it is still paid what it ' +
      'earned — but it leaves GET /v1/commissions/vendor, its users cannot sign in and their tokens are ' +
      'refused from the next request on. PATCH /v2/vendors/{id} {active: true} reactivates it. Deleting a ' +
      'deactivated vendor again answers the same.',
  })
  @ObjectIdParam('vendorId', '6740c1a2e4b0f15b3c9d0a21', 'Vendor id')
  @ApiOkResponse({ type: VendorMessageDto })
  @ApiV1Errors(404)
  async remove(@Scope() scope: ShopScope, @Param('vendorId') vendorId: string): Promise<VendorMessageDto> {
    return { message: 'Vendor deactivated', vendor: await this.vendorUsers.deactivate(scope, vendorId) };
  }

  @Put(':vendorId')
  @ApiOperation({
    operationId: 'updateVendor',
    summary: 'Change name and/or commission (only the given fields)',
    description: 'A rename onto an existing name is a 409.',
  })
  @ObjectIdParam('vendorId', '6740c1a2e4b0f15b3c9d0a21', 'Vendor id')
  @ApiOkResponse({ type: VendorMessageDto })
  @ApiV1Errors(400, notFound('Vendor'), VENDOR_CONFLICT, 422)
  async update(
    @Scope() scope: ShopScope,
    @Param('vendorId') vendorId: string,
    @Body() body: UpdateVendorDto,
  ): Promise<VendorMessageDto> {
    return { message: 'Vendor updated', vendor: await this.vendors.update(scope, vendorId, body) };
  }

  @Put(':vendorId/address')
  @ApiOperation({
    operationId: 'setVendorAddress',
    summary: 'Set address fields (only the given ones; null clears one)',
    description: 'Unknown keys are ignored.',
  })
  @ObjectIdParam('vendorId', '6740c1a2e4b0f15b3c9d0a21', 'Vendor id')
  @ApiBody({ type: VendorAddressDto })
  @ApiOkResponse({ type: VendorMessageDto })
  @ApiV1Errors(400, notFound('Vendor'), 422)
  async setAddress(
    @Scope() scope: ShopScope,
    @Param('vendorId') vendorId: string,
    @Body(lenientBody(VendorAddressDto)) body: object,
  ): Promise<VendorMessageDto> {
    return {
      message: 'Vendor address updated',
      vendor: await this.vendors.setAddress(scope, vendorId, body as VendorAddressDto),
    };
  }

  @Put(':vendorId/profile')
  @ApiOperation({
    operationId: 'setVendorProfile',
    summary: 'Set profile entries',
    description:
      "The body is an array of {field, value}. Each field must be one of the shop's profile fields " +
      '(GET /v1/shop/profile); a value is a string, number or boolean, never an object. Entries of ' +
      'fields not in the body keep their values; the last entry of a repeated field wins.',
  })
  @ObjectIdParam('vendorId', '6740c1a2e4b0f15b3c9d0a21', 'Vendor id')
  @ApiBody({
    schema: { type: 'array', maxItems: PROFILE_ENTRIES_MAX, items: { $ref: getSchemaPath(ProfileEntryDto) } },
  })
  @ApiOkResponse({ type: VendorMessageDto })
  @ApiV1Errors(400, notFound('Vendor'), 422)
  async setProfile(
    @Scope() scope: ShopScope,
    @Param('vendorId') vendorId: string,
    @Body(ProfileEntriesPipe) entries: ProfileEntryDto[],
  ): Promise<VendorMessageDto> {
    return {
      message: 'Vendor profile updated',
      vendor: await this.vendors.setProfile(scope, vendorId, entries),
    };
  }
}
