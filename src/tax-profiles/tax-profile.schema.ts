import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { Types } from 'mongoose';
import { auditOutboxPlugin } from '../audit/audit-outbox';
import type { LegalAddress } from '../common/legal/legal-address.dto';

export const ENTITY_TYPES = ['individual', 'business'] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];

/** Who recorded a consent change: the credential's actor (shop, merchant key, vendor user). */
export interface ConsentActor {
  kind: string;
  id: string;
}

/** The vendor's self-billing consent as last changed: given or withdrawn, when and by whom. */
export interface SelfBillingConsent {
  given: boolean;
  at: Date;
  by: ConsentActor;
}

/**
 * A vendor's tax profile (DESIGN §14): the recipient of its documents and the identity the seller
 * tax report gives. One per vendor, `_id` = the vendor's id (the audit trail's resource id is known
 * before the first write; the unique (shopId, vendorId) index holds it too). The tax id and the date
 * of birth are sealed (DataCipher, purposes `vendor-tax-id` / `vendor-date-of-birth`, bound to
 * `<shopId>:<vendorId>`); only the tax id's last 4 characters are kept in clear, for reads.
 */
@Schema({ collection: 'vendor_tax_profiles', timestamps: true })
export class VendorTaxProfile {
  _id!: Types.ObjectId;
  @Prop({ type: Types.ObjectId, required: true }) shopId!: Types.ObjectId;
  @Prop({ type: Types.ObjectId, required: true }) vendorId!: Types.ObjectId;
  @Prop({ type: String, default: null }) legalName!: string | null;
  @Prop({ type: String, enum: [...ENTITY_TYPES, null], default: null }) entityType!: EntityType | null;
  /** {line1, line2, city, postalCode, region, country}, validated by the API. */
  @Prop({ type: Object, default: null }) address!: LegalAddress | null;
  @Prop({ type: String, default: null }) vatId!: string | null;
  @Prop({ type: String, default: null }) taxIdEnc!: string | null;
  @Prop({ type: String, default: null }) taxIdLast4!: string | null;
  @Prop({ type: String, default: null }) taxIdCountry!: string | null;
  @Prop({ type: String, default: null }) dateOfBirthEnc!: string | null;
  @Prop({ type: String, default: null }) businessRegistrationNumber!: string | null;
  /** Null: never stated (reads as not given). */
  @Prop({ type: Object, default: null }) selfBillingConsent!: SelfBillingConsent | null;
  createdAt!: Date;
  updatedAt!: Date;
}
export const VendorTaxProfileSchema = SchemaFactory.createForClass(VendorTaxProfile);
VendorTaxProfileSchema.plugin(auditOutboxPlugin);
VendorTaxProfileSchema.index({ shopId: 1, vendorId: 1 }, { unique: true });
