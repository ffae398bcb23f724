import { Injectable } from '@nestjs/common';
import { PayoutAdjustmentsRepository } from '../adjustments/payout-adjustments.repository';
import { Clock } from '../common/clock/clock';
import { dayEnd, dayOf } from '../common/dates/day-range';
import { NotFoundError } from '../common/errors';
import { fromCents, sumAmounts } from '../common/money';
import { type ShopScope, toObjectId } from '../common/tenancy';
import { VendorsRepository } from '../vendors/vendors.repository';
import type { VendorBalanceDto } from './dto/vendor-balance.dto';
import { VendorBalancesRepository } from '../balances/vendor-balances.repository';
import { VendorTally } from '../line-items/vendor-tally.service';

/**
 * A vendor's payout balance (DESIGN §8), read from what is maintained at write time: `paidToDate`,
 * `carriedForward` and `lastBatch` by the payout engine, the unpaid rows' `due` and `pending` sums by
 * the tally (line-items/vendor-tally.service.ts) — all in the vendor's `vendor_balances` document —
 * plus the vendor's UNPAID adjustments (a handful, summed on their index). Two reads side by side at
 * any history size. `get(scope, vendorId)` is the one entry point: a vendor-token path passes a
 * vendor scope and its own id.
 */
@Injectable()
export class VendorBalanceService {
  constructor(
    private readonly vendors: VendorsRepository,
    private readonly balances: VendorBalancesRepository,
    private readonly adjustments: PayoutAdjustmentsRepository,
    private readonly clock: Clock,
    private readonly tally: VendorTally,
  ) {}

  async get(scope: ShopScope, vendorId: string): Promise<VendorBalanceDto> {
    const id = toObjectId(vendorId);
    // A vendor caller reads only its own balance (its scope would narrow every read to itself).
    if (!id || (scope.vendorId && scope.vendorId !== String(id))) throw new NotFoundError('Vendor');
    const today = dayEnd(dayOf(this.clock.now()))!;
    // A change this process is still counting (the webhook path counts after its job) is waited for.
    await this.tally.idle(scope, id);
    // One round trip: the balance document (scoped: it exists only for a vendor of this shop that
    // has rows or batches) and the UNPAID adjustments' sum. Only a vendor without a balance
    // document needs the vendor read for its 404.
    const [stored, adjustments] = await Promise.all([
      this.balances.find(scope, id),
      this.adjustments.unpaidSum(scope, id, today),
    ]);
    if (!stored && !(await this.vendors.findById(scope, id))) throw new NotFoundError('Vendor');
    const last = stored?.lastBatch ?? null;
    return {
      vendorId: String(id),
      due: sumAmounts([fromCents(stored?.dueCents ?? 0), adjustments]),
      pending: fromCents(stored?.pendingCents ?? 0),
      paidToDate: fromCents(stored?.paidToDateCents ?? 0),
      carriedForward: stored?.carriedForward ?? 0,
      lastBatch: last && {
        batchId: String(last.batchId),
        status: last.status as 'completed' | 'carried_forward' | 'below_minimum',
        periodEnd: last.periodEnd,
        total: last.total,
        net: last.net,
        settledAt: last.settledAt.toISOString(),
      },
    };
  }
}
