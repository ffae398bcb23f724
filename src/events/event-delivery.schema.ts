import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { Types } from 'mongoose';

export const EVENT_DELIVERY_STATES = ['pending', 'succeeded', 'failed'] as const;
export type EventDeliveryState = (typeof EVENT_DELIVERY_STATES)[number];

/** One HTTP attempt of a delivery, as the delivery log shows it. */
@Schema({ _id: false })
export class DeliveryAttempt {
  @Prop({ type: Date, required: true }) at!: Date;
  /** The answer's status; null when none came (refused by the guard, timeout, network). */
  @Prop({ type: Number, default: null }) statusCode!: number | null;
  @Prop({ type: Number, required: true }) durationMs!: number;
  /** Why no answer came (`address: …`, `timeout: …`), or null. */
  @Prop({ type: String, default: null }) error!: string | null;
  /** The first bytes of the answer body. */
  @Prop({ type: String, default: null }) response!: string | null;
}
const DeliveryAttemptSchema = SchemaFactory.createForClass(DeliveryAttempt);

/**
 * One event to one endpoint (`_id` derived from both, so fan-out is idempotent). `pending` with
 * `nextAttemptAt` is what the dispatcher and the sweeper work on; an attempt is claimed in Redis
 * (EventDispatcher), so two workers never send the same attempt at once.
 */
@Schema({ collection: 'event_deliveries', timestamps: true, versionKey: false })
export class EventDelivery {
  _id!: Types.ObjectId;
  @Prop({ type: Types.ObjectId, required: true }) shopId!: Types.ObjectId;
  @Prop({ type: Types.ObjectId, required: true }) endpointId!: Types.ObjectId;
  @Prop({ type: String, required: true }) eventId!: string;
  @Prop({ type: String, required: true }) eventType!: string;
  @Prop({ type: String, enum: EVENT_DELIVERY_STATES, default: 'pending' }) status!: EventDeliveryState;
  /** Attempts since the delivery was last (re)started: the position in the retry schedule. */
  @Prop({ type: Number, default: 0 }) attemptCount!: number;
  @Prop({ type: [DeliveryAttemptSchema], default: [] }) attempts!: DeliveryAttempt[];
  @Prop({ type: Date, default: null }) nextAttemptAt!: Date | null;
  createdAt!: Date;
  updatedAt!: Date;
}

export const EventDeliverySchema = SchemaFactory.createForClass(EventDelivery);
// The delivery log of an endpoint (newest first), and filtered by status or event type.
EventDeliverySchema.index({ shopId: 1, endpointId: 1, createdAt: -1, _id: -1 });
EventDeliverySchema.index({ shopId: 1, endpointId: 1, status: 1, createdAt: -1, _id: -1 });
EventDeliverySchema.index({ shopId: 1, endpointId: 1, eventType: 1, createdAt: -1, _id: -1 });
// The sweeper's and the metrics' cross-shop scan of due pending deliveries (a system query).
EventDeliverySchema.index({ status: 1, nextAttemptAt: 1 });
// Retention: the sweeper deletes what is older than the 30 days kept (system query, every shop).
EventDeliverySchema.index({ createdAt: 1 });
