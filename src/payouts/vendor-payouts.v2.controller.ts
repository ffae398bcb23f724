import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Scope, V2Auth } from '../common/auth/auth.decorators';
import { RequireScope } from '../common/auth/scopes';
import { ApiV2Errors } from '../common/http/api-errors.decorator';
import { ok, type V2Envelope } from '../common/http/envelope';
import { ApiOperationIdsByPath } from '../common/http/openapi-keys';
import { CursorPageQueryDto } from '../common/pagination';
import type { ShopScope } from '../common/tenancy';
import {
  PayoutSummaryDto,
  PayoutSummaryEnvelopeDto,
  PayoutTransactionsPageDto,
  PayoutTransactionsPageEnvelopeDto,
} from './dto/vendor-payouts.dto';
import { VendorPayoutsService } from './vendor-payouts.service';

/**
 * The vendor surface's money reads (DESIGN §12, `payouts:read`), served without prefix and under
 * `/v2`: vendor tokens only (shop and merchant tokens → 403). The payout rows and the balance are
 * GET /v2/payouts and GET /v2/balance.
 */
@ApiTags('Payouts')
@Controller()
export class VendorPayoutsV2Controller {
  constructor(private readonly payouts: VendorPayoutsService) {}

  @Get(['payouts/summary', 'v2/payouts/summary'])
  @V2Auth('vendor')
  @RequireScope('payouts:read')
  @ApiOperationIdsByPath({
    '/payouts/summary': 'getPayoutSummary',
    '/v2/payouts/summary': 'getPayoutSummaryV2',
  })
  @ApiOperation({
    summary: 'What the vendor received, what it is still owed, and its last payout',
    description:
      '`totalReceived` equals the paid transfers of GET /payouts/transactions (reversed ones less what was taken ' +
      'back); `totalPending` is `due + pending` of GET /v2/balance. `nextPayout` is null (no payout schedule yet).',
  })
  @ApiOkResponse({ type: PayoutSummaryEnvelopeDto })
  @ApiV2Errors()
  async summary(@Scope() scope: ShopScope): Promise<V2Envelope<PayoutSummaryDto>> {
    return ok(await this.payouts.summary(scope));
  }

  @Get(['payouts/transactions', 'v2/payouts/transactions'])
  @V2Auth('vendor')
  @RequireScope('payouts:read')
  @ApiOperationIdsByPath({
    '/payouts/transactions': 'listPayoutTransactions',
    '/v2/payouts/transactions': 'listPayoutTransactionsV2',
  })
  @ApiOperation({
    summary: "The vendor's transfers (one per paid payout batch), newest first (cursor paging)",
    description: 'Every state: pending, sent, paid, failed, reversed. `paidAt` is set once paid.',
  })
  @ApiOkResponse({ type: PayoutTransactionsPageEnvelopeDto })
  @ApiV2Errors(422)
  async transactions(
    @Scope() scope: ShopScope,
    @Query() query: CursorPageQueryDto,
  ): Promise<V2Envelope<PayoutTransactionsPageDto>> {
    return ok(await this.payouts.transactions(scope, query));
  }
}
