import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { Types } from 'mongoose';
import { auditOutboxPlugin } from '../audit/audit-outbox';

export const PROVIDER_MODES = ['sandbox', 'live'] as const;
export type ProviderMode = (typeof PROVIDER_MODES)[number];

/**
 * A shop's payout provider credentials (one document per shop). Every secret is sealed with the
 * TokenCipher (AES-256-GCM, the shop id as associated data) and never returned or logged; the
 * PayPal webhook id is not a secret (it names the webhook to verify against).
 */
@Schema({ collection: 'payout_providers', timestamps: true })
export class PayoutProviders {
  _id!: Types.ObjectId;
  @Prop({ type: Types.ObjectId, required: true }) shopId!: Types.ObjectId;
  @Prop({ type: String, enum: PROVIDER_MODES, default: 'sandbox' }) mode!: ProviderMode;
  /** Currency of the shop's transfers when the caller names none (ISO 4217). */
  @Prop({ type: String, default: 'USD' }) currency!: string;
  @Prop({ type: String, default: null }) stripeSecretKeyEnc!: string | null;
  @Prop({ type: String, default: null }) stripeWebhookSecretEnc!: string | null;
  @Prop({ type: String, default: null }) paypalClientIdEnc!: string | null;
  @Prop({ type: String, default: null }) paypalClientSecretEnc!: string | null;
  @Prop({ type: String, default: null }) paypalWebhookId!: string | null;
  createdAt!: Date;
  updatedAt!: Date;
}
export const PayoutProvidersSchema = SchemaFactory.createForClass(PayoutProviders);
PayoutProvidersSchema.plugin(auditOutboxPlugin);
PayoutProvidersSchema.index({ shopId: 1 }, { unique: true });
