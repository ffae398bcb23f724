import { sumAmounts } from '../common/money';
import type { RunTotals, RunVendor } from './payout-run.schema';

/**
 * A completed run's totals from its vendors' settled batches (exact cents): what it paid (completed
 * batches), carried forward (net ≤ 0) and left below the minimum (net > 0, still due).
 */
export function runTotals(vendors: RunVendor[]): RunTotals {
  const withBatch = vendors.filter((v) => v.batchId);
  const of = (status: string) => withBatch.filter((v) => v.status === status);
  return {
    batches: withBatch.length,
    paidBatches: of('completed').length,
    skippedVendors: vendors.filter((v) => v.skipped).length,
    paid: sumAmounts(of('completed').map((v) => v.total)),
    carriedForward: sumAmounts(of('carried_forward').map((v) => v.net ?? 0)),
    belowMinimum: sumAmounts(of('below_minimum').map((v) => v.net ?? 0)),
  };
}
