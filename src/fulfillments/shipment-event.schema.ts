import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { Types } from 'mongoose';

export const SHIPMENT_EVENT_STATUSES = [
  'in_transit',
  'out_for_delivery',
  'delivered',
  'failed_delivery',
] as const;
export type ShipmentEventStatus = (typeof SHIPMENT_EVENT_STATUSES)[number];

/**
 * One tracking event of a fulfilled line item (POST /fulfillments/events…): kept as history (also
 * after a cancel); the latest by `happenedAt` sets the line's shipment status. The order timeline
 * reads these by order (field names are shared with it: keep them).
 */
@Schema({
  collection: 'shipment_events',
  timestamps: { createdAt: true, updatedAt: false },
  versionKey: false,
})
export class ShipmentEvent {
  _id!: Types.ObjectId;
  @Prop({ type: Types.ObjectId, required: true }) shopId!: Types.ObjectId;
  @Prop({ type: Types.ObjectId, default: null }) vendorId!: Types.ObjectId | null;
  /** The store platform's numeric order id (as on the line item). */
  @Prop({ type: Number, required: true }) orderId!: number;
  /** The calculated line item's `_id`. */
  @Prop({ type: Types.ObjectId, required: true }) lineItemId!: Types.ObjectId;
  @Prop({ type: String, enum: SHIPMENT_EVENT_STATUSES, required: true }) status!: ShipmentEventStatus;
  @Prop({ type: Date, required: true }) happenedAt!: Date;
  @Prop({ type: String, default: null }) message!: string | null;
  createdAt!: Date;
}

export const ShipmentEventSchema = SchemaFactory.createForClass(ShipmentEvent);
// A line's events in time order (GET /fulfillments/events/{lineItemId}).
ShipmentEventSchema.index({ shopId: 1, lineItemId: 1, happenedAt: 1, _id: 1 });
// An order's events (the order timeline): a vendor's own (equality on vendorId) in time order, or the
// whole order's by vendor, then time (the timeline merges them by time). vendorId precedes the sort so
// a vendor's read names its vendor in the index, never filtering other vendors' events after it.
ShipmentEventSchema.index({ shopId: 1, orderId: 1, vendorId: 1, happenedAt: 1, _id: 1 });
