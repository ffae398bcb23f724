import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { Schema as MongooseSchema, Types } from 'mongoose';
import { auditOutboxPlugin, type AuditOutboxFields } from '../audit/audit-outbox';

export const COMMISSION_TYPES = ['percentage', 'flat'] as const;
export type CommissionType = (typeof COMMISSION_TYPES)[number];

@Schema({ _id: false })
export class VendorAddress {
  @Prop({ type: String, default: null }) address1!: string | null;
  @Prop({ type: String, default: null }) address2!: string | null;
  @Prop({ type: String, default: null }) city!: string | null;
  @Prop({ type: String, default: null }) state!: string | null;
  @Prop({ type: String, default: null }) postalCode!: string | null;
  @Prop({ type: String, default: null }) country!: string | null;
}
export const VendorAddressSchema = SchemaFactory.createForClass(VendorAddress);

@Schema({ _id: false })
export class VendorProfileEntry {
  @Prop({ type: String, required: true }) field!: string;
  /** string, number or boolean — never an object. */
  @Prop({ type: MongooseSchema.Types.Mixed, required: true }) value!: string | number | boolean;
}
export const VendorProfileEntrySchema = SchemaFactory.createForClass(VendorProfileEntry);

/**
 * A vendor's own payout settings (DESIGN §15): `paused` keeps it out of scheduled runs; `holdDays` and
 * `minimumPayout` override the shop schedule's (null: the shop's). Absent until first set.
 */
@Schema({ _id: false })
export class VendorPayoutSettings {
  @Prop({ type: Boolean, default: false }) paused!: boolean;
  @Prop({ type: Number, default: null }) holdDays!: number | null;
  @Prop({ type: Number, default: null }) minimumPayout!: number | null;
}
export const VendorPayoutSettingsSchema = SchemaFactory.createForClass(VendorPayoutSettings);

/** A vendor of one shop. `vendorName` is stored trimmed and lowercased and is unique per shop. */
@Schema({ collection: 'vendors', timestamps: true })
export class Vendor implements AuditOutboxFields {
  _id!: Types.ObjectId;

  @Prop({ type: Types.ObjectId, required: true })
  shopId!: Types.ObjectId;

  @Prop({ type: String, required: true })
  vendorName!: string;

  @Prop({ type: String, enum: COMMISSION_TYPES, required: true })
  commissionType!: CommissionType;

  @Prop({ type: Number, required: true, min: 0 })
  commissionAmount!: number;

  /** Inactive vendors (V2 DELETE) leave the commission list and cannot sign in. */
  @Prop({ type: Boolean, default: true })
  active!: boolean;

  @Prop({ type: VendorAddressSchema, default: () => ({}) })
  address!: VendorAddress;

  @Prop({ type: [VendorProfileEntrySchema], default: [] })
  profile!: VendorProfileEntry[];

  @Prop({ type: VendorPayoutSettingsSchema, default: undefined })
  payoutSettings?: VendorPayoutSettings;

  createdAt!: Date;
  updatedAt!: Date;

  auditPendingKey?: string;
}

export const VendorSchema = SchemaFactory.createForClass(Vendor);
VendorSchema.plugin(auditOutboxPlugin);
VendorSchema.index({ shopId: 1, vendorName: 1 }, { unique: true });
// GET /v2/vendors (active sent as `$in: [true, false]` when not filtered) and the active vendors' commissions.
VendorSchema.index({ shopId: 1, active: 1, createdAt: -1, _id: -1 });
VendorSchema.index({ shopId: 1, active: 1, vendorName: 1 });
