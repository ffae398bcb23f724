import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { Types } from 'mongoose';
import { auditOutboxPlugin } from '../audit/audit-outbox';

/**
 * A merchant API key (`mk_live_<lookupId>_<secret>`). The lookup id begins with the shop id, so
 * sign-in can find the record inside its tenant; only the SHA-256 of the secret is kept.
 */
@Schema({ collection: 'merchant_keys', timestamps: { createdAt: true, updatedAt: false } })
export class MerchantKey {
  _id!: Types.ObjectId;

  @Prop({ type: Types.ObjectId, required: true })
  shopId!: Types.ObjectId;

  @Prop({ type: String, required: true, unique: true })
  lookupId!: string;

  @Prop({ type: String, required: true })
  secretHash!: string;

  @Prop({ type: String, default: null })
  name!: string | null;

  /** Set when the key was rotated: it keeps working until then (24 h grace). */
  @Prop({ type: Date, default: null })
  expiresAt!: Date | null;

  @Prop({ type: Date, default: null })
  revokedAt!: Date | null;

  @Prop({ type: Types.ObjectId, default: null })
  replacedBy!: Types.ObjectId | null;

  createdAt!: Date;
}

export const MerchantKeySchema = SchemaFactory.createForClass(MerchantKey);
MerchantKeySchema.plugin(auditOutboxPlugin);
MerchantKeySchema.index({ shopId: 1, createdAt: -1, _id: -1 });
// The per-shop key cap: active keys (both null) and keys in their rotation grace (expiresAt range).
MerchantKeySchema.index({ shopId: 1, revokedAt: 1, expiresAt: 1 });
