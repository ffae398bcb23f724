import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { Types } from 'mongoose';

/** pending (created at its due date) → running (claimed by a process, under a lease) → completed. */
export const RUN_STATES = ['pending', 'running', 'completed'] as const;
export type RunState = (typeof RUN_STATES)[number];
/** Why a run pays a vendor nothing without a batch (DESIGN §15). */
export const SKIP_REASONS = ['paused', 'no_payout_method', 'tax_profile_incomplete'] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

/**
 * One vendor of a run: the ordinary batch it made for it (its id, period end and, once settled,
 * status and amounts) or why it made none. Pushed once per vendor (a resumed run finds it).
 */
@Schema({ _id: false })
export class RunVendor {
  @Prop({ type: Types.ObjectId, required: true }) vendorId!: Types.ObjectId;
  @Prop({ type: String, required: true }) vendorName!: string;
  @Prop({ type: String, default: null }) skipped!: SkipReason | null;
  @Prop({ type: Types.ObjectId, default: null }) batchId!: Types.ObjectId | null;
  @Prop({ type: String, default: null }) periodEnd!: string | null;
  @Prop({ type: String, default: null }) status!: string | null;
  @Prop({ type: Number, default: 0 }) total!: number;
  @Prop({ type: Number, default: null }) net!: number | null;
}
export const RunVendorSchema = SchemaFactory.createForClass(RunVendor);

/** A completed run's sums over its batches. */
@Schema({ _id: false })
export class RunTotals {
  @Prop({ type: Number, default: 0 }) batches!: number;
  @Prop({ type: Number, default: 0 }) paidBatches!: number;
  @Prop({ type: Number, default: 0 }) skippedVendors!: number;
  /** Σ total of the completed batches. */
  @Prop({ type: Number, default: 0 }) paid!: number;
  /** Σ net of the carried-forward batches (≤ 0). */
  @Prop({ type: Number, default: 0 }) carriedForward!: number;
  /** Σ net of the below-minimum batches (> 0, still due). */
  @Prop({ type: Number, default: 0 }) belowMinimum!: number;
}
export const RunTotalsSchema = SchemaFactory.createForClass(RunTotals);

/**
 * One scheduled payout run of a shop (DESIGN §15): unique per (shop, due date), so a due date runs
 * once however many processes tick. A process claims it with a lease (a conditional write) and
 * renews it while it works; a dead process's lease lapses and the next tick resumes the run.
 * The schedule's hold and minimum are copied in at creation: a run pays what its due date meant.
 */
@Schema({ collection: 'payout_runs', timestamps: true })
export class PayoutRun {
  _id!: Types.ObjectId;

  @Prop({ type: Types.ObjectId, required: true }) shopId!: Types.ObjectId;
  /** YYYY-MM-DD (UTC). */
  @Prop({ type: String, required: true }) dueDate!: string;
  @Prop({ type: String, enum: RUN_STATES, default: 'pending' }) state!: RunState;
  @Prop({ type: String, required: true }) frequency!: string;
  @Prop({ type: Number, default: 0 }) holdDays!: number;
  @Prop({ type: Number, default: 0 }) minimumPayout!: number;
  @Prop({ type: Boolean, default: false }) requireCompleteTaxProfile!: boolean;

  @Prop({ type: [RunVendorSchema], default: [] }) vendors!: RunVendor[];
  /**
   * The vendors the first claim found with something due, stored before its first batch: a process
   * killed between creating a vendor's batch and recording it leaves a batch that may complete
   * (paying every row) before the run resumes; the resumed run finds that vendor here, not among
   * the vendors with payable rows, and records the batch (found by its vendor and period end).
   */
  @Prop({ type: [Types.ObjectId], default: undefined }) candidates?: Types.ObjectId[];
  /** Every vendor of the run has its batch (or its skip) recorded: only settling is left. */
  @Prop({ type: Boolean, default: false }) planned!: boolean;
  @Prop({ type: RunTotalsSchema, default: null }) totals!: RunTotals | null;

  @Prop({ type: String, default: null }) leaseId!: string | null;
  @Prop({ type: Date, default: null }) leaseUntil!: Date | null;
  /** How many times a process claimed the run (a resumed run counts again). */
  @Prop({ type: Number, default: 0 }) claims!: number;
  @Prop({ type: Date, default: null }) startedAt!: Date | null;
  @Prop({ type: Date, default: null }) completedAt!: Date | null;
  @Prop({ type: String, default: null }) lastError!: string | null;
  /** Set with `completed` until `payout_run.completed` is recorded (DESIGN §11 pending-event marker). */
  @Prop({ type: Date, default: undefined }) eventPendingAt?: Date;

  createdAt!: Date;
  updatedAt!: Date;
}

export const PayoutRunSchema = SchemaFactory.createForClass(PayoutRun);
// One run per shop and due date; also the run of a due date (the scheduler's upsert).
PayoutRunSchema.index({ shopId: 1, dueDate: 1 }, { unique: true });
// GET /v1/payouts/runs (state sent as `$in` over every value when not filtered; dueDate range).
PayoutRunSchema.index({ shopId: 1, state: 1, dueDate: -1, _id: -1 });
// The scheduler's cross-shop read of runs to work on (pending, or running with a lapsed lease).
PayoutRunSchema.index({ state: 1, leaseUntil: 1 });
// The events sweeper-style repair of completed runs whose event a crash left unrecorded.
PayoutRunSchema.index({ eventPendingAt: 1 });
