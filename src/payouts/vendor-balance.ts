import { Injectable } from '@nestjs/common';
import type { Types } from 'mongoose';
import { PayoutAdjustmentsRepository } from '../adjustments/payout-adjustments.repository';
import { Clock } from '../common/clock/clock';
import { sumAmounts } from '../common/money';
import type { ShopScope } from '../common/tenancy';
import { LineItemsRepository } from '../line-items/line-items.repository';
import type { PayoutBatch } from './payout-batch.schema';
import { PayoutBatchesRepository } from './payout-batches.repository';

/** A vendor's money at a glance (issue 17: `{due, pending, paidToDate, carriedForward, lastBatch}`). */
export interface VendorBalance {
  /** What the next batch would pay now (may be negative once refunds are netted). */
  due: number;
  /** Earned on orders that are not payable yet. */
  pending: number;
  paidToDate: number;
  /** The net a carried-forward batch left for the next one (0 when none). */
  carriedForward: number;
  lastBatch: PayoutBatch | null;
}

/**
 * SEAM (coordinator): the port `GET /v2/balance` reads. The maintained balance service of the
 * money-core branch (running totals written with the rows, 1–2 indexed reads) is to be bound to
 * this token in PayoutsModule, replacing `RowSumsVendorBalances` below.
 */
export abstract class VendorBalances {
  abstract balanceOf(scope: ShopScope, vendorId: Types.ObjectId): Promise<VendorBalance>;
}

/**
 * INTERIM binding of VendorBalances until the maintained balance is merged: the figures summed
 * from the vendor's rows and adjustments at read time (4 indexed reads that grow with its history;
 * `pending` also counts lines of cancelled unpaid orders; `carriedForward` is the last batch's
 * recorded closing balance when the engine records one, else 0).
 */
@Injectable()
export class RowSumsVendorBalances extends VendorBalances {
  constructor(
    private readonly lineItems: LineItemsRepository,
    private readonly adjustments: PayoutAdjustmentsRepository,
    private readonly batches: PayoutBatchesRepository,
    private readonly clock: Clock,
  ) {
    super();
  }

  async balanceOf(scope: ShopScope, vendorId: Types.ObjectId): Promise<VendorBalance> {
    const now = this.clock.now();
    const [rows, adj, lastBatch] = await Promise.all([
      this.lineItems.vendorMoneySums(scope, vendorId, now),
      this.adjustments.vendorSums(scope, vendorId, now),
      this.batches.latestForVendor(scope, vendorId),
    ]);
    const closing = (lastBatch as (PayoutBatch & { closingBalance?: number | null }) | null)?.closingBalance;
    return {
      due: sumAmounts([rows.due, adj.unpaid]),
      pending: rows.pending,
      paidToDate: sumAmounts([rows.paid, adj.paid]),
      carriedForward: closing ?? 0,
      lastBatch,
    };
  }
}
