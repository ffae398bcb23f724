import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { Types } from 'mongoose';
import { auditOutboxPlugin } from '../audit/audit-outbox';

export const ADJUSTMENT_TYPES = ['ADDITION', 'DEDUCTION'] as const;
export type AdjustmentType = (typeof ADJUSTMENT_TYPES)[number];
export const ADJUSTMENT_STATUSES = ['UNPAID', 'PAID'] as const;
export type AdjustmentStatus = (typeof ADJUSTMENT_STATUSES)[number];
/** `batchId` of an adjustment no batch has paid yet (spec §2.9). */
export const UNPAID_BATCH_ID = 'NA';

/**
 * A manual addition to or deduction from a vendor's payout (spec §2.9). `amount` is stored signed
 * (DEDUCTION negative). `status`, `batchId` and `paidAt` are written only by the payout engine;
 * once PAID the record never changes again.
 */
@Schema({ collection: 'payout_adjustments', timestamps: true })
export class PayoutAdjustment {
  _id!: Types.ObjectId;

  @Prop({ type: Types.ObjectId, required: true })
  shopId!: Types.ObjectId;

  @Prop({ type: Types.ObjectId, required: true })
  vendorId!: Types.ObjectId;

  /** Copied at creation; a later vendor rename does not rewrite it. */
  @Prop({ type: String, required: true })
  vendorName!: string;

  @Prop({ type: Number, required: true })
  amount!: number;

  @Prop({ type: String, enum: ADJUSTMENT_TYPES, required: true })
  type!: AdjustmentType;

  @Prop({ type: String, enum: ADJUSTMENT_STATUSES, default: 'UNPAID' })
  status!: AdjustmentStatus;

  @Prop({ type: String, default: UNPAID_BATCH_ID })
  batchId!: string;

  /** Per-shop display reference, ADJ-000001, … */
  @Prop({ type: String, required: true })
  customId!: string;

  @Prop({ type: String, default: '' })
  comments!: string;

  /** Decides the payout period the adjustment belongs to. */
  @Prop({ type: Date, required: true })
  customItemDate!: Date;

  @Prop({ type: Date, default: null })
  paidAt!: Date | null;

  createdAt!: Date;
  updatedAt!: Date;
}

export const PayoutAdjustmentSchema = SchemaFactory.createForClass(PayoutAdjustment);
PayoutAdjustmentSchema.plugin(auditOutboxPlugin);
PayoutAdjustmentSchema.index({ shopId: 1, customId: 1 }, { unique: true });
// GET /v2/payout-adjustments (status and type sent as `$in` over every value when not filtered;
// the customItemDate range follows the sort keys)
const NEWEST = { createdAt: -1, _id: -1 } as const;
PayoutAdjustmentSchema.index({ shopId: 1, status: 1, type: 1, ...NEWEST, customItemDate: 1 });
PayoutAdjustmentSchema.index({ shopId: 1, vendorId: 1, status: 1, type: 1, ...NEWEST, customItemDate: 1 });
// The payout engine: a vendor's UNPAID adjustments up to a cut-off, the vendors that have some, a batch's.
PayoutAdjustmentSchema.index({ shopId: 1, vendorId: 1, status: 1, customItemDate: 1, _id: 1 });
PayoutAdjustmentSchema.index({ shopId: 1, status: 1, customItemDate: 1 });
PayoutAdjustmentSchema.index({ shopId: 1, batchId: 1, status: 1, vendorId: 1, _id: 1 });

/** Per-shop sequence behind `customId` (one document per shop, `_id` = `adjustments:<shopId>`). */
@Schema({ collection: 'payout_adjustment_sequences', versionKey: false })
export class PayoutAdjustmentSequence {
  @Prop({ type: String, required: true })
  _id!: string;

  @Prop({ type: Number, default: 0 })
  seq!: number;
}
export const PayoutAdjustmentSequenceSchema = SchemaFactory.createForClass(PayoutAdjustmentSequence);
