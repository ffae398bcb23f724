import type { PayoutRunDto } from './dto/payout-run.dto';
import type { PayoutRun } from './payout-run.schema';

export function toPayoutRunResponse(run: PayoutRun): PayoutRunDto {
  return {
    _id: String(run._id),
    dueDate: run.dueDate,
    state: run.state,
    frequency: run.frequency,
    holdDays: run.holdDays,
    minimumPayout: run.minimumPayout,
    vendors: run.vendors.map((v) => ({
      vendorId: String(v.vendorId),
      vendorName: v.vendorName,
      skipped: v.skipped ?? null,
      batchId: v.batchId ? String(v.batchId) : null,
      periodEnd: v.periodEnd ?? null,
      status: v.status ?? null,
      total: v.total ?? 0,
      net: v.net ?? null,
    })),
    totals: run.totals
      ? {
          batches: run.totals.batches,
          paidBatches: run.totals.paidBatches,
          skippedVendors: run.totals.skippedVendors,
          paid: run.totals.paid,
          carriedForward: run.totals.carriedForward,
          belowMinimum: run.totals.belowMinimum,
        }
      : null,
    claims: run.claims,
    startedAt: run.startedAt ? run.startedAt.toISOString() : null,
    completedAt: run.completedAt ? run.completedAt.toISOString() : null,
    lastError: run.lastError ?? null,
    createdAt: run.createdAt.toISOString(),
  };
}
