import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { Types } from 'mongoose';

/** The last settled batch of a vendor, as its balance shows it. */
@Schema({ _id: false })
export class LastBatch {
  @Prop({ type: Types.ObjectId, required: true }) batchId!: Types.ObjectId;
  @Prop({ type: String, required: true }) status!: string;
  @Prop({ type: String, required: true }) periodEnd!: string;
  @Prop({ type: Number, required: true }) total!: number;
  @Prop({ type: Number, required: true }) net!: number;
  @Prop({ type: Date, required: true }) settledAt!: Date;
}
export const LastBatchSchema = SchemaFactory.createForClass(LastBatch);

/**
 * One vendor's running payout balance (DESIGN §8), written only by the payout engine while it holds
 * the vendor's lock (`lockBatchId`): batches of one vendor settle one after another, so applying a
 * batch is exactly-once by `lastBatchId` (a resumed run finds its batch already applied). Unique per
 * (shop, vendor); the balance read is this document plus one `$group` over the vendor's unsettled
 * rows. The reconcile command proves every figure against the rows and batches.
 */
@Schema({ collection: 'vendor_balances', versionKey: false, timestamps: true })
export class VendorBalance {
  _id!: Types.ObjectId;

  @Prop({ type: Types.ObjectId, required: true }) shopId!: Types.ObjectId;
  @Prop({ type: Types.ObjectId, required: true }) vendorId!: Types.ObjectId;

  /** Σ of the totals of the vendor's paid batches, in integer cents (an `$inc` of cents is exact). */
  @Prop({ type: Number, default: 0 }) paidToDateCents!: number;
  /** The net the last batch carried forward (≤ 0), else 0: the next batch's opening balance. */
  @Prop({ type: Number, default: 0 }) carriedForward!: number;
  @Prop({ type: Number, default: 0 }) batchesApplied!: number;
  @Prop({ type: Types.ObjectId, default: null }) lastBatchId!: Types.ObjectId | null;
  @Prop({ type: LastBatchSchema, default: null }) lastBatch!: LastBatch | null;

  /** The batch running for this vendor (netting needs the vendor's rows to itself), and until when. */
  @Prop({ type: Types.ObjectId, default: null }) lockBatchId!: Types.ObjectId | null;
  @Prop({ type: Date, default: null }) lockUntil!: Date | null;

  /**
   * Whether `due` was below zero when last looked at (after a refund or a batch), and how many times
   * it crossed below zero: the `balance.negative` event of crossing n has a key made of n, so it is
   * emitted once per crossing whoever looks (DESIGN §11).
   */
  @Prop({ type: Boolean, default: false }) negative!: boolean;
  @Prop({ type: Number, default: 0 }) negativeCrossings!: number;

  createdAt!: Date;
  updatedAt!: Date;
}

export const VendorBalanceSchema = SchemaFactory.createForClass(VendorBalance);
VendorBalanceSchema.index({ shopId: 1, vendorId: 1 }, { unique: true });
