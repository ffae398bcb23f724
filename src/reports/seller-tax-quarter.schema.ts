import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { Types } from 'mongoose';

/**
 * One vendor's calendar quarter of the seller tax report (DESIGN §14), as integer cents: what its
 * payable rows dated in the quarter add up to (seller-tax-figures.ts `quarterCents`). Recomputed from
 * the rows whenever a tally step marks the quarter (seller-tax-summaries.service.ts), so the report
 * reads about 4,000 small documents for 1,000 vendors instead of every row of the year. Unique per
 * (shop, year, vendor, quarter); `payouts:reconcile` proves every one against the rows.
 */
@Schema({ collection: 'seller_tax_quarters', versionKey: false, timestamps: true })
export class SellerTaxQuarter {
  _id!: Types.ObjectId;

  @Prop({ type: Types.ObjectId, required: true }) shopId!: Types.ObjectId;
  @Prop({ type: Number, required: true }) year!: number;
  @Prop({ type: Types.ObjectId, required: true }) vendorId!: Types.ObjectId;
  @Prop({ type: Number, required: true }) quarter!: number;

  /** Σ salesAfterDiscount of payable sale rows, cents. */
  @Prop({ type: Number, required: true }) sales!: number;
  /** Σ salesAfterDiscount of refund rows (≤ 0), cents. */
  @Prop({ type: Number, required: true }) refunds!: number;
  @Prop({ type: Number, required: true }) commissions!: number;
  @Prop({ type: Number, required: true }) fees!: number;
  @Prop({ type: Number, required: true }) taxes!: number;
  /** Distinct orders with a payable sale row in the quarter. */
  @Prop({ type: Number, required: true }) numberOfOrders!: number;
  /** Whether the vendor has any payable row dated in the quarter (else it is left out of the report). */
  @Prop({ type: Boolean, required: true }) hasRows!: boolean;

  createdAt!: Date;
  updatedAt!: Date;
}

export const SellerTaxQuarterSchema = SchemaFactory.createForClass(SellerTaxQuarter);
SellerTaxQuarterSchema.index({ shopId: 1, year: 1, vendorId: 1, quarter: 1 }, { unique: true });
