import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import type { RowTally } from '../balances/vendor-balance.schema';
import { Schema as MongooseSchema, Types } from 'mongoose';
import { auditOutboxPlugin } from '../audit/audit-outbox';
import type { CommissionRuleRef } from '../common/money';

export const PAYOUT_STATUSES = ['unpaid', 'partial', 'paid'] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];
export const FULFILLMENT_STATUSES = ['fulfilled', 'unfulfilled'] as const;
/** A payout row is a sale (the order's line) or a refund (DESIGN §6 refund rows, negative figures). */
export const ROW_TYPES = ['sale', 'refund'] as const;
export type RowType = (typeof ROW_TYPES)[number];
/** Financial statuses of an order whose money was captured: its sale rows are payable (DESIGN §8). */
export const PAYABLE_FINANCIAL_STATUSES = ['paid', 'partially_refunded', 'refunded'] as const;
/** The financialStatus a refund row carries: never one of an order, so order-status lists skip it. */
export const REFUND_ROW_FINANCIAL_STATUS = 'refund';
export type FulfillmentStatus = (typeof FULFILLMENT_STATUSES)[number];

/**
 * Whether a line item is a payout row (GET /v1/payouts) and, while no batch holds it, payable: it
 * belongs to a vendor and is a refund row, or a sale row whose order's money was captured (paid,
 * partially_refunded, refunded), or a batch has paid it (whatever happened to the order since).
 * Materialised as `inPayouts` by every write of vendorId, financialStatus or batchId, so the list
 * and the payout engine's selection are one index range each.
 */
export function isPayoutRow(line: {
  vendorId?: unknown;
  financialStatus?: string;
  batchId?: string | null;
  type?: RowType | null;
}): boolean {
  if (line.vendorId == null) return false;
  if (line.type === 'refund' || line.batchId != null) return true;
  return (PAYABLE_FINANCIAL_STATUSES as readonly string[]).includes(line.financialStatus ?? '');
}

/** Tracking recorded when the line item was fulfilled (spec §2.7 `fulfillment`). */
@Schema({ _id: false })
export class LineItemFulfillment {
  /** Fulfillment status on the store platform, e.g. `success`. */
  @Prop({ type: String, default: 'success' }) status!: string;
  @Prop({ type: String, default: null }) trackingCompany!: string | null;
  @Prop({ type: String, default: null }) trackingNumber!: string | null;
  @Prop({ type: String, default: null }) trackingUrl!: string | null;
  /** Shipment status from fulfillments/update webhooks: in_transit, delivered, … */
  @Prop({ type: String, default: null }) shipmentStatus!: string | null;
  /**
   * `happenedAt` of the tracking event (POST /fulfillments/events) that set `shipmentStatus`: an
   * older event arriving later does not override it. Null when set otherwise (webhooks) or never.
   */
  @Prop({ type: Date, default: null }) shipmentStatusAt?: Date | null;
  /** Store-platform fulfillment id, when known. */
  @Prop({ type: String, default: null }) platformFulfillmentId!: string | null;
  @Prop({ type: Date, default: null }) createdAt!: Date | null;
  /** When the shipment status first read `delivered` (fulfillments/update webhooks). */
  @Prop({ type: Date, default: null }) deliveredAt!: Date | null;
}
export const LineItemFulfillmentSchema = SchemaFactory.createForClass(LineItemFulfillment);

/**
 * One calculated line item of an order (spec §2.4): the report row every money figure lives on.
 * Unique per (shop, orderId, lineItemId). Figures are numbers rounded half-up to 2 dp, written only
 * by the money calculation (src/common/money), a line item update, or the payout engine (paid,
 * balance, payoutStatus, frozen, batchId).
 */
@Schema({ collection: 'line_items', timestamps: true })
export class LineItem {
  _id!: Types.ObjectId;

  @Prop({ type: Types.ObjectId, required: true })
  shopId!: Types.ObjectId;

  /** Store-platform ids (numbers). A refund row carries the order and line it refunds. */
  @Prop({ type: Number, required: true }) orderId!: number;
  @Prop({ type: Number, required: true }) lineItemId!: number;

  /** `sale`: the order's line; `refund`: one refund line item of it (DESIGN §6), figures negative. */
  @Prop({ type: String, enum: ROW_TYPES, default: 'sale' }) type!: RowType;
  /** Refund rows: the platform's refund and refund line item ids (strings, every digit kept). */
  @Prop({ type: String, default: null }) refundId!: string | null;
  @Prop({ type: String, default: null }) refundLineItemId!: string | null;
  /** Refund rows: the units refunded (k of the line's n); `quantity` stays 0 so order totals count units sold. */
  @Prop({ type: Number, default: null }) refundedQuantity!: number | null;

  /** Null while no vendor of that name exists (assigned on a later recalculation). */
  @Prop({ type: Types.ObjectId, default: null }) vendorId!: Types.ObjectId | null;
  /** The line's `vendor` field, lowercased (vendor names are stored lowercased). */
  @Prop({ type: String, default: null }) vendorName!: string | null;

  // Order context, copied so lists never join.
  @Prop({ type: String, default: '' }) orderName!: string;
  @Prop({ type: Number, default: 0 }) orderNumber!: number;
  /**
   * The order's creation time: the `date` of fulfillment and payout rows and of payout cut-offs. A
   * refund row holds the refund's date here (processed_at, else created_at).
   */
  @Prop({ type: Date, required: true }) orderCreatedAt!: Date;
  /** Order financial status: pending, paid, partially_paid, refunded, voided, … */
  @Prop({ type: String, default: 'pending' }) financialStatus!: string;
  @Prop({ type: Boolean, default: false }) cancelled!: boolean;
  @Prop({ type: MongooseSchema.Types.Mixed, default: null }) shippingAddress!: Record<string, unknown> | null;
  @Prop({ type: MongooseSchema.Types.Mixed, default: null }) billingAddress!: Record<string, unknown> | null;

  // The line itself.
  @Prop({ type: String, default: '' }) name!: string;
  @Prop({ type: String, default: null }) variantTitle!: string | null;
  @Prop({ type: String, default: null }) sku!: string | null;
  /** 64-bit platform ids as decimal strings (every digit kept). */
  @Prop({ type: String, default: null }) productId!: string | null;
  @Prop({ type: String, default: null }) variantId!: string | null;
  @Prop({ type: Number, default: 0 }) price!: number;
  @Prop({ type: Number, default: 0 }) quantity!: number;
  /** `updated_at` of the order version the line was last ingested from: older webhooks never overwrite it. */
  @Prop({ type: Date, default: null }) sourceUpdatedAt!: Date | null;

  // Figures (DESIGN §6).
  @Prop({ type: Number, default: 0 }) sales!: number;
  @Prop({ type: Number, default: 0 }) discount!: number;
  @Prop({ type: Number, default: 0 }) salesAfterDiscount!: number;
  @Prop({ type: Number, default: 0 }) tax!: number;
  @Prop({ type: Number, default: 0 }) shipping!: number;
  @Prop({ type: Number, default: 0 }) commission!: number;
  @Prop({ type: String, default: null }) commissionPlan!: string | null;
  /** The commission rule the commission came from (DESIGN §13); null: SKU record, vendor or none. */
  @Prop({ type: MongooseSchema.Types.Mixed, default: null }) commissionRule!: CommissionRuleRef | null;
  @Prop({ type: Number, default: 0 }) costOfItem!: number;
  @Prop({ type: Number, default: 0 }) taxOnCommissions!: number;
  @Prop({ type: Number, default: 0 }) tcs!: number;
  @Prop({ type: Number, default: 0 }) totalGlobalDeductions!: number;
  @Prop({ type: Number, default: 0 }) deduction!: number;
  @Prop({ type: Number, default: 0 }) payout!: number;

  // Payout state: set only by the payout engine.
  @Prop({ type: Number, default: 0 }) paid!: number;
  @Prop({ type: Number, default: 0 }) balance!: number;
  @Prop({ type: String, enum: PAYOUT_STATUSES, default: 'unpaid' }) payoutStatus!: PayoutStatus;
  @Prop({ type: Boolean, default: false }) frozen!: boolean;
  @Prop({ type: String, default: null }) batchId!: string | null;
  /** The amount the batch in `batchId` paid on this line (payout engine; batch totals are summed from it). */
  @Prop({ type: Number, default: null }) batchPaidAmount!: number | null;
  /** When the payout engine paid the line. */
  @Prop({ type: Date, default: null }) paidAt!: Date | null;
  /** `isPayoutRow` of the stored fields (written with vendorId, financialStatus and batchId). */
  @Prop({ type: Boolean, default: false }) inPayouts!: boolean;

  /**
   * What this row contributes to its vendor's balance sums, as last counted (vendor-tally.ts), and
   * a change mark: every write of a field the contribution depends on increments `tallyDirt`; the
   * tally counts the difference and sets it back to 0. Missing on rows stored before the tally:
   * they count as changed.
   */
  @Prop({ type: Object, default: null }) tally?: RowTally | null;
  @Prop({ type: Number }) tallyDirt?: number;

  // Fulfillment.
  @Prop({ type: String, enum: FULFILLMENT_STATUSES, default: 'unfulfilled' })
  fulfillmentStatus!: FulfillmentStatus;
  @Prop({ type: LineItemFulfillmentSchema, default: null }) fulfillment!: LineItemFulfillment | null;
  /** Claim held while a POST /v1/fulfillments call is creating this line's fulfillment (expires). */
  @Prop({ type: String, default: null }) fulfillmentLock!: string | null;
  @Prop({ type: Date, default: null }) fulfillmentLockedAt!: Date | null;

  /**
   * Pending-event marker (DESIGN §11, events/pending-event-marker.ts): set in the insert of a new
   * order's sale rows (`order.received`) and of refund rows (`refund.recorded`), every row of one
   * insert with the same time; cleared once the event is recorded. Absent otherwise.
   */
  @Prop({ type: Date, default: undefined }) eventPendingAt?: Date;
  /**
   * The platform fulfillment event of this line (`fulfillment.created|updated`), set with the
   * fulfillment and cleared once recorded. One at a time: a newer version of the fulfillment
   * replaces an older one not yet recorded (its event describes the line as it now is).
   */
  @Prop({ type: MongooseSchema.Types.Mixed, default: undefined })
  fulfillmentEventPending?: PendingFulfillmentEvent;

  createdAt!: Date;
  updatedAt!: Date;
}

/** A platform fulfillment event not recorded yet: its key and type, fixed when the fulfillment was set. */
export interface PendingFulfillmentEvent {
  at: Date;
  key: string;
  type: 'fulfillment.created' | 'fulfillment.updated';
}

export const LineItemSchema = SchemaFactory.createForClass(LineItem);
LineItemSchema.plugin(auditOutboxPlugin);
// Every query shape has one serving index under MongoDB's ESR rule (equality, sort, range). List
// filters that may be absent are sent as `$in` over every value of the enum, so one index per
// vendor / no-vendor family serves every combination (MongoDB merges the sorted point ranges).
// A sale row is unique per (order, line, type sale) — its refund ids are null; a refund row per
// (refund id, refund line item id), which also fixes its order and line (no partial index, DESIGN §1).
LineItemSchema.index(
  { shopId: 1, orderId: 1, lineItemId: 1, type: 1, refundId: 1, refundLineItemId: 1 },
  { unique: true },
);
LineItemSchema.index({ shopId: 1, sku: 1, orderCreatedAt: 1, _id: 1 });
LineItemSchema.index({ shopId: 1, vendorName: 1 });
// What a commission rule can still change: a product's unpaid, unfrozen rows (rule dry-run, a
// product's type arriving), paged by _id.
LineItemSchema.index({ shopId: 1, productId: 1, payoutStatus: 1, frozen: 1, _id: 1 });
// A batch's rows (claimed or paid), and those it still holds unpaid (released when it carries forward).
LineItemSchema.index({ shopId: 1, batchId: 1, frozen: 1 });
// A batch's settled rows in statement order (also "what a batch paid").
LineItemSchema.index({ shopId: 1, batchId: 1, vendorId: 1, orderCreatedAt: 1, _id: 1 });
// GET /v1/payouts, its CSV export and GET /v2/payouts (line-item-queries.ts, payoutRowsWhere):
// status-filtered lists (absent enums as `$in`), the vendor's rows, and one range each for the
// unfiltered first look, a type, and a status alone. `type` is sent as `$in` with null: a sale row
// stored before refund rows existed has none.
const NEWEST = { orderCreatedAt: -1, _id: -1 } as const;
LineItemSchema.index({ shopId: 1, inPayouts: 1, payoutStatus: 1, fulfillmentStatus: 1, type: 1, ...NEWEST });
LineItemSchema.index({
  shopId: 1,
  inPayouts: 1,
  vendorId: 1,
  payoutStatus: 1,
  fulfillmentStatus: 1,
  type: 1,
  ...NEWEST,
});
LineItemSchema.index({ shopId: 1, inPayouts: 1, vendorId: 1, type: 1, ...NEWEST });
LineItemSchema.index({ shopId: 1, inPayouts: 1, ...NEWEST });
LineItemSchema.index({ shopId: 1, inPayouts: 1, payoutStatus: 1, ...NEWEST });
LineItemSchema.index({ shopId: 1, inPayouts: 1, type: 1, ...NEWEST });
// GET /v1/fulfillments (without and with a shipment status filter)
LineItemSchema.index({ shopId: 1, financialStatus: 1, fulfillmentStatus: 1, ...NEWEST });
LineItemSchema.index({ shopId: 1, financialStatus: 1, vendorId: 1, fulfillmentStatus: 1, ...NEWEST });
LineItemSchema.index({
  shopId: 1,
  financialStatus: 1,
  'fulfillment.shipmentStatus': 1,
  fulfillmentStatus: 1,
  ...NEWEST,
});
LineItemSchema.index({
  shopId: 1,
  financialStatus: 1,
  vendorId: 1,
  'fulfillment.shipmentStatus': 1,
  fulfillmentStatus: 1,
  ...NEWEST,
});
// The payout engine: a vendor's due rows (sale and refund) up to a cut-off, the vendors that have
// some, the rows a batch holds (`batchId` index above), and a vendor's unsettled rows (balance read).
LineItemSchema.index({
  shopId: 1,
  inPayouts: 1,
  batchId: 1,
  vendorId: 1,
  orderCreatedAt: 1,
  balance: 1,
  _id: 1,
});
LineItemSchema.index({ shopId: 1, vendorId: 1, batchId: 1, inPayouts: 1 });
// The dashboards (sales-figures.repository.ts): a vendor's or the shop's sale or refund rows in an
// order-date range, grouped (no sort); one equality read per `cancelled` value, sent together.
LineItemSchema.index({ shopId: 1, vendorId: 1, type: 1, cancelled: 1, orderCreatedAt: 1 });
LineItemSchema.index({ shopId: 1, type: 1, cancelled: 1, orderCreatedAt: 1 });
// The tally: a vendor's changed rows (few: in flight) by vendor and by the vendor they were counted
// at, read in (mark, _id) order (a total order: database/store-ranges.ts), and the sweeper's look
// across shops for rows a crash left changed but uncounted (a system query, like the audit outbox's).
// MongoDB: the trailing `_id` gives the same order off the index; it costs an index key, no read.
LineItemSchema.index({ shopId: 1, vendorId: 1, tallyDirt: 1, _id: 1 });
LineItemSchema.index({ shopId: 1, 'tally.v': 1, tallyDirt: 1, _id: 1 });
LineItemSchema.index({ tallyDirt: 1 });
// The events sweeper's cross-shop scans for pending-event markers a crash left (system queries):
// new orders' sale rows and refund rows by type, platform fulfillments by their marker's time.
LineItemSchema.index({ type: 1, eventPendingAt: 1 });
LineItemSchema.index({ 'fulfillmentEventPending.at': 1 });
