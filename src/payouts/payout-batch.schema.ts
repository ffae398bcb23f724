import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { Types } from 'mongoose';
import { auditOutboxPlugin } from '../audit/audit-outbox';

/**
 * queued → running → completed (a positive net, paid) or carried_forward (a net of zero or below:
 * nothing paid, every row stays due for the next batch, DESIGN §8) or below_minimum (a positive net
 * below the batch's `minimumPayout`: nothing paid, every row stays due, DESIGN §15); a failed run goes back to queued
 * while the job has attempts left, else to failed. A later trigger of the same vendor and period
 * runs a failed batch again.
 */
export const BATCH_STATUSES = [
  'queued',
  'running',
  'completed',
  'carried_forward',
  'below_minimum',
  'failed',
] as const;
export type BatchStatus = (typeof BATCH_STATUSES)[number];
/** A batch in one of these statuses is done: never run again. */
export const SETTLED_BATCH_STATUSES: readonly BatchStatus[] = [
  'completed',
  'carried_forward',
  'below_minimum',
];
export const isSettled = (status: BatchStatus): boolean => SETTLED_BATCH_STATUSES.includes(status);
/** A run's decision, stored before any row is paid or released so a resumed run finishes it. */
export const BATCH_DECISIONS = ['pay', 'carry'] as const;
export type BatchDecision = (typeof BATCH_DECISIONS)[number];
/** An adjustment as a pay decision netted it. */
export interface DecidedAdjustment {
  _id: Types.ObjectId;
  amount: number;
}

/**
 * One payout of one vendor for one period (DESIGN §8). Unique per (shop, vendor, periodEnd): the
 * same trigger again finds this batch instead of making another. Totals are written when the batch
 * completes, summed from the line items and adjustments that carry its id.
 */
@Schema({ collection: 'payout_batches', timestamps: true })
export class PayoutBatch {
  _id!: Types.ObjectId;

  @Prop({ type: Types.ObjectId, required: true })
  shopId!: Types.ObjectId;

  @Prop({ type: Types.ObjectId, required: true })
  vendorId!: Types.ObjectId;

  @Prop({ type: String, required: true })
  vendorName!: string;

  /** The `until` day (YYYY-MM-DD, UTC) the batch pays up to, inclusive. */
  @Prop({ type: String, required: true })
  periodEnd!: string;

  /** The last instant paid: periodEnd at 23:59:59.999Z. */
  @Prop({ type: Date, required: true })
  cutoff!: Date;

  @Prop({ type: String, enum: BATCH_STATUSES, default: 'queued' })
  status!: BatchStatus;

  /**
   * A positive net below this pays nothing (`below_minimum`, DESIGN §15): a scheduled run sets the
   * vendor's minimum; 0 (every positive net is paid) for a triggered batch.
   */
  @Prop({ type: Number, default: 0 }) minimumPayout!: number;

  @Prop({ type: Number, default: 0 }) lineItemCount!: number;
  @Prop({ type: Number, default: 0 }) lineItemTotal!: number;
  @Prop({ type: Number, default: 0 }) adjustmentCount!: number;
  @Prop({ type: Number, default: 0 }) adjustmentTotal!: number;
  @Prop({ type: Number, default: 0 }) total!: number;
  /** Of lineItemCount / lineItemTotal: the refund rows netted (their total is ≤ 0). */
  @Prop({ type: Number, default: 0 }) refundCount!: number;
  @Prop({ type: Number, default: 0 }) refundTotal!: number;

  /** Σ of every due row and adjustment the run took (DESIGN §8 netting); null until decided. */
  @Prop({ type: Number, default: null }) net!: number | null;
  @Prop({ type: String, enum: [...BATCH_DECISIONS, null], default: null }) decision!: BatchDecision | null;
  /**
   * A pay decision's adjustments with the amounts it netted: the run marks exactly these PAID, each
   * only while it still holds that amount. One edited, deleted or moved past the cut-off between the
   * decision and its marking makes the run let go of what it marked and decide again, so the batch
   * never pays a net other than the one it decided (issue 28). Absent on batches decided before.
   */
  @Prop({ type: [{ _id: Types.ObjectId, amount: Number }], default: undefined })
  decidedAdjustments?: DecidedAdjustment[] | null;
  /** The carried-forward amount the vendor brought into this batch (the previous batch's, if it carried forward). */
  @Prop({ type: Number, default: 0 }) openingBalance!: number;
  /** 0 for a paid batch; the net for a carried-forward one (what the next batch starts from). */
  @Prop({ type: Number, default: 0 }) closingBalance!: number;

  /**
   * True from the moment a batch completes with a positive total until its transfer exists
   * (DESIGN §10): set in the same write as `completed`, cleared once `createForPaidBatch` answered.
   * A crash in between leaves it true, and the payout sweeper hands the batch over again.
   */
  @Prop({ type: Boolean, default: false }) transferDue!: boolean;

  /**
   * True from the moment a batch completes (paid) until its documents are issued (DESIGN §14): set in
   * the same write as `completed`, cleared by the documents feature once every document of the batch
   * is issued. A crash in between leaves it, and the documents sweeper issues them (the same steps,
   * idempotent). Absent on batches settled before documents existed (they issue none).
   */
  @Prop({ type: Boolean, default: undefined }) documentsDue?: boolean;

  /**
   * Pending-event marker (DESIGN §11, events/pending-event-marker.ts): set to `completedAt` in the
   * write that settles the batch, cleared once its `payout_batch.*` events are recorded; a crash in
   * between leaves it for the events sweeper. Absent otherwise.
   */
  @Prop({ type: Date, default: undefined }) eventPendingAt?: Date;

  /** How many runs started (retries and reruns included). */
  @Prop({ type: Number, default: 0 }) runs!: number;
  @Prop({ type: String, default: null }) lastError!: string | null;
  @Prop({ type: Date, default: null }) startedAt!: Date | null;
  @Prop({ type: Date, default: null }) completedAt!: Date | null;

  /** Run lease: at most one run of a batch at a time; an expired lease (crashed run) can be taken over. */
  @Prop({ type: String, default: null }) leaseId!: string | null;
  @Prop({ type: Date, default: null }) leaseUntil!: Date | null;

  createdAt!: Date;
  updatedAt!: Date;

  /** The key of the last audited write (the trigger that created the batch, until relayed). */
  auditPendingKey?: string;
}

export const PayoutBatchSchema = SchemaFactory.createForClass(PayoutBatch);
PayoutBatchSchema.plugin(auditOutboxPlugin);
// One batch per vendor and period; also serves "every batch of a period" (a repeated trigger).
PayoutBatchSchema.index({ shopId: 1, periodEnd: 1, vendorId: 1 }, { unique: true });
// GET /v1/payouts/batches (status sent as `$in` over every value when not filtered)
PayoutBatchSchema.index({ shopId: 1, status: 1, createdAt: -1, _id: -1 });
PayoutBatchSchema.index({ shopId: 1, vendorId: 1, status: 1, createdAt: -1, _id: -1 });
// The payout sweeper's cross-shop query (SystemPayoutBatchesRepository).
PayoutBatchSchema.index({ status: 1, updatedAt: 1 });
// The payout sweeper's cross-shop query for completed batches whose transfer is not created yet.
PayoutBatchSchema.index({ transferDue: 1, completedAt: 1 });
// The documents sweeper's cross-shop query for completed batches whose documents are not issued yet.
PayoutBatchSchema.index({ documentsDue: 1, updatedAt: 1 });
// The events sweeper's cross-shop scan for settled batches whose events a crash left unrecorded.
PayoutBatchSchema.index({ eventPendingAt: 1 });
