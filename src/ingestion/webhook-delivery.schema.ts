import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { Types } from 'mongoose';

/**
 * received → processed, or → failed (a payload that can never be processed at once; others after
 * the last automatic attempt). A failed delivery goes back to received when an operator retries it.
 * rejected: signed, but its body does not fit its topic (topic-shapes.ts); stored for inspection
 * only, never processed or retried.
 */
export const DELIVERY_STATES = ['received', 'processed', 'failed', 'rejected'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

/**
 * The webhook inbox (DESIGN §7): one verified store-platform delivery, written before the webhook
 * is answered 200 and processed from here by the ingestion queue. Unique per (shop, webhook id):
 * that index is the de-duplication, durable for the retention period (30 days by default, past the
 * platform's 48 h retry window; processed deliveries older than that are purged by a job — no TTL
 * index, DESIGN §1).
 */
@Schema({ collection: 'webhook_deliveries', versionKey: false })
export class WebhookDelivery {
  _id!: Types.ObjectId;

  @Prop({ type: Types.ObjectId, required: true })
  shopId!: Types.ObjectId;

  @Prop({ type: String, required: true })
  shopDomain!: string;

  @Prop({ type: String, required: true })
  topic!: string;

  /** `X-Shopify-Webhook-Id`, or `body-<sha256 of topic and body>` when the platform sent none. */
  @Prop({ type: String, required: true })
  webhookId!: string;

  @Prop({ type: Date, required: true })
  receivedAt!: Date;

  /**
   * `X-Shopify-Triggered-At`: when the platform raised the event (kept across its retries), if the
   * header named a readable instant. Dates a refund whose body carries no date (Shopify's own test
   * notification sends `created_at` and `processed_at` null).
   */
  @Prop({ type: Date, default: null })
  triggeredAt!: Date | null;

  /**
   * The signed body, verbatim (UTF-8 text): the exact bytes the signature covered, and no document
   * key rules (`$`, `.`) a store payload could trip over.
   */
  @Prop({ type: String, required: true })
  payload!: string;

  @Prop({ type: String, enum: DELIVERY_STATES, default: 'received' })
  state!: DeliveryState;

  /** Processing attempts started (claims), operator retries included. */
  @Prop({ type: Number, default: 0 })
  attempts!: number;

  @Prop({ type: String, default: null })
  lastError!: string | null;

  /** While an attempt runs: until when it holds the delivery (another attempt waits for it to lapse). */
  @Prop({ type: Date, default: null })
  leaseUntil!: Date | null;

  @Prop({ type: Date, default: null })
  lastAttemptAt!: Date | null;

  @Prop({ type: Date, default: null })
  processedAt!: Date | null;

  /** Wall time of the successful attempt, in milliseconds. */
  @Prop({ type: Number, default: null })
  processingMs!: number | null;

  /** What processing did (`created`, `updated`, `stale`, …). */
  @Prop({ type: String, default: null })
  result!: string | null;

  @Prop({ type: Date, default: null })
  failedAt!: Date | null;
}

export const WebhookDeliverySchema = SchemaFactory.createForClass(WebhookDelivery);
// The de-duplication: a repeated webhook id of a shop is refused by this index.
WebhookDeliverySchema.index({ shopId: 1, webhookId: 1 }, { unique: true });
// The operator list (newest first), one index per filter combination (ESR: equality, then the sort).
WebhookDeliverySchema.index({ shopId: 1, receivedAt: -1, _id: -1 });
WebhookDeliverySchema.index({ shopId: 1, state: 1, receivedAt: -1, _id: -1 });
WebhookDeliverySchema.index({ shopId: 1, topic: 1, receivedAt: -1, _id: -1 });
WebhookDeliverySchema.index({ shopId: 1, state: 1, topic: 1, receivedAt: -1, _id: -1 });
// The system's cross-shop queries (SystemDeliveriesRepository): sweeper, retention, metrics.
WebhookDeliverySchema.index({ state: 1, receivedAt: 1 });
