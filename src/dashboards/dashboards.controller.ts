import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Scope, V2Auth } from '../common/auth/auth.decorators';
import { ApiV2Errors } from '../common/http/api-errors.decorator';
import { ok, type V2Envelope } from '../common/http/envelope';
import type { ShopScope } from '../common/tenancy';
import { DashboardsService } from './dashboards.service';
import {
  DashboardQueryDto,
  ShopDashboardDto,
  ShopDashboardEnvelopeDto,
  VendorDashboardDto,
  VendorDashboardEnvelopeDto,
} from './dto/dashboard.dto';

const PERIOD =
  '`range=7d|30d|3m|6m|1y` (whole UTC days up to today) or `dateStart` + `dateEnd` (YYYY-MM-DD, UTC, inclusive); ' +
  'neither = 30d. Both forms, one date alone, an impossible date or start after end → 422.';

/**
 * The dashboards (DESIGN §12): the vendor's at `GET /dashboard` (vendor tokens, no scope needed),
 * the shop's at `GET /v2/dashboard` (shop tokens). Other credentials → 403.
 */
@ApiTags('Dashboards')
@Controller()
export class DashboardsController {
  constructor(private readonly dashboards: DashboardsService) {}

  @Get('dashboard')
  @V2Auth('vendor')
  @ApiOperation({
    operationId: 'getVendorDashboard',
    summary: "The vendor's sales, refunds and earnings over a period, compared with the period before",
    description: PERIOD + ' Vendor tokens only; no scope needed.',
  })
  @ApiOkResponse({ type: VendorDashboardEnvelopeDto })
  @ApiV2Errors(422)
  async vendor(
    @Scope() scope: ShopScope,
    @Query() query: DashboardQueryDto,
  ): Promise<V2Envelope<VendorDashboardDto>> {
    return ok(await this.dashboards.vendor(scope, query));
  }

  @Get('v2/dashboard')
  @V2Auth('shop')
  @ApiOperation({
    operationId: 'getShopDashboard',
    summary: "The shop's orders, revenue, commission, payouts and top vendors over a period",
    description: PERIOD + ' Shop tokens only.',
  })
  @ApiOkResponse({ type: ShopDashboardEnvelopeDto })
  @ApiV2Errors(422)
  async shop(
    @Scope() scope: ShopScope,
    @Query() query: DashboardQueryDto,
  ): Promise<V2Envelope<ShopDashboardDto>> {
    return ok(await this.dashboards.shop(scope, query));
  }
}
