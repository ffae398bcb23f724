import { Inject, Injectable } from '@nestjs/common';
import { Types } from 'mongoose';
import { ForbiddenError } from '../common/errors';
import { money, round2, sumAmounts } from '../common/money';
import { CursorPageQueryDto, readCursorPage } from '../common/pagination';
import type { ShopScope } from '../common/tenancy';
import { authConfig, type AuthConfig } from '../config/configuration';
import { PayoutProvidersService } from '../transfers/payout-providers.service';
import {
  TransferStateSums,
  VendorTransferRow,
  VendorTransfersRepository,
} from '../transfers/vendor-transfers.repository';
import type {
  PayoutSummaryDto,
  PayoutTransactionDto,
  PayoutTransactionsPageDto,
} from './dto/vendor-payouts.dto';
import { VendorBalanceService } from './vendor-balance.service';

/**
 * The vendor's payouts as money received (DESIGN §12, `payouts:read`): its transfers, and a summary
 * of what reached it and what it is still owed. The rows and the balance are GET /v2/payouts and
 * GET /v2/balance; this adds the transfer side, and reuses the balance for what is owed.
 */
@Injectable()
export class VendorPayoutsService {
  constructor(
    private readonly transfers: VendorTransfersRepository,
    private readonly balances: VendorBalanceService,
    private readonly providers: PayoutProvidersService,
    @Inject(authConfig.KEY) private readonly auth: AuthConfig,
  ) {}

  async transactions(scope: ShopScope, q: CursorPageQueryDto): Promise<PayoutTransactionsPageDto> {
    const vendorId = vendorOf(scope);
    const page = await readCursorPage(
      q,
      this.auth.cursorKey,
      `payout-transactions:${scope.shopId}:${scope.vendorId}`,
      (window) => this.transfers.page(scope, vendorId, window),
      (r: VendorTransferRow) => ({ t: new Date(r.createdAt).getTime(), id: String(r._id) }),
    );
    return { items: page.items.map(toTransaction), pageInfo: page.pageInfo, totalCount: page.totalCount };
  }

  /**
   * totalReceived = Σ paid transfers + Σ (reversed transfers − what was reversed), in decimal;
   * totalPending = the balance route's due + pending. Four reads side by side.
   */
  async summary(scope: ShopScope): Promise<PayoutSummaryDto> {
    const vendorId = vendorOf(scope);
    const [sums, latest, balance, currency] = await Promise.all([
      this.transfers.sums(scope, vendorId, ['paid', 'reversed']),
      this.transfers.latest(scope, vendorId, 'paid'),
      this.balances.get(scope, String(vendorId)),
      this.providers.currency(scope),
    ]);
    return {
      totalReceived: receivedTotal(sums),
      totalPending: sumAmounts([balance.due, balance.pending]),
      currency,
      previousPayout: latest && {
        amount: latest.amount,
        date: (latest.settledAt ?? latest.createdAt).toISOString(),
        batchId: String(latest.batchId),
      },
      // No payout schedule exists yet (DESIGN §15 is to come): batches run when the shop triggers them.
      nextPayout: null,
    };
  }
}

/**
 * What reached the payees: Σ paid transfers + Σ (reversed transfers − what was reversed). Store
 * `$sum`s of 2-dp amounts are off their exact cents by far less than half a cent: each is rounded
 * half-up to the cent, then summed exactly.
 */
export function receivedTotal(sums: TransferStateSums[]): number {
  return round2(sums.reduce((acc, s) => acc.plus(round2(s.amount)).minus(round2(s.reversed)), money(0)));
}

function vendorOf(scope: ShopScope): Types.ObjectId {
  // The routes admit vendor tokens only; this guards the assumption, not the caller.
  if (!scope.vendorId) throw new ForbiddenError('A vendor token is needed for the payout summary');
  return new Types.ObjectId(scope.vendorId);
}

function toTransaction(r: VendorTransferRow): PayoutTransactionDto {
  const paid = r.state === 'paid' || r.state === 'reversed';
  return {
    _id: String(r._id),
    batchId: String(r.batchId),
    amount: r.amount,
    currency: r.currency,
    method: r.method,
    state: r.state,
    createdAt: new Date(r.createdAt).toISOString(),
    paidAt: paid && r.settledAt ? new Date(r.settledAt).toISOString() : null,
  };
}
