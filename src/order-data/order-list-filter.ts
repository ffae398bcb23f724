import type { RolledUpFulfillment } from './order-summary.schema';

/** The filters of an order list (GET /orders, /v2/orders), parsed and validated by the caller. */
export interface OrderListFilter {
  /** Of orders not cancelled (a cancelled order counts only as cancelled, as in the counts). */
  fulfillmentStatus?: RolledUpFulfillment;
  financialStatus?: string;
  createdAtMin?: Date;
  createdAtMax?: Date;
  /** A search: the order number, or else the exact order name. */
  orderNumber?: number;
  orderName?: string;
}

/**
 * The store filter of a list, shaped for one of the summaries' indexes each (order-summary.schema.ts):
 * the equality fields first, the creation-time range on the list's sort key.
 */
export function orderListWhere(f: OrderListFilter): Record<string, unknown> {
  const where: Record<string, unknown> = {};
  if (f.fulfillmentStatus !== undefined) {
    where.cancelled = false;
    where.fulfillmentStatus = f.fulfillmentStatus;
  }
  if (f.financialStatus !== undefined) where.financialStatus = f.financialStatus;
  if (f.orderNumber !== undefined) where.orderNumber = f.orderNumber;
  if (f.orderName !== undefined) where.orderName = f.orderName;
  if (f.createdAtMin !== undefined || f.createdAtMax !== undefined) {
    where.orderCreatedAt = {
      ...(f.createdAtMin !== undefined ? { $gte: f.createdAtMin } : {}),
      ...(f.createdAtMax !== undefined ? { $lte: f.createdAtMax } : {}),
    };
  }
  return where;
}
