import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { Types } from 'mongoose';
import { auditOutboxPlugin } from '../audit/audit-outbox';
import { PAYOUT_METHOD_TYPES, PayoutMethodType, TRANSFER_STATES, TransferState } from './transfer-states';

/** One state change, kept on the transfer itself (the audit of changes no credential made: jobs, webhooks). */
@Schema({ _id: false })
export class TransferStateChange {
  @Prop({ type: String, default: null }) from!: TransferState | null;
  @Prop({ type: String, required: true }) to!: TransferState;
  @Prop({ type: Date, required: true }) at!: Date;
  /** What moved it: `engine`, `rail`, `webhook:stripe`, `webhook:paypal`, `shop:<id>`, … */
  @Prop({ type: String, required: true }) by!: string;
  @Prop({ type: String, default: null }) note!: string | null;
}
export const TransferStateChangeSchema = SchemaFactory.createForClass(TransferStateChange);

/**
 * One credit-back the transfer owes the vendor (issue 28): recorded in the same single-document
 * write as the failure or the reversal it pays back, then made as a system ADDITION adjustment of
 * that id (transfer-credit-back.ts). A retry of a failed transfer withdraws them and clears the list.
 */
@Schema({ _id: false })
export class TransferCredit {
  @Prop({ type: Types.ObjectId, required: true }) adjustmentId!: Types.ObjectId;
  /** Decimal (2 dp), > 0. */
  @Prop({ type: Number, required: true }) amount!: number;
  /** A reversal's: the reversed total this credit brought the transfer to; null for a failure. */
  @Prop({ type: Number, default: null }) reversedTotal!: number | null;
  @Prop({ type: Date, required: true }) at!: Date;
}
export const TransferCreditSchema = SchemaFactory.createForClass(TransferCredit);

/**
 * The money of one paid payout batch leaving the marketplace (DESIGN §10): exactly one per batch
 * (unique `{shopId, batchId}`), stored before any provider is called, so the provider's
 * idempotency key (this `_id`) exists before the first request and a retry or a second trigger
 * finds this record instead of paying again.
 */
@Schema({ collection: 'transfers', timestamps: true })
export class Transfer {
  _id!: Types.ObjectId;

  @Prop({ type: Types.ObjectId, required: true }) shopId!: Types.ObjectId;
  @Prop({ type: Types.ObjectId, required: true }) batchId!: Types.ObjectId;
  @Prop({ type: Types.ObjectId, required: true }) vendorId!: Types.ObjectId;
  /** Copied when the transfer is created (the bank file's payee). */
  @Prop({ type: String, required: true }) vendorName!: string;

  /** The rail, from the vendor's payout method when the transfer was created. */
  @Prop({ type: String, enum: PAYOUT_METHOD_TYPES, required: true }) method!: PayoutMethodType;
  /** Where it goes: Stripe account id or PayPal receiver (null for manual); copied at creation. */
  @Prop({ type: String, default: null }) destination!: string | null;
  @Prop({ type: String, default: null }) recipientType!: string | null;

  /** Decimal amount (2 dp), always > 0. */
  @Prop({ type: Number, required: true }) amount!: number;
  /** ISO 4217, upper case. */
  @Prop({ type: String, required: true }) currency!: string;

  @Prop({ type: String, enum: TRANSFER_STATES, default: 'pending' }) state!: TransferState;
  /** The provider's id: Stripe `tr_…`, PayPal `payout_batch_id`. */
  @Prop({ type: String, default: null }) providerId!: string | null;
  /** PayPal's item status as last seen (SUCCESS, UNCLAIMED, …). */
  @Prop({ type: String, default: null }) providerStatus!: string | null;
  /** Calls of the rail that reached a provider answer or failed (outages included). */
  @Prop({ type: Number, default: 0 }) attempts!: number;
  /** Answers that refused the transfer (not outages); TRANSFER_MAX_ATTEMPTS of them → failed. */
  @Prop({ type: Number, default: 0 }) refusals!: number;
  @Prop({ type: String, default: null }) lastError!: string | null;
  /** Bank reference (manual) or provider reference once paid. */
  @Prop({ type: String, default: null }) reference!: string | null;

  @Prop({ type: Date, default: null }) sentAt!: Date | null;
  @Prop({ type: Date, default: null }) settledAt!: Date | null;
  @Prop({ type: Date, default: null }) failedAt!: Date | null;
  @Prop({ type: Date, default: null }) reversedAt!: Date | null;
  /**
   * What the provider took back in total (Stripe's running `amount_reversed`): only ever raised,
   * conditionally on the value it was read at, each raise with its credit of the increase.
   */
  @Prop({ type: Number, default: null }) reversedAmount!: number | null;
  /** Since when PayPal reports the item UNCLAIMED (failed after 30 days of it). */
  @Prop({ type: Date, default: null }) unclaimedSince!: Date | null;

  /** A rail call in progress holds the transfer until then (another attempt waits for it to lapse). */
  @Prop({ type: Date, default: null }) leaseUntil!: Date | null;

  /**
   * The latest credit-back once every credit of `credits` is made (the first one's id = this id);
   * null while one may be missing (the transfer sweeper finishes those).
   */
  @Prop({ type: Types.ObjectId, default: null }) creditAdjustmentId!: Types.ObjectId | null;
  /** The credit-backs owed: one for a failure, one per reversal increment. */
  @Prop({ type: [TransferCreditSchema], default: [] }) credits!: TransferCredit[];
  /** Credits ever recorded (never lowered by a retry): the next one's id comes from it. */
  @Prop({ type: Number, default: 0 }) creditSeq!: number;

  @Prop({ type: [TransferStateChangeSchema], default: [] }) history!: TransferStateChange[];

  /**
   * Pending-event marker (DESIGN §11, events/pending-event-marker.ts): the time of the oldest move
   * to paid/failed/reversed whose `transfer.*` event is not recorded yet (`$min` in the move's own
   * write, so a later move never hides an earlier pending one). Cleared once recorded.
   */
  @Prop({ type: Date, default: undefined }) eventPendingAt?: Date;

  createdAt!: Date;
  updatedAt!: Date;
}

export const TransferSchema = SchemaFactory.createForClass(Transfer);
TransferSchema.plugin(auditOutboxPlugin);
// One transfer per batch: the de-duplication of createForPaidBatch.
TransferSchema.index({ shopId: 1, batchId: 1 }, { unique: true });
// GET /v1/payouts/transfers (state and method sent as `$in` over every value when not filtered;
// the createdAt range follows the sort keys)
const NEWEST = { createdAt: -1, _id: -1 } as const;
TransferSchema.index({ shopId: 1, state: 1, method: 1, ...NEWEST });
TransferSchema.index({ shopId: 1, vendorId: 1, state: 1, method: 1, ...NEWEST });
// The transfer sweeper's cross-shop query (SystemTransfersRepository): open transfers, and failed or
// reversed ones not credited back yet, that nothing touched lately.
TransferSchema.index({ state: 1, creditAdjustmentId: 1, updatedAt: 1 });
// A provider webhook finds its transfer by the provider's id.
TransferSchema.index({ shopId: 1, providerId: 1 });
// The events sweeper's cross-shop scan for moves whose transfer.* event a crash left unrecorded.
TransferSchema.index({ eventPendingAt: 1 });
