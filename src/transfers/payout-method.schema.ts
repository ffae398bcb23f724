import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { Types } from 'mongoose';
import { auditOutboxPlugin } from '../audit/audit-outbox';
import { PAYOUT_METHOD_TYPES, PayoutMethodType } from './transfer-states';

export const PAYPAL_RECIPIENT_TYPES = ['EMAIL', 'PAYPAL_ID', 'PHONE'] as const;
export type PaypalRecipientType = (typeof PAYPAL_RECIPIENT_TYPES)[number];

/**
 * How a vendor is paid (one per vendor; none = `manual`). Its own small collection rather than a
 * field of the vendor document: the vendors module stays untouched and a method change is one
 * single-document write with its audit event in the outbox.
 */
@Schema({ collection: 'payout_methods', timestamps: true })
export class PayoutMethod {
  _id!: Types.ObjectId;
  @Prop({ type: Types.ObjectId, required: true }) shopId!: Types.ObjectId;
  @Prop({ type: Types.ObjectId, required: true }) vendorId!: Types.ObjectId;
  @Prop({ type: String, enum: PAYOUT_METHOD_TYPES, required: true }) type!: PayoutMethodType;
  /** stripe_connect: the connected account, `acct_…`. */
  @Prop({ type: String, default: null }) accountId!: string | null;
  /** paypal: email, PayPal payer id or phone, per recipientType. */
  @Prop({ type: String, default: null }) receiver!: string | null;
  @Prop({ type: String, default: null }) recipientType!: PaypalRecipientType | null;
  createdAt!: Date;
  updatedAt!: Date;
}
export const PayoutMethodSchema = SchemaFactory.createForClass(PayoutMethod);
PayoutMethodSchema.plugin(auditOutboxPlugin);
PayoutMethodSchema.index({ shopId: 1, vendorId: 1 }, { unique: true });
