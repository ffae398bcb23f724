import { PayoutAdjustmentDto } from './dto/payout-adjustment.dto';
import { PayoutAdjustment } from './payout-adjustment.schema';

export function toPayoutAdjustmentResponse(a: PayoutAdjustment): PayoutAdjustmentDto {
  return {
    _id: String(a._id),
    shopId: String(a.shopId),
    vendorId: String(a.vendorId),
    vendorName: a.vendorName,
    amount: a.amount,
    type: a.type,
    status: a.status,
    batchId: a.batchId,
    customId: a.customId,
    comments: a.comments ?? '',
    customItemDate: a.customItemDate.toISOString(),
    createdAt: a.createdAt.toISOString(),
    updatedAt: a.updatedAt.toISOString(),
  };
}

/** `ADJ-000042`: zero-padded to six digits, longer once a shop passes 999,999 adjustments. */
export function formatCustomId(seq: number): string {
  return `ADJ-${String(seq).padStart(6, '0')}`;
}
