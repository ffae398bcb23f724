import type { Types } from 'mongoose';
import { valueOrAny } from '../database/query-filters';
import { FULFILLMENT_STATUSES, PAYOUT_STATUSES, ROW_TYPES, RowType } from './line-item.schema';
import type { FulfillmentRowFilter, GuardedSet, PayoutRowFilter, ReportSums } from './line-item-views';

// The line_items repository's query shapes that need no database: each list's filter (optional
// enum filters sent as `$in` over every value, so one compound index serves the list with and
// without them), the payable condition, the report's totals stage.

/** Line item lists: newest order first, `_id` breaking ties (every list index ends with these keys). */
export const NEWEST_ORDER_FIRST = { orderCreatedAt: -1, _id: -1 } as const;

/**
 * A row the payout engine may net (DESIGN §8): a payout row (`inPayouts`: a vendor's refund row,
 * or sale row of an order whose money was captured) dated up to the cut-off, with something left to
 * settle, not held by a batch (only the engine sets batchId). A cancelled order's sale rows stay
 * payable: its refund rows take the money back, so the pair nets to what the vendor keeps.
 */
export function payable(cutoff: Date): Record<string, unknown> {
  return {
    inPayouts: true,
    batchId: null,
    orderCreatedAt: { $lte: cutoff },
    balance: { $ne: 0 },
  };
}

/** `type` as the payout list sends it: a sale row stored before refund rows existed has none (null). */
export function rowTypeFilter(type: RowType | undefined): unknown {
  if (type === 'refund') return 'refund';
  return { $in: type === 'sale' ? ['sale', null] : [...ROW_TYPES, null] };
}

const sum = (field: string) => ({ $sum: `$${field}` });

/** The vendor report's totals over its whole range (one `$group` beside the page's find). */
export const REPORT_SUMS_GROUP = {
  // Every matched line has this vendorId; FerretDB v1.24 sums fields to 0 under `_id: null`.
  _id: '$vendorId',
  count: { $sum: 1 },
  sales: sum('sales'),
  salesAfterDiscount: sum('salesAfterDiscount'),
  commission: sum('commission'),
  deduction: sum('deduction'),
  payout: sum('payout'),
  paid: sum('paid'),
  balance: sum('balance'),
};

/** The report's totals when the range holds no line. */
export const NO_REPORT_SUMS: ReportSums = {
  count: 0,
  sales: 0,
  salesAfterDiscount: 0,
  commission: 0,
  deduction: 0,
  payout: 0,
  paid: 0,
  balance: 0,
};

/** GET /v1/payouts: a vendor's lines on paid orders, and any line a batch already paid. */
export function payoutRowsWhere(filter: PayoutRowFilter): Record<string, unknown> {
  return {
    inPayouts: true,
    vendorId: filter.vendorId,
    payoutStatus: valueOrAny(filter.payoutStatus, PAYOUT_STATUSES),
    fulfillmentStatus: valueOrAny(filter.fulfillmentStatus, FULFILLMENT_STATUSES),
    type: rowTypeFilter(filter.type),
    orderCreatedAt: filter.orderCreatedAt,
  };
}

/** GET /v1/report/{vendorId}: the payout rows' index keys, each as `$in` over every value. */
export function vendorReportWhere(
  vendorId: Types.ObjectId,
  orderCreatedAt: { $gte?: Date; $lte?: Date } | undefined,
): Record<string, unknown> {
  return {
    inPayouts: { $in: [true, false] },
    vendorId,
    payoutStatus: { $in: PAYOUT_STATUSES },
    fulfillmentStatus: { $in: FULFILLMENT_STATUSES },
    type: rowTypeFilter(undefined),
    orderCreatedAt,
  };
}

/** GET /v1/fulfillments: only line items of paid orders. */
export function fulfillmentRowsWhere(filter: FulfillmentRowFilter): Record<string, unknown> {
  const { shipmentStatus, ...rest } = filter;
  return {
    ...rest,
    ...(shipmentStatus !== undefined ? { 'fulfillment.shipmentStatus': shipmentStatus } : {}),
    fulfillmentStatus: valueOrAny(rest.fulfillmentStatus, FULFILLMENT_STATUSES),
    financialStatus: 'paid',
  };
}

/**
 * Guarded sets merged by identical (guard, set), so writing the same fields to many line items is
 * one `updateMany`; with `audited`, a write carrying an event stays its own statement (its event
 * goes to its own line's outbox).
 */
export function groupGuardedSets(
  writes: GuardedSet[],
  audited: boolean,
): Array<GuardedSet & { ids: Types.ObjectId[] }> {
  const groups = new Map<string, GuardedSet & { ids: Types.ObjectId[] }>();
  for (const w of writes) {
    const key = audited && w.event ? `event:${String(w.id)}` : JSON.stringify([w.guard, w.set]);
    const g = groups.get(key);
    if (g) g.ids.push(w.id);
    else groups.set(key, { ...w, ids: [w.id] });
  }
  return [...groups.values()];
}
