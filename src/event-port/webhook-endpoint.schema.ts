import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { Types } from 'mongoose';
import { auditOutboxPlugin } from '../audit/audit-outbox';

export const ENDPOINT_STATES = ['enabled', 'disabled'] as const;
export type EndpointState = (typeof ENDPOINT_STATES)[number];
/** The credential kinds that manage endpoints (a vendor token cannot). */
export const ENDPOINT_CREDENTIALS = ['shop', 'merchant'] as const;
export type EndpointCredential = (typeof ENDPOINT_CREDENTIALS)[number];

/** A signing secret at rest (AES-GCM, TokenCipher): the HMAC needs the secret itself, so no hash. */
@Schema({ _id: false })
export class StoredSecret {
  @Prop({ type: String, required: true }) secretEnc!: string;
  @Prop({ type: Date, required: true }) createdAt!: Date;
  /** Null for the current secret; the end of the overlap for a replaced one. */
  @Prop({ type: Date, default: null }) expiresAt!: Date | null;
}
const StoredSecretSchema = SchemaFactory.createForClass(StoredSecret);

/** Where a shop wants its outbound events (Standard Webhooks); at most 16 per shop. */
@Schema({ collection: 'webhook_endpoints', timestamps: true, versionKey: false })
export class WebhookEndpoint {
  _id!: Types.ObjectId;
  @Prop({ type: Types.ObjectId, required: true }) shopId!: Types.ObjectId;
  @Prop({ type: String, required: true }) url!: string;
  @Prop({ type: String, default: null }) description!: string | null;
  /** `['*']` or event types. */
  @Prop({ type: [String], required: true }) enabledEvents!: string[];
  @Prop({ type: String, enum: ENDPOINT_STATES, default: 'enabled' }) status!: EndpointState;
  @Prop({ type: String, default: null }) disabledReason!: string | null;
  @Prop({ type: [StoredSecretSchema], default: [] }) secrets!: StoredSecret[];
  /** The first failed attempt since the last success (the 5-day disable rule); null while healthy. */
  @Prop({ type: Date, default: null }) failingSince!: Date | null;
  /** The credential kind that created it; null for endpoints created before it was stored (issue 28). */
  @Prop({ type: String, enum: [...ENDPOINT_CREDENTIALS, null], default: null })
  createdBy!: EndpointCredential | null;
  /**
   * `merchant` once a merchant token created it or set its URL or event types: it receives only
   * what a merchant token reads (fan-out.ts `mayReceive`); `shop` again when a shop token sets its
   * event types. Absent only on endpoints the start-up narrowing has not looked at yet.
   */
  @Prop({ type: String, enum: ENDPOINT_CREDENTIALS }) eventScope?: EndpointCredential;
  /** The last replay (one per endpoint per WEBHOOK_REPLAY_COOLDOWN_SECONDS). */
  @Prop({ type: Date, default: null }) lastReplayAt!: Date | null;
  createdAt!: Date;
  updatedAt!: Date;
}

export const WebhookEndpointSchema = SchemaFactory.createForClass(WebhookEndpoint);
// The list (newest first) and the fan-out read (every endpoint of the shop).
WebhookEndpointSchema.index({ shopId: 1, createdAt: -1, _id: -1 });
// The start-up narrowing's cross-shop scan (a system query): endpoints not looked at yet
// (`eventScope` absent), and merchant endpoints still listing a type a merchant cannot read.
WebhookEndpointSchema.index({ eventScope: 1, enabledEvents: 1 });
WebhookEndpointSchema.plugin(auditOutboxPlugin);
