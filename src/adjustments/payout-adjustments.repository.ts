import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { ModelOutbox, outboxOnInsert, withOutbox } from '../audit/audit-outbox';
import type { AuditRecord, AuditStamp } from '../audit/audit-record';
import { round2 } from '../common/money';
import { ShopScope } from '../common/tenancy';
import { TenantRepository } from '../database/tenant-repository';
import { valueOrAny } from '../database/query-filters';
import { dropSupersededIndexes } from '../database/superseded-indexes';
import { upsertReturningDocument } from '../database/upsert';
import {
  ADJUSTMENT_STATUSES,
  ADJUSTMENT_TYPES,
  AdjustmentStatus,
  AdjustmentType,
  PayoutAdjustment,
  PayoutAdjustmentSequence,
  UNPAID_BATCH_ID,
} from './payout-adjustment.schema';

export interface AdjustmentListFilter {
  vendorId?: Types.ObjectId;
  status?: AdjustmentStatus;
  type?: AdjustmentType;
  customItemDate?: { $gte?: Date; $lte?: Date };
}

export type AdjustmentChanges = Partial<
  Pick<PayoutAdjustment, 'amount' | 'type' | 'comments' | 'customItemDate'>
>;

/** What the payout engine needs of an adjustment. */
export interface PayableAdjustment {
  _id: Types.ObjectId;
  vendorId: Types.ObjectId;
  amount: number;
}

@Injectable()
export class PayoutAdjustmentsRepository
  extends TenantRepository<PayoutAdjustment>
  implements OnApplicationBootstrap
{
  protected override readonly vendorField = 'vendorId';
  /** The audit outbox of adjustment documents (AuditTrail.commit). */
  readonly outbox: ModelOutbox;

  constructor(
    @InjectModel(PayoutAdjustment.name) model: Model<PayoutAdjustment>,
    @InjectModel(PayoutAdjustmentSequence.name) private readonly sequences: Model<PayoutAdjustmentSequence>,
  ) {
    super(model);
    this.outbox = new ModelOutbox(model);
  }

  /** The payout engine's indexes gained `_id` (their reads are in a total order): the old ones go. */
  onApplicationBootstrap(): Promise<void> {
    return dropSupersededIndexes(this.model, [
      'shopId_1_vendorId_1_status_1_customItemDate_1',
      'shopId_1_batchId_1_status_1_vendorId_1',
    ]);
  }

  /** The next number of the shop's adjustment sequence (atomic; one `_id` read-modify-write). */
  async nextSequence(scope: ShopScope): Promise<number> {
    const row = await upsertReturningDocument(() =>
      this.sequences
        .findOneAndUpdate(
          { _id: `adjustments:${scope.shopId}` },
          { $inc: { seq: 1 } },
          { upsert: true, new: true },
        )
        .lean<PayoutAdjustmentSequence>()
        .exec(),
    );
    return row.seq;
  }

  async create(
    scope: ShopScope,
    data: Pick<
      PayoutAdjustment,
      '_id' | 'vendorId' | 'vendorName' | 'amount' | 'type' | 'customId' | 'comments' | 'customItemDate'
    >,
    stamp: AuditStamp | null = null,
    event: AuditRecord | null = null,
  ): Promise<PayoutAdjustment> {
    const doc = await this.model.create({
      ...data,
      ...(stamp && event ? outboxOnInsert(stamp, event) : {}),
      status: 'UNPAID',
      batchId: UNPAID_BATCH_ID,
      paidAt: null,
      ...this.owner(scope),
    });
    return doc.toObject();
  }

  findById(scope: ShopScope, id: string): Promise<PayoutAdjustment | null> {
    return this.findOneById(scope, id);
  }

  /** One page, newest first, and the total (counted only when the page cannot tell it). */
  page(
    scope: ShopScope,
    filter: AdjustmentListFilter,
    page: { offset: number; limit: number },
  ): Promise<{ total: number; items: PayoutAdjustment[] }> {
    const where = {
      vendorId: filter.vendorId,
      status: valueOrAny(filter.status, ADJUSTMENT_STATUSES),
      type: valueOrAny(filter.type, ADJUSTMENT_TYPES),
      customItemDate: filter.customItemDate,
    };
    return this.offsetPage<PayoutAdjustment>(scope, where, { createdAt: -1, _id: -1 }, page);
  }

  /** Applies the changes only while the adjustment is UNPAID; null when it is PAID or absent. */
  updateUnpaid(
    scope: ShopScope,
    id: Types.ObjectId,
    changes: AdjustmentChanges,
    stamp: AuditStamp | null = null,
    event: AuditRecord | null = null,
  ): Promise<PayoutAdjustment | null> {
    return this.model
      .findOneAndUpdate(
        this.scoped(scope, { _id: id, status: 'UNPAID' }),
        withOutbox({ $set: changes }, stamp, event),
        { new: true },
      )
      .lean<PayoutAdjustment>()
      .exec();
  }

  /** A held system adjustment (dated `held`) gets its real date; whether it was still held. */
  async releaseHeld(scope: ShopScope, id: Types.ObjectId, held: Date, at: Date): Promise<boolean> {
    const res = await this.model
      .updateOne(this.scoped(scope, { _id: id, status: 'UNPAID', customItemDate: held }), {
        $set: { customItemDate: at },
      })
      .exec();
    return res.modifiedCount === 1;
  }

  /** Deletes only while UNPAID; whether a record was deleted. */
  async deleteUnpaid(scope: ShopScope, id: Types.ObjectId): Promise<boolean> {
    const res = await this.model.deleteOne(this.scoped(scope, { _id: id, status: 'UNPAID' })).exec();
    return res.deletedCount === 1;
  }

  // ---- payout engine --------------------------------------------------------------------------

  /** UNPAID adjustments of the vendor dated on or before the cut-off. */
  listPayable(scope: ShopScope, vendorId: Types.ObjectId, cutoff: Date): Promise<PayableAdjustment[]> {
    return this.model
      .find(this.scoped(scope, { vendorId, status: 'UNPAID', customItemDate: { $lte: cutoff } }), {
        vendorId: 1,
        amount: 1,
      })
      .sort({ customItemDate: 1, _id: 1 })
      .lean<PayableAdjustment[]>()
      .exec();
  }

  /** Vendors that have at least one UNPAID adjustment dated on or before the cut-off. */
  async vendorsWithPayable(scope: ShopScope, cutoff: Date): Promise<Types.ObjectId[]> {
    const rows = await this.model
      .aggregate<{ _id: Types.ObjectId }>([
        { $match: this.scoped(scope, { status: 'UNPAID', customItemDate: { $lte: cutoff } }) },
        { $group: { _id: '$vendorId' } },
      ])
      .exec();
    return rows.map((r) => r._id);
  }

  /**
   * UNPAID → PAID with the batch id, each write conditional on the adjustment still being UNPAID,
   * still holding the amount the batch decided on and still dated within the cut-off at that moment
   * (so a concurrent batch, a delete, an edit of its amount or one that moves it past the cut-off
   * wins cleanly: nothing is paid twice, early, or at an amount the batch did not net).
   */
  async markPaid(
    scope: ShopScope,
    decided: Array<{ _id: Types.ObjectId; amount: number }>,
    batchId: string,
    at: Date,
    cutoff: Date,
  ): Promise<void> {
    await this.updateEach(scope, decided, ({ _id, amount }) => ({
      filter: { _id, status: 'UNPAID', amount, customItemDate: { $lte: cutoff } },
      set: { status: 'PAID', batchId, paidAt: at },
    }));
  }

  /**
   * PAID → UNPAID for every adjustment carrying the batch id: a batch that has not completed lets go
   * of what it marked when it must decide again (one of its adjustments changed before it was marked).
   * No event or balance saw them paid: those follow the batch's completion.
   */
  async releaseBatch(scope: ShopScope, batchId: string, vendorId: Types.ObjectId): Promise<void> {
    await this.model
      .updateMany(this.scoped(scope, { batchId, status: 'PAID', vendorId }), {
        $set: { status: 'UNPAID', batchId: UNPAID_BATCH_ID, paidAt: null },
      })
      .exec();
  }

  /** Σ of the vendor's UNPAID adjustments dated up to `until` (the balance read's `due`). */
  async unpaidSum(scope: ShopScope, vendorId: Types.ObjectId, until: Date): Promise<number> {
    const rows = await this.model
      .aggregate<{ amount: number }>([
        { $match: this.scoped(scope, { vendorId, status: 'UNPAID', customItemDate: { $lte: until } }) },
        { $group: { _id: '$vendorId', amount: { $sum: '$amount' } } },
      ])
      .exec();
    return round2(rows[0]?.amount ?? 0);
  }

  /** Σ of the shop's UNPAID adjustments dated up to `until`, every vendor (the shop dashboard). */
  async shopUnpaidSum(scope: ShopScope, until: Date): Promise<number> {
    const rows = await this.model
      .aggregate<{ amount: number }>([
        { $match: this.scoped(scope, { status: 'UNPAID', customItemDate: { $lte: until } }) },
        { $group: { _id: '$shopId', amount: { $sum: '$amount' } } },
      ])
      .exec();
    return round2(rows[0]?.amount ?? 0);
  }

  /** Every adjustment of the vendor (reconcile). */
  forReconcile(scope: ShopScope, vendorId: Types.ObjectId): Promise<PayoutAdjustment[]> {
    return this.model
      .find(this.scoped(scope, { vendorId, status: { $in: ADJUSTMENT_STATUSES } }))
      .lean<PayoutAdjustment[]>()
      .exec();
  }

  /** What a batch actually paid: the adjustments carrying its id. */
  paidByBatch(scope: ShopScope, batchId: string): Promise<PayableAdjustment[]> {
    return this.model
      .find(this.scoped(scope, { batchId, status: 'PAID' }), { vendorId: 1, amount: 1 })
      .sort({ vendorId: 1, _id: 1 })
      .lean<PayableAdjustment[]>()
      .exec();
  }

  /**
   * The adjustments a batch settled, for its statement. `vendorId` is the batch's vendor, so shop
   * and vendor callers read the same index (a vendor scope merges the same value).
   */
  settledByBatch(scope: ShopScope, batchId: string, vendorId: Types.ObjectId): Promise<PayoutAdjustment[]> {
    return this.model
      .find(this.scoped(scope, { batchId, status: 'PAID', vendorId }))
      .sort({ _id: 1 })
      .lean<PayoutAdjustment[]>()
      .exec();
  }
}
