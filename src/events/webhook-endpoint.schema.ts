import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { Types } from 'mongoose';

export const ENDPOINT_STATES = ['enabled', 'disabled'] as const;
export type EndpointState = (typeof ENDPOINT_STATES)[number];

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
  createdAt!: Date;
  updatedAt!: Date;
}

export const WebhookEndpointSchema = SchemaFactory.createForClass(WebhookEndpoint);
// The list (newest first) and the fan-out read (every endpoint of the shop).
WebhookEndpointSchema.index({ shopId: 1, createdAt: -1, _id: -1 });
