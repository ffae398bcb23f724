import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { HydratedDocument, Types } from 'mongoose';
import { auditOutboxPlugin } from '../audit/audit-outbox';
import type { LegalAddress } from '../common/legal/legal-address.dto';
import { PayoutScheduleSettings, PayoutScheduleSettingsSchema } from './payout-schedule.schema';

/** Per-shop figures that feed the money calculation (DESIGN §6); all default to 0 / false. */
@Schema({ _id: false })
export class ShopSettings {
  @Prop({ type: Number, default: 0 })
  taxOnCommissionRate!: number;
  @Prop({ type: Number, default: 0 })
  tcsRate!: number;
  @Prop({ type: Number, default: 0 })
  globalDeductionRate!: number;
  @Prop({ type: Boolean, default: false })
  payShippingToVendor!: boolean;
  @Prop({ type: Boolean, default: false })
  payTaxToVendor!: boolean;
  /** Payouts skip vendors whose tax profile is incomplete (DESIGN §15, `tax_profile_incomplete`). */
  @Prop({ type: Boolean, default: false })
  requireCompleteTaxProfile!: boolean;
  /** Which StorePlatform adapter creates fulfillments: `local` (default) or `shopify`. */
  @Prop({ type: String, default: 'local' })
  platform!: string;
  /** Store-platform Admin API token, encrypted at rest; never returned. */
  @Prop({ type: String, default: null })
  platformAccessTokenEnc!: string | null;
}
export const ShopSettingsSchema = SchemaFactory.createForClass(ShopSettings);

/** Document number prefixes per numbered series (DESIGN §14); defaults `INV-`, `CN-`, `SB-`. */
@Schema({ _id: false })
export class DocumentPrefixes {
  @Prop({ type: String, default: 'INV-' })
  commission_invoice!: string;
  @Prop({ type: String, default: 'CN-' })
  credit_note!: string;
  @Prop({ type: String, default: 'SB-' })
  self_billed_invoice!: string;
}
export const DocumentPrefixesSchema = SchemaFactory.createForClass(DocumentPrefixes);

/**
 * The shop as the issuer of documents (DESIGN §14, `GET/PUT /v1/shop/legal`). Absent until first set
 * (reads fill the defaults), so each PUT writes only the leaves it changes. The tax id is sealed
 * (DataCipher, purpose `shop-tax-id`); only its last 4 characters are kept beside it, for reads.
 */
@Schema({ _id: false })
export class ShopLegal {
  @Prop({ type: String, default: null })
  legalName!: string | null;
  /** {line1, line2, city, postalCode, region, country}, validated by the API. */
  @Prop({ type: Object, default: null })
  address!: LegalAddress | null;
  @Prop({ type: String, default: null })
  vatId!: string | null;
  @Prop({ type: String, default: null })
  taxIdEnc!: string | null;
  @Prop({ type: String, default: null })
  taxIdLast4!: string | null;
  @Prop({ type: DocumentPrefixesSchema, default: () => ({}) })
  prefixes!: DocumentPrefixes;
  @Prop({ type: Boolean, default: false })
  selfBilling!: boolean;
}
export const ShopLegalSchema = SchemaFactory.createForClass(ShopLegal);

/** The tenant. Created by the operator CLI; its API key is shown once and stored as SHA-256. */
@Schema({ collection: 'shops', timestamps: true })
export class Shop {
  _id!: Types.ObjectId;

  @Prop({ type: String, required: true, unique: true })
  domain!: string;

  @Prop({ type: String, default: null })
  name!: string | null;

  /** SHA-256 of the shop API key (a random 256-bit secret: no index, sign-in finds the shop by domain). */
  @Prop({ type: String, required: true })
  apiKeyHash!: string;

  /**
   * Bumped by every key rotation. Shop tokens carry the version they were minted from (`kv`) and
   * are refused once it is no longer the shop's (absent: 0, a shop never rotated).
   */
  @Prop({ type: Number, default: 0 })
  keyVersion!: number;

  /** Needed in clear to verify webhook HMACs. */
  @Prop({ type: String, required: true })
  webhookSecret!: string;

  /** Names of the custom vendor profile fields; null until the shop configures them. */
  @Prop({ type: [String], default: null })
  profileFields!: string[] | null;

  @Prop({ type: ShopSettingsSchema, default: () => ({}) })
  settings!: ShopSettings;

  /** The shop's legal identity on documents; absent until first set. */
  @Prop({ type: ShopLegalSchema, default: undefined })
  legal?: ShopLegal;

  /** The payout schedule (DESIGN §15); absent until first set. */
  @Prop({ type: PayoutScheduleSettingsSchema, default: undefined })
  payoutSchedule?: PayoutScheduleSettings;

  /**
   * Refunds stored before their order arrived and not applied yet (refunds feature). Ingestion
   * reads the shop anyway: only while this is above 0 does a new order look its refunds up.
   */
  @Prop({ type: Number, default: 0 })
  refundsWaiting!: number;

  /**
   * The stamp of the shop's commission rules (DESIGN §13): moved on when a rule write starts and
   * again when it ends, so a process's cached rules (commissions/rules-cache.ts) stop matching it.
   * `rulesWriting` counts the writes in flight and `rulesWriteAt` holds the last one's start: rules
   * read meanwhile are not cached. Absent on shops stored before it: 0, 0, null.
   */
  @Prop({ type: Number, default: 0 })
  rulesVersion!: number;

  @Prop({ type: Number, default: 0 })
  rulesWriting!: number;

  @Prop({ type: Date, default: null })
  rulesWriteAt!: Date | null;

  createdAt!: Date;
  updatedAt!: Date;
}

export type ShopDocument = HydratedDocument<Shop>;
export const ShopSchema = SchemaFactory.createForClass(Shop);
ShopSchema.plugin(auditOutboxPlugin);
// The payout scheduler's cross-shop read: shops whose next due date has come (manual: null).
ShopSchema.index({ 'payoutSchedule.nextDueAt': 1 });
