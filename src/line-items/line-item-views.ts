import type { Types } from 'mongoose';
import type { AuditRecord } from '../audit/audit-record';
import type { LineItem, PayoutStatus, RowType } from './line-item.schema';
import { LINE_FIGURE_FIELDS, type LineFigureField } from './dto/line-figures.dto';

/**
 * The shapes in which the line-items repositories (one per consumer) hand out line items to each
 * caller, with the projection each read uses. Figures stay in the line item; these are read-only
 * views of it.
 */

/** One conditional write: `set` applies to the line item only while `guard` still holds. */
export interface GuardedSet {
  id: Types.ObjectId;
  guard: Record<string, unknown>;
  set: Record<string, unknown>;
  /** The write's audit event (a hand-written figure), stored in the line's outbox with the change. */
  event?: AuditRecord | null;
}

// ---- payouts ----------------------------------------------------------------------------------

export interface PayoutRowFilter {
  vendorId?: Types.ObjectId;
  orderCreatedAt?: { $gte?: Date; $lte?: Date };
  payoutStatus?: PayoutStatus;
  fulfillmentStatus?: 'fulfilled' | 'unfulfilled';
  type?: RowType;
}

/** The fields a payout row (spec §2.8) is built from. */
export type PayoutRowSource = Pick<
  LineItem,
  | '_id'
  | 'orderNumber'
  | 'orderName'
  | 'vendorId'
  | 'vendorName'
  | 'name'
  | 'payout'
  | 'paid'
  | 'balance'
  | 'payoutStatus'
  | 'fulfillmentStatus'
  | 'batchId'
  | 'orderCreatedAt'
  | 'type'
  | 'refundId'
  | 'refundedQuantity'
  | 'quantity'
>;

export const PAYOUT_ROW_PROJECTION = projectionOf<PayoutRowSource>([
  'type',
  'refundId',
  'refundedQuantity',
  'quantity',
  'orderNumber',
  'orderName',
  'vendorId',
  'vendorName',
  'name',
  'payout',
  'paid',
  'balance',
  'payoutStatus',
  'fulfillmentStatus',
  'batchId',
  'orderCreatedAt',
]);

/**
 * The refund fields of a row (refund ingestion writes them on refund rows; absent on sale rows
 * and on every row written before refunds were ingested).
 */
export interface RefundRowFields {
  type?: RowType;
  refundId?: string | null;
  refundLineItemId?: string | null;
  refundedQuantity?: number | null;
}

/** A row with its source ids and every figure: statements, CSV exports and the vendor's own list. */
export type MoneyRowSource = Pick<
  LineItem,
  | '_id'
  | 'orderId'
  | 'lineItemId'
  | 'orderName'
  | 'orderNumber'
  | 'orderCreatedAt'
  | 'vendorId'
  | 'vendorName'
  | 'name'
  | 'sku'
  | 'quantity'
  | LineFigureField
  | 'paid'
  | 'balance'
  | 'payoutStatus'
  | 'fulfillmentStatus'
  | 'batchId'
  | 'batchPaidAmount'
> &
  RefundRowFields;

export const MONEY_ROW_PROJECTION: Record<string, 1> = {
  ...projectionOf<MoneyRowSource>([
    'orderId',
    'lineItemId',
    'orderName',
    'orderNumber',
    'orderCreatedAt',
    'vendorId',
    'vendorName',
    'name',
    'sku',
    'quantity',
    ...LINE_FIGURE_FIELDS,
    'paid',
    'balance',
    'payoutStatus',
    'fulfillmentStatus',
    'batchId',
    'batchPaidAmount',
  ]),
  type: 1,
  refundId: 1,
  refundLineItemId: 1,
  refundedQuantity: 1,
};

/** What the payout engine reads of a payable line item. */
export type PayableLineItem = Pick<LineItem, '_id' | 'paid' | 'balance'>;

/** What a batch's totals are summed from (rows it holds: claimed, or paid by it). */
export type BatchPaidLineItem = Pick<
  LineItem,
  '_id' | 'orderId' | 'batchPaidAmount' | 'type' | 'frozen' | 'paid' | 'payout'
>;

/** What the reconcile command reads of a row. */
export type ReconcileRow = Pick<
  LineItem,
  '_id' | 'type' | 'payout' | 'paid' | 'balance' | 'batchId' | 'batchPaidAmount' | 'frozen' | 'inPayouts'
>;

export const RECONCILE_PROJECTION = projectionOf<ReconcileRow>([
  'type',
  'payout',
  'paid',
  'balance',
  'batchId',
  'batchPaidAmount',
  'frozen',
  'inPayouts',
]);

// ---- fulfillments -----------------------------------------------------------------------------

export interface FulfillmentRowFilter {
  vendorId?: Types.ObjectId;
  orderCreatedAt?: { $gte?: Date; $lte?: Date };
  fulfillmentStatus?: 'fulfilled' | 'unfulfilled';
  shipmentStatus?: string;
}

/** The fields a fulfillment row (spec §2.7) is built from. */
export type FulfillmentRowSource = Pick<
  LineItem,
  | '_id'
  | 'orderNumber'
  | 'orderName'
  | 'orderCreatedAt'
  | 'vendorId'
  | 'vendorName'
  | 'name'
  | 'variantTitle'
  | 'sku'
  | 'fulfillmentStatus'
  | 'fulfillment'
  | 'shippingAddress'
  | 'billingAddress'
>;

export const FULFILLMENT_ROW_PROJECTION = projectionOf<FulfillmentRowSource>([
  'orderNumber',
  'orderName',
  'orderCreatedAt',
  'vendorId',
  'vendorName',
  'name',
  'variantTitle',
  'sku',
  'fulfillmentStatus',
  'fulfillment',
  'shippingAddress',
  'billingAddress',
]);

/** What fulfillment creation reads of a requested line item. */
export type FulfillableLineItem = Pick<
  LineItem,
  | '_id'
  | 'orderId'
  | 'lineItemId'
  | 'vendorId'
  | 'quantity'
  | 'cancelled'
  | 'fulfillmentStatus'
  | 'fulfillmentLock'
>;

export const FULFILLABLE_PROJECTION = projectionOf<FulfillableLineItem>([
  'orderId',
  'lineItemId',
  'vendorId',
  'quantity',
  'cancelled',
  'fulfillmentStatus',
  'fulfillmentLock',
]);

function projectionOf<V>(fields: Array<Exclude<keyof V, '_id'> & string>): Record<string, 1> {
  return Object.fromEntries(fields.map((f) => [f, 1]));
}

// ---- vendor report ----------------------------------------------------------------------------

/** The fields a vendor report row (GET /v1/report/{vendorId}) is built from. */
export type ReportRowSource = Pick<
  LineItem,
  | '_id'
  | 'orderId'
  | 'orderName'
  | 'orderNumber'
  | 'orderCreatedAt'
  | 'lineItemId'
  | 'name'
  | 'sku'
  | 'quantity'
  | 'sales'
  | 'salesAfterDiscount'
  | 'tax'
  | 'costOfItem'
  | 'commissionPlan'
  | 'commission'
  | 'deduction'
  | 'payout'
  | 'paid'
  | 'balance'
  | 'payoutStatus'
  | 'type'
  | 'refundId'
  | 'refundedQuantity'
>;

export const REPORT_ROW_PROJECTION = projectionOf<ReportRowSource>([
  'type',
  'refundId',
  'refundedQuantity',
  'orderId',
  'orderName',
  'orderNumber',
  'orderCreatedAt',
  'lineItemId',
  'name',
  'sku',
  'quantity',
  'sales',
  'salesAfterDiscount',
  'tax',
  'costOfItem',
  'commissionPlan',
  'commission',
  'deduction',
  'payout',
  'paid',
  'balance',
  'payoutStatus',
]);

/** Σ of a vendor's figures over a date range (store `$sum`s, rounded to the cent by the caller). */
export interface ReportSums {
  count: number;
  sales: number;
  salesAfterDiscount: number;
  commission: number;
  deduction: number;
  payout: number;
  paid: number;
  balance: number;
}
