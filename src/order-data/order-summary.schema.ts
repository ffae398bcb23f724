import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { Schema as MongooseSchema, Types } from 'mongoose';

export type RolledUpFulfillment = 'fulfilled' | 'partial' | 'unfulfilled';
export type RolledUpPayout = 'paid' | 'partial' | 'unpaid';

/**
 * An order's totals (spec §2.10), materialised whenever one of its line items changes, so order
 * lists read one small document per row and never aggregate line items. One shop-level summary per
 * order (`vendorId` null, `_id` = the order's id) and one per vendor with line items on it.
 */
@Schema({ collection: 'order_summaries', timestamps: true })
export class OrderSummary {
  _id!: Types.ObjectId;

  @Prop({ type: Types.ObjectId, required: true })
  shopId!: Types.ObjectId;

  /** Null on the shop-level summary. */
  @Prop({ type: Types.ObjectId, default: null }) vendorId!: Types.ObjectId | null;
  /** The order's `_id` (what the API shows as the order id in every view). */
  @Prop({ type: Types.ObjectId, required: true }) orderRef!: Types.ObjectId;

  @Prop({ type: Number, required: true }) orderId!: number;
  @Prop({ type: String, default: '' }) orderName!: string;
  @Prop({ type: Number, default: 0 }) orderNumber!: number;
  /** The order's creation time on the store platform: the list order (newest first). */
  @Prop({ type: Date, required: true }) orderCreatedAt!: Date;

  @Prop({ type: Number, default: 0 }) totalQuantity!: number;
  @Prop({ type: Number, default: 0 }) lineItemCount!: number;
  @Prop({ type: Number, default: 0 }) totalSales!: number;
  @Prop({ type: Number, default: 0 }) totalNetSales!: number;
  @Prop({ type: Number, default: 0 }) totalCostOfItem!: number;
  @Prop({ type: Number, default: 0 }) totalProfit!: number;
  @Prop({ type: Number, default: 0 }) totalCommission!: number;
  @Prop({ type: Number, default: 0 }) totalPayout!: number;

  /** Distinct per-line fulfillment statuses. */
  @Prop({ type: [String], default: [] }) status!: string[];
  @Prop({ type: String, default: 'unfulfilled' }) fulfillmentStatus!: RolledUpFulfillment;
  @Prop({ type: String, default: 'unpaid' }) vendorPayoutStatus!: RolledUpPayout;
  @Prop({ type: String, default: 'pending' }) financialStatus!: string;
  @Prop({ type: Boolean, default: false }) cancelled!: boolean;

  @Prop({ type: Date, default: null }) shipDate!: Date | null;
  @Prop({ type: Date, default: null }) deliveryDate!: Date | null;
  @Prop({ type: String, default: null }) notes!: string | null;
  @Prop({ type: MongooseSchema.Types.Mixed, default: null }) customer!: Record<string, unknown> | null;

  createdAt!: Date;
  updatedAt!: Date;
}

export const OrderSummarySchema = SchemaFactory.createForClass(OrderSummary);
// The list: newest first per shop (vendorId null) or per vendor, ties by _id (DESIGN §5).
OrderSummarySchema.index({ shopId: 1, vendorId: 1, orderCreatedAt: -1, _id: -1 });
// One summary per (order, vendor); also finds an order's summaries (refresh, pruning).
OrderSummarySchema.index({ shopId: 1, orderId: 1, vendorId: 1 }, { unique: true });
// The list's filters (GET /orders, /v2/orders; order-list-filter.ts), each an equality prefix before the
// list's sort: fulfillmentStatus (of orders not cancelled), financialStatus, both, and a search by
// order number or name. A date range is a range on the sort key: the list's own index serves it.
// The fulfillment index also answers the counts (GET /orders/counts) from its keys alone.
const LIST_ORDER = { orderCreatedAt: -1, _id: -1 } as const;
OrderSummarySchema.index({ shopId: 1, vendorId: 1, cancelled: 1, fulfillmentStatus: 1, ...LIST_ORDER });
OrderSummarySchema.index({ shopId: 1, vendorId: 1, financialStatus: 1, ...LIST_ORDER });
OrderSummarySchema.index({
  shopId: 1,
  vendorId: 1,
  financialStatus: 1,
  cancelled: 1,
  fulfillmentStatus: 1,
  ...LIST_ORDER,
});
OrderSummarySchema.index({ shopId: 1, vendorId: 1, orderNumber: 1, ...LIST_ORDER });
OrderSummarySchema.index({ shopId: 1, vendorId: 1, orderName: 1, ...LIST_ORDER });
