import { Body, Controller, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
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
} from './dto/vendor.dto';
import { VendorMessageDto, VendorReadDto } from './dto/vendor-response.dto';
import { ProfileEntriesPipe } from './profile-entries.pipe';
import { VendorUsersService } from './vendor-users.service';
import { VendorsService } from './vendors.service';
import { ObjectIdParam } from '../common/http/params';

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
  async create(@Scope() scope: ShopScope, @Body() body: CreateVendorDto): Promise<VendorMessageDto> {
    return { message: 'Vendor created', vendor: await this.vendors.create(scope, body) };
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
