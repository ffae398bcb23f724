import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { Types } from 'mongoose';

/** One quarter of a vendor's year, as integer cents (seller-tax-figures.ts `quarterCents`). */
export interface StoredQuarterFigures {
  /** Σ salesAfterDiscount of payable sale rows. */
  sales: number;
  /** Σ salesAfterDiscount of refund rows (≤ 0). */
  refunds: number;
  commissions: number;
  fees: number;
  taxes: number;
  /** Distinct orders with a payable sale row in the quarter. */
  numberOfOrders: number;
  /** Whether the vendor has any payable row dated in the quarter (else it counts as no quarter). */
  hasRows: boolean;
}

/**
 * One vendor's year of the seller tax report (DESIGN §14; ADR 0057): per quarter ('1'…'4'), what its
 * payable rows dated in the quarter add up to. A quarter is rewritten from the rows whenever a tally
 * step marks it (seller-tax-summaries.service.ts), so the report reads one small document per vendor
 * instead of every row of the year. Unique per (shop, year, vendor); `payouts:reconcile` proves every
 * quarter against the rows.
 */
@Schema({ collection: 'seller_tax_years', versionKey: false, timestamps: true })
export class SellerTaxYear {
  _id!: Types.ObjectId;

  @Prop({ type: Types.ObjectId, required: true }) shopId!: Types.ObjectId;
  @Prop({ type: Number, required: true }) year!: number;
  @Prop({ type: Types.ObjectId, required: true }) vendorId!: Types.ObjectId;
  /** Quarter ('1'…'4') → its figures; a quarter never recomputed is absent (no payable row). */
  @Prop({ type: Object, default: {} }) quarters!: Partial<
    Record<'1' | '2' | '3' | '4', StoredQuarterFigures>
  >;

  createdAt!: Date;
  updatedAt!: Date;
}

export const SellerTaxYearSchema = SchemaFactory.createForClass(SellerTaxYear);
SellerTaxYearSchema.index({ shopId: 1, year: 1, vendorId: 1 }, { unique: true });
