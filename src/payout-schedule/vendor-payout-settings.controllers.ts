import { Body, Controller, Get, Param, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Scope, V1Auth, V2Auth } from '../common/auth/auth.decorators';
import { RequireScope } from '../common/auth/scopes';
import { ApiV1Errors, ApiV2Errors, notFound } from '../common/http/api-errors.decorator';
import { ok, V2Envelope } from '../common/http/envelope';
import { ApiOperationIdsByPath } from '../common/http/openapi-keys';
import { ObjectIdParam } from '../common/http/params';
import type { ShopScope } from '../common/tenancy';
import {
  SetVendorPayoutSettingsDto,
  VendorPayoutSettingsDto,
  VendorPayoutSettingsEnvelopeDto,
} from './dto/payout-settings.dto';
import { VendorPayoutSettingsService } from './vendor-payout-settings.service';

const SET_SUMMARY = "Set a vendor's payout settings: paused, its own hold and minimum";
const SET_DESCRIPTION =
  'Replaced as a whole. `paused`: scheduled runs skip the vendor (recorded in the run as skipped; a manual ' +
  'POST /v1/payouts/batches still pays it). `holdDays` (0–90) and `minimumPayout` (≥ 0) override the shop ' +
  "schedule's; null or absent: the shop's. Audited. The next run uses them.";

/** v1 (shop token): a vendor's payout settings (DESIGN §15). */
@ApiTags('Vendors')
@V1Auth('shop')
@Controller('v1/vendors/:id/payout-settings')
export class VendorPayoutSettingsV1Controller {
  constructor(private readonly settings: VendorPayoutSettingsService) {}

  @Get()
  @ApiOperation({ operationId: 'getVendorPayoutSettings', summary: "A vendor's payout settings" })
  @ObjectIdParam('id', '6740c1a2e4b0f15b3c9d0a21', 'Vendor id')
  @ApiOkResponse({ type: VendorPayoutSettingsDto })
  @ApiV1Errors(notFound('Vendor'))
  get(@Scope() scope: ShopScope, @Param('id') id: string): Promise<VendorPayoutSettingsDto> {
    return this.settings.get(scope, id);
  }

  @Put()
  @ApiOperation({
    operationId: 'setVendorPayoutSettings',
    summary: SET_SUMMARY,
    description: SET_DESCRIPTION,
  })
  @ObjectIdParam('id', '6740c1a2e4b0f15b3c9d0a21', 'Vendor id')
  @ApiOkResponse({ type: VendorPayoutSettingsDto })
  @ApiV1Errors(400, notFound('Vendor'), 422)
  set(
    @Scope() scope: ShopScope,
    @Param('id') id: string,
    @Body() body: SetVendorPayoutSettingsDto,
  ): Promise<VendorPayoutSettingsDto> {
    return this.settings.set(scope, id, body);
  }
}

/** V2 (merchant or shop token): a vendor's payout settings. */
@ApiTags('Vendors')
@V2Auth('merchant', 'shop')
@Controller('v2/vendors/:id/payout-settings')
export class VendorPayoutSettingsV2Controller {
  constructor(private readonly settings: VendorPayoutSettingsService) {}

  @Get()
  @ApiOperation({ operationId: 'getVendorPayoutSettingsV2', summary: "A vendor's payout settings" })
  @ObjectIdParam('id', '6740c1a2e4b0f15b3c9d0a21', 'Vendor id')
  @ApiOkResponse({ type: VendorPayoutSettingsEnvelopeDto })
  @ApiV2Errors(notFound('Vendor'))
  async get(
    @Scope() scope: ShopScope,
    @Param('id') id: string,
  ): Promise<V2Envelope<VendorPayoutSettingsDto>> {
    return ok(await this.settings.get(scope, id));
  }

  @Put()
  @ApiOperation({
    operationId: 'setVendorPayoutSettingsV2',
    summary: SET_SUMMARY,
    description: SET_DESCRIPTION,
  })
  @ObjectIdParam('id', '6740c1a2e4b0f15b3c9d0a21', 'Vendor id')
  @ApiOkResponse({ type: VendorPayoutSettingsEnvelopeDto })
  @ApiV2Errors(400, notFound('Vendor'), 422)
  async set(
    @Scope() scope: ShopScope,
    @Param('id') id: string,
    @Body() body: SetVendorPayoutSettingsDto,
  ): Promise<V2Envelope<VendorPayoutSettingsDto>> {
    return ok(await this.settings.set(scope, id, body));
  }
}

/** The vendor surface (vendor token, `payouts:read`): its own payout settings, read-only. */
@ApiTags('Payouts')
@Controller()
export class OwnPayoutSettingsController {
  constructor(private readonly settings: VendorPayoutSettingsService) {}

  @Get(['payouts/settings', 'v2/payouts/settings'])
  @V2Auth('vendor')
  @RequireScope('payouts:read')
  @ApiOperationIdsByPath({
    '/payouts/settings': 'getOwnPayoutSettings',
    '/v2/payouts/settings': 'getOwnPayoutSettingsV2',
  })
  @ApiOperation({
    summary: 'The signed-in vendor’s own payout settings (read-only; the shop sets them)',
    description: 'Paused or not, its own hold and minimum (null: the shop’s) and the ones that apply.',
  })
  @ApiOkResponse({ type: VendorPayoutSettingsEnvelopeDto })
  @ApiV2Errors()
  async get(@Scope() scope: ShopScope): Promise<V2Envelope<VendorPayoutSettingsDto>> {
    return ok(await this.settings.own(scope));
  }
}
