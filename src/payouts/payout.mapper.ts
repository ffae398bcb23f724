import { PayoutBatchDto } from './dto/payout-batch.dto';
import { PayoutRowDto } from './dto/payout.dto';
import { PayoutBatch } from './payout-batch.schema';
import type { PayoutRowSource } from '../line-items/line-item-views';

const iso = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);

export function toPayoutRow(li: PayoutRowSource): PayoutRowDto {
  return {
    _id: String(li._id),
    type: li.type ?? 'sale',
    refundId: li.refundId ?? null,
    quantity: li.type === 'refund' ? (li.refundedQuantity ?? 0) : li.quantity,
    orderNumber: li.orderNumber,
    orderName: li.orderName,
    vendorId: li.vendorId ? String(li.vendorId) : '',
    vendorName: li.vendorName ?? '',
    lineItemName: li.name,
    payout: li.payout,
    paid: li.paid,
    balance: li.balance,
    payoutStatus: li.payoutStatus,
    fulfillmentStatus: li.fulfillmentStatus,
    batchId: li.batchId ?? null,
    date: li.orderCreatedAt.toISOString(),
  };
}

export function toPayoutBatchResponse(b: PayoutBatch): PayoutBatchDto {
  return {
    _id: String(b._id),
    vendorId: String(b.vendorId),
    vendorName: b.vendorName,
    periodEnd: b.periodEnd,
    cutoff: b.cutoff.toISOString(),
    status: b.status,
    lineItemCount: b.lineItemCount,
    lineItemTotal: b.lineItemTotal,
    adjustmentCount: b.adjustmentCount,
    adjustmentTotal: b.adjustmentTotal,
    refundCount: b.refundCount ?? 0,
    refundTotal: b.refundTotal ?? 0,
    total: b.total,
    net: b.net ?? null,
    openingBalance: b.openingBalance ?? 0,
    closingBalance: b.closingBalance ?? 0,
    runs: b.runs,
    lastError: b.lastError ?? null,
    createdAt: b.createdAt.toISOString(),
    startedAt: iso(b.startedAt),
    completedAt: iso(b.completedAt),
  };
}
