import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { Types } from 'mongoose';

@Schema({ _id: false })
export class RefundLine {
  @Prop({ type: String, required: true }) refundLineItemId!: string;
  @Prop({ type: Number, required: true }) lineItemId!: number;
  @Prop({ type: Number, required: true }) quantity!: number;
  @Prop({ type: String, default: null }) restockType!: string | null;
  @Prop({ type: Number, default: 0 }) subtotal!: number;
  @Prop({ type: Number, default: 0 }) totalTax!: number;
}
export const RefundLineSchema = SchemaFactory.createForClass(RefundLine);

/** A refund amount tied to no line (`shipping_refund`, `refund_discrepancy`): shown, never a vendor figure. */
@Schema({ _id: false })
export class UnattributedAmount {
  @Prop({ type: String, required: true }) kind!: string;
  @Prop({ type: Number, required: true }) amount!: number;
  @Prop({ type: String, default: null }) reason!: string | null;
}
export const UnattributedAmountSchema = SchemaFactory.createForClass(UnattributedAmount);

/**
 * A store-platform refund as received (DESIGN §6), unique per (shop, refund id): whichever payload
 * brings it first (`refunds/create` or an order's `refunds[]`) stores it, repeats find it. Its line
 * items become refund rows in `line_items` once the order's sale rows exist — a refund that arrives
 * before its order waits here (`rowsApplied` false) and is applied when the order arrives. Amounts
 * tied to no line are kept as `unattributed` and shown on the order's read.
 */
@Schema({ collection: 'refunds', versionKey: false, timestamps: true })
export class Refund {
  _id!: Types.ObjectId;

  @Prop({ type: Types.ObjectId, required: true }) shopId!: Types.ObjectId;
  /** The platform's refund id (string: every digit of the 64-bit id). */
  @Prop({ type: String, required: true }) refundId!: string;
  @Prop({ type: Number, required: true }) orderId!: number;
  @Prop({ type: Date, required: true }) platformCreatedAt!: Date;
  @Prop({ type: Date, default: null }) processedAt!: Date | null;
  @Prop({ type: String, default: null }) note!: string | null;
  @Prop({ type: [RefundLineSchema], default: [] }) lines!: RefundLine[];
  @Prop({ type: [UnattributedAmountSchema], default: [] }) unattributed!: UnattributedAmount[];
  /** Σ of its successful refund transactions: what the customer got back. */
  @Prop({ type: Number, default: 0 }) transactionsTotal!: number;
  /** Every line item of it has its refund row (false while its order has not arrived). */
  @Prop({ type: Boolean, default: false }) rowsApplied!: boolean;
  /** Counted in the shop's `refundsWaiting` (it arrived before its order): uncounted once applied. */
  @Prop({ type: Boolean, default: false }) waiting!: boolean;

  createdAt!: Date;
  updatedAt!: Date;
}

export const RefundSchema = SchemaFactory.createForClass(Refund);
RefundSchema.index({ shopId: 1, refundId: 1 }, { unique: true });
// The refunds of an order (applying them when it arrives; its read shows the unattributed ones).
RefundSchema.index({ shopId: 1, orderId: 1, processedAt: 1, _id: 1 });
