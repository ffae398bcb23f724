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
  // Every matched line has this vendorId. Grouped by it rather than `_id: null` for FerretDB v1.24
  // (it summed fields to 0 under null; no longer a supported store), kept: SecantusDB runs this shape.
  // MongoDB: one group either way, the same sums.
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

/**
 * GET /v1/payouts (and its CSV export, and the vendor's own list): a vendor's lines on paid orders,
 * and any line a batch already paid.
 *
 * Four shapes, each one index range in the common cases:
 * - only a status (`?status=unpaid`, the operator's "what is owed"): `inPayouts, payoutStatus`;
 * - other status or fulfillment filters: the status index, absent enums sent as `$in` over their values;
 * - vendor (a vendor filter or a vendor token) without those filters: `inPayouts, vendorId, type`;
 * - neither — the page an operator opens first — a single range of `inPayouts` (or
 *   `inPayouts, type` with a type filter), newest first.
 * Why not always the status index with `$in` over every status: that is six point ranges merged
 * in sort order, and the development store's merge (and the count over them) grows with the shop:
 * 95 ms find + 150 ms count at 20,000 rows against 48 + 55 ms for one range (scripts/bench/
 * payouts-list.bench.js prints both shapes side by side).
 * MongoDB: serves the single range at least as well: an IXSCAN that stops after the page.
 */
export function payoutRowsWhere(filter: PayoutRowFilter): Record<string, unknown> {
  const byStatus = filter.payoutStatus !== undefined || filter.fulfillmentStatus !== undefined;
  const statusOnly =
    filter.payoutStatus !== undefined &&
    filter.fulfillmentStatus === undefined &&
    filter.type === undefined &&
    filter.vendorId === undefined;
  if (statusOnly) {
    return { inPayouts: true, payoutStatus: filter.payoutStatus, orderCreatedAt: filter.orderCreatedAt };
  }
  if (byStatus) {
    return {
      inPayouts: true,
      vendorId: filter.vendorId,
      payoutStatus: valueOrAny(filter.payoutStatus, PAYOUT_STATUSES),
      fulfillmentStatus: valueOrAny(filter.fulfillmentStatus, FULFILLMENT_STATUSES),
      type: rowTypeFilter(filter.type),
      orderCreatedAt: filter.orderCreatedAt,
    };
  }
  if (filter.vendorId !== undefined) {
    return {
      inPayouts: true,
      vendorId: filter.vendorId,
      type: rowTypeFilter(filter.type),
      orderCreatedAt: filter.orderCreatedAt,
    };
  }
  return {
    inPayouts: true,
    type: filter.type === undefined ? undefined : rowTypeFilter(filter.type),
    orderCreatedAt: filter.orderCreatedAt,
  };
}

/** Every row of a vendor, payout rows or not (on the vendor's payout index). */
export function vendorRowsWhere(vendorId: Types.ObjectId): Record<string, unknown> {
  return { inPayouts: { $in: [true, false] }, vendorId, type: rowTypeFilter(undefined) };
}

/** A batch's settled rows in statement order (oldest first). */
export const STATEMENT_ORDER = { orderCreatedAt: 1, _id: 1 } as const;

/**
 * GET /v1/report/{vendorId}: every row of the vendor in the date range, on the vendor's payout
 * index (`inPayouts` and `type` as `$in` over their values: four ranges merged in date order).
 */
export function vendorReportWhere(
  vendorId: Types.ObjectId,
  orderCreatedAt: { $gte?: Date; $lte?: Date } | undefined,
): Record<string, unknown> {
  return { ...vendorRowsWhere(vendorId), orderCreatedAt };
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
