import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { Types } from 'mongoose';

/** A row counted by a tally step: its new contribution, and the change count it was read at. */
export interface TallyPendingRow {
  _id: Types.ObjectId;
  tally: RowTally;
  /** `tallyDirt` when read (null: a row stored before the tally existed). */
  dirt: number | null;
  /** Left marked: the row now belongs to another vendor, whose step counts it. */
  keep?: boolean;
}

/** What one line item contributes to its vendor's sums (`k` null: nothing). */
export interface RowTally {
  v: Types.ObjectId | null;
  k: 'due' | 'pending' | null;
  c: number;
}

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
 * (shop, vendor). `dueCents` and `pendingCents` are the vendor's unsettled line items summed at write
 * time by the tally (line-items/vendor-tally.service.ts), so the balance read is this document plus
 * the vendor's few UNPAID adjustments. The reconcile command proves every figure against the rows
 * and batches.
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

  /**
   * Σ `balance` of the vendor's unfrozen rows, in integer cents, as counted by the tally: payable
   * rows (`inPayouts`) in `dueCents`, rows of orders whose money is not captured yet in
   * `pendingCents`. Each row records what it contributes (`LineItem.tally`), so a change is counted
   * as a difference, once.
   */
  @Prop({ type: Number, default: 0 }) dueCents!: number;
  @Prop({ type: Number, default: 0 }) pendingCents!: number;
  /** The tally run counting this vendor's changed rows (one at a time), and until when it may. */
  @Prop({ type: String, default: null }) tallyLease!: string | null;
  @Prop({ type: Date, default: null }) tallyLeaseUntil!: Date | null;
  /** Bumped by a tally call that found the lease taken: the holder must look again before it lets go. */
  @Prop({ type: Number, default: 0 }) tallyAsks!: number;
  /**
   * The rows a tally step has just counted into the sums (in the same write), with the contribution
   * each now has: a run that dies before writing them back leaves them here for the next run.
   */
  @Prop({ type: [Object], default: undefined }) tallyPending?: TallyPendingRow[];

  /**
   * The vendor's seller tax summaries to refresh (reports/seller-tax-summaries.service.ts): per
   * quarter key (`2026Q4`), bumped by every tally step that counted a row dated in that quarter, in
   * the step's own write; a refresh that recomputed a quarter from the rows removes its entry only
   * if no step bumped it meanwhile. `taxDirty` says some entry is left (the refresh's index).
   */
  @Prop({ type: Object, default: undefined }) taxDirt?: Record<string, number>;
  @Prop({ type: Boolean, default: undefined }) taxDirty?: boolean;

  createdAt!: Date;
  updatedAt!: Date;
}

export const VendorBalanceSchema = SchemaFactory.createForClass(VendorBalance);
VendorBalanceSchema.index({ shopId: 1, vendorId: 1 }, { unique: true });
VendorBalanceSchema.index({ shopId: 1, taxDirty: 1, vendorId: 1 });
VendorBalanceSchema.index({ taxDirty: 1 });
