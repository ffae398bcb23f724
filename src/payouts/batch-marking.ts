import type { PayableAdjustment } from '../adjustments/payout-adjustments.repository';
import { sumAmounts } from '../common/money';
import type { BatchPaidLineItem } from '../line-items/line-item-views';
import type { DecidedAdjustment } from './payout-batch.schema';
import type { BatchTotals } from './payout-batches.repository';

/**
 * Whether the adjustments carrying a batch's id are exactly those its pay decision netted, at the
 * amounts it netted (issue 28: one edited, deleted or moved out of the period in between is not).
 */
export function markedAsDecided(decided: DecidedAdjustment[], marked: PayableAdjustment[]): boolean {
  if (decided.length !== marked.length) return false;
  const amounts = new Map(marked.map((a) => [String(a._id), a.amount]));
  return decided.every((d) => amounts.get(String(d._id)) === d.amount);
}

/** The net of what a batch holds: its rows' claimed amounts and the adjustments carrying its id. */
export function heldNet(rows: BatchPaidLineItem[], adjustments: PayableAdjustment[]): number {
  return sumAmounts([...rows.map((li) => li.batchPaidAmount ?? 0), ...adjustments.map((a) => a.amount)]);
}

/**
 * Σ of what the batch paid (its frozen rows and the adjustments carrying its id): exact whatever
 * happened to earlier runs.
 */
export function paidTotals(
  held: BatchPaidLineItem[],
  adjustments: PayableAdjustment[],
): { totals: Omit<BatchTotals, 'closingBalance'>; orderIds: number[] } {
  const items = held.filter((li) => li.frozen);
  const refunds = items.filter((li) => li.type === 'refund');
  const lineItemTotal = sumAmounts(items.map((li) => li.batchPaidAmount ?? 0));
  const adjustmentTotal = sumAmounts(adjustments.map((a) => a.amount));
  return {
    totals: {
      lineItemCount: items.length,
      lineItemTotal,
      refundCount: refunds.length,
      refundTotal: sumAmounts(refunds.map((li) => li.batchPaidAmount ?? 0)),
      adjustmentCount: adjustments.length,
      adjustmentTotal,
      total: sumAmounts([lineItemTotal, adjustmentTotal]),
    },
    orderIds: [...new Set(items.map((li) => li.orderId))],
  };
}
