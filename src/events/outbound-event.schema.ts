import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { Types } from 'mongoose';

/**
 * One outbound event, stored once under its deterministic id (`evt_…`, derived from the audit
 * record or source that reports it) with the exact body every delivery sends: a retry, a replay or
 * a second copy after a crash can never send the same `webhook-id` with another body.
 */
@Schema({ collection: 'events', versionKey: false })
export class OutboundEvent {
  @Prop({ type: String, required: true }) _id!: string;
  @Prop({ type: Types.ObjectId, required: true }) shopId!: Types.ObjectId;
  @Prop({ type: String, required: true }) type!: string;
  @Prop({ type: Date, required: true }) createdAt!: Date;
  /** The JSON body, as sent. */
  @Prop({ type: String, required: true }) body!: string;
  /** Set until the event is fanned out to its endpoints; the sweeper finishes it after a crash. */
  @Prop({ type: Date, default: null }) fanoutPendingAt!: Date | null;
}

export const OutboundEventSchema = SchemaFactory.createForClass(OutboundEvent);
// GET /v1/events (newest first, a date range on the sort key), with and without a type filter.
OutboundEventSchema.index({ shopId: 1, createdAt: -1, _id: -1 });
OutboundEventSchema.index({ shopId: 1, type: 1, createdAt: -1, _id: -1 });
// The sweeper's cross-shop scan for events not fanned out yet (a system query).
OutboundEventSchema.index({ fanoutPendingAt: 1 });
// Retention: the sweeper deletes what is older than the 30 days kept (system query, every shop).
OutboundEventSchema.index({ createdAt: 1 });
