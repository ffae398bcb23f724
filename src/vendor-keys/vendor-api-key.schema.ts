import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { Types } from 'mongoose';
import { auditOutboxPlugin } from '../audit/audit-outbox';
import type { VendorScope } from '../common/auth/scopes';

/** Who created a key: the actor of the request (a shop, a merchant key, a portal user). */
export interface KeyCreator {
  kind: 'shop' | 'merchant' | 'vendor';
  id: string;
}

/**
 * A vendor API key (`vk_live_<lookupId>_<secret>`, DESIGN §12). The lookup id begins with the shop
 * id, so sign-in finds the record inside its tenant; only the SHA-256 of the secret is kept.
 */
@Schema({ collection: 'vendor_api_keys', timestamps: { createdAt: true, updatedAt: false } })
export class VendorApiKey {
  _id!: Types.ObjectId;

  @Prop({ type: Types.ObjectId, required: true })
  shopId!: Types.ObjectId;

  @Prop({ type: Types.ObjectId, required: true })
  vendorId!: Types.ObjectId;

  @Prop({ type: String, required: true, unique: true })
  lookupId!: string;

  @Prop({ type: String, required: true })
  secretHash!: string;

  @Prop({ type: [String], required: true })
  scopes!: VendorScope[];

  @Prop({ type: String, default: null })
  name!: string | null;

  @Prop({ type: { _id: false, kind: String, id: String }, required: true })
  createdBy!: KeyCreator;

  @Prop({ type: Date, default: null })
  revokedAt!: Date | null;

  /**
   * Copy of the vendor's `active` flag, kept in step by vendor (de)activation (as portal users keep
   * theirs), so the per-request check of a key token is a single read of this document.
   */
  @Prop({ type: Boolean, default: true })
  vendorActive!: boolean;

  /** When a token was last minted from the key or used with it (refreshed at most hourly). */
  @Prop({ type: Date, default: null })
  lastUsedAt!: Date | null;

  createdAt!: Date;
}

export const VendorApiKeySchema = SchemaFactory.createForClass(VendorApiKey);
VendorApiKeySchema.plugin(auditOutboxPlugin);
// The vendor's keys, newest first (lists, cursor and offset).
VendorApiKeySchema.index({ shopId: 1, vendorId: 1, createdAt: -1, _id: -1 });

/**
 * The live keys of one vendor: the 25-key cap is a conditional `$addToSet` of the new key's id on
 * this one document (race-safe without transactions, and a repeated command takes no second
 * place); a key's creation takes a place, its revocation gives it back (`$pull`).
 */
@Schema({ collection: 'vendor_api_key_quotas' })
export class VendorApiKeyQuota {
  _id!: Types.ObjectId;

  @Prop({ type: Types.ObjectId, required: true })
  shopId!: Types.ObjectId;

  @Prop({ type: Types.ObjectId, required: true })
  vendorId!: Types.ObjectId;

  @Prop({ type: [Types.ObjectId], default: [] })
  keyIds!: Types.ObjectId[];
}

export const VendorApiKeyQuotaSchema = SchemaFactory.createForClass(VendorApiKeyQuota);
VendorApiKeyQuotaSchema.index({ shopId: 1, vendorId: 1 }, { unique: true });
