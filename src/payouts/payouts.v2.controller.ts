import { VendorBalanceDto } from './dto/vendor-balance.dto';
import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Scope, V2Auth } from '../common/auth/auth.decorators';
import { RequireScope } from '../common/auth/scopes';
import { ApiV2Errors } from '../common/http/api-errors.decorator';
import { ok, type V2Envelope } from '../common/http/envelope';
import type { ShopScope } from '../common/tenancy';
import {
  PayoutRowsPageDto,
  PayoutRowsPageEnvelopeDto,
  PayoutRowsQueryDto,
  VendorBalanceEnvelopeDto,
} from './dto/vendor-money.dto';
import { VendorMoneyService } from './vendor-money.service';

/**
 * The vendor's own money under the V2 paths, named like `/v2/orders`: a vendor token sees its own
 * rows and balance, a shop token every row of the shop; a merchant token is refused (403).
 */
@ApiTags('Payouts')
@Controller()
export class PayoutsV2Controller {
  constructor(private readonly money: VendorMoneyService) {}

  @Get('v2/payouts')
  @V2Auth('vendor', 'shop')
  @RequireScope('payouts:read')
  @ApiOperation({
    operationId: 'listPayoutRows',
    summary: 'Payout rows (sale and refund) with every figure, newest first (cursor paging)',
    description:
      'A vendor token: its own rows. A shop token: every payout row of the shop. Rows of paid orders, rows a ' +
      'batch already paid, and refund rows; `type` keeps one kind. A merchant token is refused with 403.',
  })
  @ApiOkResponse({ type: PayoutRowsPageEnvelopeDto })
  @ApiV2Errors(422)
  async rows(
    @Scope() scope: ShopScope,
    @Query() query: PayoutRowsQueryDto,
  ): Promise<V2Envelope<PayoutRowsPageDto>> {
    return ok(await this.money.rows(scope, query));
  }

  @Get('v2/balance')
  @V2Auth('vendor')
  @RequireScope('payouts:read')
  @ApiOperation({
    operationId: 'getVendorBalance',
    summary: 'The vendor’s own balance: due now, pending, paid to date, carried forward, last batch',
    description: 'Vendor tokens only; shop and merchant tokens are refused with 403.',
  })
  @ApiOkResponse({ type: VendorBalanceEnvelopeDto })
  @ApiV2Errors()
  async balance(@Scope() scope: ShopScope): Promise<V2Envelope<VendorBalanceDto>> {
    return ok(await this.money.balance(scope));
  }
}
