import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Scope, V2Auth } from '../common/auth/auth.decorators';
import { ApiV2Errors, notFound, VENDOR_CONFLICT } from '../common/http/api-errors.decorator';
import { ok, V2Envelope } from '../common/http/envelope';
import type { ShopScope } from '../common/tenancy';
import { CreateVendorDto, PatchVendorDto, VendorListQueryDto } from './dto/vendor.dto';
import {
  VendorDto,
  VendorEnvelopeDto,
  VendorsPageDto,
  VendorsPageEnvelopeDto,
} from './dto/vendor-response.dto';
import { VendorUsersService } from './vendor-users.service';
import { VendorsService } from './vendors.service';
import { ObjectIdParam } from '../common/http/params';
import { Idempotent } from '../idempotency/idempotent.decorator';

/** V2 merchant administration of vendors (spec §4.10): merchant or shop token; a vendor token gets 403. */
@ApiTags('Vendors')
@V2Auth('merchant', 'shop')
@Controller('v2/vendors')
export class VendorsV2Controller {
  constructor(
    private readonly vendors: VendorsService,
    private readonly vendorUsers: VendorUsersService,
  ) {}

  @Get()
  @ApiOperation({ operationId: 'listVendors', summary: 'Vendors, newest first (cursor paging)' })
  @ApiOkResponse({ type: VendorsPageEnvelopeDto })
  @ApiV2Errors(422)
  async list(
    @Scope() scope: ShopScope,
    @Query() query: VendorListQueryDto,
  ): Promise<V2Envelope<VendorsPageDto>> {
    return ok(await this.vendors.page(scope, query));
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({
    operationId: 'createVendor',
    summary: 'Create a vendor (name trimmed, lowercased, unique per shop)',
  })
  @ApiCreatedResponse({ type: VendorEnvelopeDto })
  @ApiV2Errors(400, VENDOR_CONFLICT, 422)
  @Idempotent('v2')
  async create(@Scope() scope: ShopScope, @Body() body: CreateVendorDto): Promise<V2Envelope<VendorDto>> {
    return ok(await this.vendors.create(scope, body));
  }

  @Get(':id')
  @ApiOperation({ operationId: 'getVendor', summary: 'One vendor' })
  @ObjectIdParam('id', '6740c1a2e4b0f15b3c9d0a21', 'Vendor id')
  @ApiOkResponse({ type: VendorEnvelopeDto })
  @ApiV2Errors(notFound('Vendor'))
  async get(@Scope() scope: ShopScope, @Param('id') id: string): Promise<V2Envelope<VendorDto>> {
    return ok(await this.vendors.get(scope, id));
  }

  @Patch(':id')
  @ApiOperation({
    operationId: 'updateVendor',
    summary: 'Change a vendor (only the given fields)',
    description: 'Name, commission, active flag, address fields and profile entries; same rules as v1.',
  })
  @ObjectIdParam('id', '6740c1a2e4b0f15b3c9d0a21', 'Vendor id')
  @ApiOkResponse({ type: VendorEnvelopeDto })
  @ApiV2Errors(400, notFound('Vendor'), VENDOR_CONFLICT, 422)
  async patch(
    @Scope() scope: ShopScope,
    @Param('id') id: string,
    @Body() body: PatchVendorDto,
  ): Promise<V2Envelope<VendorDto>> {
    return ok(await this.vendorUsers.patch(scope, id, body));
  }

  @Delete(':id')
  @ApiOperation({
    operationId: 'deactivateVendor',
    summary: 'Deactivate a vendor',
    description:
      'The vendor and its data stay; it leaves GET /v1/commissions/vendor, its users cannot sign in and ' +
      'their tokens are refused. PATCH {active: true} reactivates it.',
  })
  @ObjectIdParam('id', '6740c1a2e4b0f15b3c9d0a21', 'Vendor id')
  @ApiOkResponse({ type: VendorEnvelopeDto })
  @ApiV2Errors(notFound('Vendor'))
  async deactivate(@Scope() scope: ShopScope, @Param('id') id: string): Promise<V2Envelope<VendorDto>> {
    return ok(await this.vendorUsers.deactivate(scope, id));
  }
}
