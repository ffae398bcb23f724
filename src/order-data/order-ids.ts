import { createHash } from 'node:crypto';
import { Types } from 'mongoose';

/**
 * Order documents get ids derived from (shop, store-platform order id[, vendor]): the raw order, its
 * shop-level summary and the order `_id` every API shows are the same value, and a replayed webhook
 * addresses the same documents without a lookup.
 */
function derivedId(...parts: string[]): Types.ObjectId {
  return new Types.ObjectId(createHash('sha256').update(parts.join('\0')).digest().subarray(0, 12));
}

export function orderObjectId(shopId: string, orderId: number): Types.ObjectId {
  return derivedId('order', shopId, String(orderId));
}

export function vendorOrderSummaryId(shopId: string, orderId: number, vendorId: string): Types.ObjectId {
  return derivedId('order-vendor', shopId, String(orderId), vendorId);
}
