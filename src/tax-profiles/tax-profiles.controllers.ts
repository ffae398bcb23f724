import { Body, Controller, Get, Param, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Scope, V1Auth, V2Auth } from '../common/auth/auth.decorators';
import { actorOf, type Principal } from '../common/auth/principal';
import { ApiV1Errors, ApiV2Errors, notFound } from '../common/http/api-errors.decorator';
import { ok, V2Envelope } from '../common/http/envelope';
import { ApiOperationIdsByPath } from '../common/http/openapi-keys';
import { ObjectIdParam } from '../common/http/params';
import type { ShopScope } from '../common/tenancy';
import { TaxProfileDto, TaxProfileEnvelopeDto, UpdateTaxProfileDto } from './dto/tax-profile.dto';
import { TaxProfilesService } from './tax-profiles.service';

const VENDOR_ID = '6740c1a2e4b0f15b3c9d0a21';
const CONFLICT = { status: 409, message: 'The tax profile changed meanwhile; read it again and retry' };
const GET_DESCRIPTION =
  'The vendor’s legal identity on documents and in the seller tax report. The tax id and the date of birth ' +
  'are never returned: `taxIdProvided` + `taxIdLast4` and `dateOfBirthProvided` say what is stored. ' +
  '`completeness` lists what is still missing (legalName, entityType, address, taxId, taxIdCountry; ' +
  'dateOfBirth for an individual, businessRegistrationNumber for a business). A vendor without a profile ' +
  'reads as empty.';
const PUT_DESCRIPTION =
  'Only the given fields change; `null` clears one. The address is sent whole. The tax id and the date of ' +
  'birth (individuals only, a past YYYY-MM-DD) are sealed at rest; omit them to keep the stored ones. ' +
  'Changing `entityType` to business drops a stored date of birth. A change of `selfBillingConsent` is ' +
  'recorded with who made it and when (withdrawing too). Audited with the tax id masked and the date of ' +
  'birth as [sealed]; no event is emitted.';

/** v1 (shop token): a vendor's tax profile. */
@ApiTags('Vendors')
@V1Auth('shop')
@Controller('v1/vendors/:id/tax-profile')
export class TaxProfilesV1Controller {
  constructor(private readonly profiles: TaxProfilesService) {}

  @Get()
  @ApiOperation({
    operationId: 'getVendorTaxProfile',
    summary: 'A vendor’s tax profile',
    description: GET_DESCRIPTION,
  })
  @ObjectIdParam('id', VENDOR_ID, 'Vendor id')
  @ApiOkResponse({ type: TaxProfileDto })
  @ApiV1Errors(notFound('Vendor'))
  get(@Scope() scope: ShopScope, @Param('id') id: string): Promise<TaxProfileDto> {
    return this.profiles.get(scope, id);
  }

  @Put()
  @ApiOperation({
    operationId: 'updateVendorTaxProfile',
    summary: 'Change a vendor’s tax profile',
    description: PUT_DESCRIPTION,
  })
  @ObjectIdParam('id', VENDOR_ID, 'Vendor id')
  @ApiOkResponse({ type: TaxProfileDto })
  @ApiV1Errors(400, notFound('Vendor'), CONFLICT, 422)
  update(
    @Scope() scope: ShopScope,
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Body() body: UpdateTaxProfileDto,
  ): Promise<TaxProfileDto> {
    return this.profiles.update(scope, id, body, actorOf(principal));
  }
}

/** V2 (merchant or shop token): a vendor's tax profile. */
@ApiTags('Vendors')
@V2Auth('merchant', 'shop')
@Controller('v2/vendors/:id/tax-profile')
export class TaxProfilesV2Controller {
  constructor(private readonly profiles: TaxProfilesService) {}

  @Get()
  @ApiOperation({
    operationId: 'getVendorTaxProfileV2',
    summary: 'A vendor’s tax profile',
    description: GET_DESCRIPTION,
  })
  @ObjectIdParam('id', VENDOR_ID, 'Vendor id')
  @ApiOkResponse({ type: TaxProfileEnvelopeDto })
  @ApiV2Errors(notFound('Vendor'))
  async get(@Scope() scope: ShopScope, @Param('id') id: string): Promise<V2Envelope<TaxProfileDto>> {
    return ok(await this.profiles.get(scope, id));
  }

  @Put()
  @ApiOperation({
    operationId: 'updateVendorTaxProfileV2',
    summary: 'Change a vendor’s tax profile',
    description: PUT_DESCRIPTION,
  })
  @ObjectIdParam('id', VENDOR_ID, 'Vendor id')
  @ApiOkResponse({ type: TaxProfileEnvelopeDto })
  @ApiV2Errors(400, notFound('Vendor'), CONFLICT, 422)
  async update(
    @Scope() scope: ShopScope,
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Body() body: UpdateTaxProfileDto,
  ): Promise<V2Envelope<TaxProfileDto>> {
    return ok(await this.profiles.update(scope, id, body, actorOf(principal)));
  }
}

/**
 * The vendor surface (vendor token, no scope needed: the vendor's own profile, DESIGN §12): served
 * without prefix and under /v2.
 */
@ApiTags('Vendors')
@V2Auth('vendor')
@Controller()
export class OwnTaxProfileController {
  constructor(private readonly profiles: TaxProfilesService) {}

  @Get(['vendors/me/tax-profile', 'v2/vendors/me/tax-profile'])
  @ApiOperationIdsByPath({
    '/vendors/me/tax-profile': 'getOwnTaxProfile',
    '/v2/vendors/me/tax-profile': 'getOwnTaxProfileV2',
  })
  @ApiOperation({ summary: 'The signed-in vendor’s own tax profile', description: GET_DESCRIPTION })
  @ApiOkResponse({ type: TaxProfileEnvelopeDto })
  @ApiV2Errors(notFound('Vendor'))
  async get(@Scope() scope: ShopScope): Promise<V2Envelope<TaxProfileDto>> {
    return ok(await this.profiles.get(scope, scope.vendorId!));
  }

  @Put(['vendors/me/tax-profile', 'v2/vendors/me/tax-profile'])
  @ApiOperationIdsByPath({
    '/vendors/me/tax-profile': 'updateOwnTaxProfile',
    '/v2/vendors/me/tax-profile': 'updateOwnTaxProfileV2',
  })
  @ApiOperation({ summary: 'Change the signed-in vendor’s own tax profile', description: PUT_DESCRIPTION })
  @ApiOkResponse({ type: TaxProfileEnvelopeDto })
  @ApiV2Errors(400, notFound('Vendor'), CONFLICT, 422)
  async update(
    @Scope() scope: ShopScope,
    @CurrentPrincipal() principal: Principal,
    @Body() body: UpdateTaxProfileDto,
  ): Promise<V2Envelope<TaxProfileDto>> {
    return ok(await this.profiles.update(scope, scope.vendorId!, body, actorOf(principal)));
  }
}
