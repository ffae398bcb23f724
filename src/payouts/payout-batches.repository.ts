import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { ModelOutbox, outboxOnInsert } from '../audit/audit-outbox';
import type { AuditRecord, AuditStamp } from '../audit/audit-record';
import { clearMarker } from '../event-port/pending-event-marker';
import { ShopScope } from '../common/tenancy';
import { leaseFree } from '../database/lease';
import { TenantRepository } from '../database/tenant-repository';
import { upsertReturningDocument } from '../database/upsert';
import { valueOrAny } from '../database/query-filters';
import {
  BATCH_STATUSES,
  BatchDecision,
  BatchStatus,
  DecidedAdjustment,
  PayoutBatch,
  SETTLED_BATCH_STATUSES,
} from './payout-batch.schema';

export interface BatchTotals {
  lineItemCount: number;
  lineItemTotal: number;
  refundCount: number;
  refundTotal: number;
  adjustmentCount: number;
  adjustmentTotal: number;
  total: number;
  closingBalance: number;
}

@Injectable()
export class PayoutBatchesRepository extends TenantRepository<PayoutBatch> {
  protected override readonly vendorField = 'vendorId';
  /** The audit outbox of batch documents (AuditTrail.commit). */
  readonly outbox: ModelOutbox;

  constructor(@InjectModel(PayoutBatch.name) model: Model<PayoutBatch>) {
    super(model);
    this.outbox = new ModelOutbox(model);
  }

  /**
   * The batch of (vendor, periodEnd): found, or created queued. Safe under concurrent triggers.
   * With `created`, a batch this call creates gets that id and that audit event in its outbox (in
   * the same upsert); a batch that already existed keeps its own (its `auditPendingKey` tells).
   */
  async findOrCreate(
    scope: ShopScope,
    key: { vendorId: Types.ObjectId; periodEnd: string },
    init: { vendorName: string; cutoff: Date; minimumPayout?: number },
    created?: { _id: Types.ObjectId; stamp: AuditStamp; event: AuditRecord } | null,
  ): Promise<PayoutBatch> {
    const filter = this.scoped(scope, key);
    const onInsert = created ? { _id: created._id, ...outboxOnInsert(created.stamp, created.event) } : {};
    const update = { $setOnInsert: { ...init, status: 'queued' as const, ...onInsert } };
    // Two triggers racing to insert the same key: the unique index lets one win, the other reads its batch.
    return upsertReturningDocument(() =>
      this.model
        .findOneAndUpdate(filter, update, { upsert: true, new: true, setDefaultsOnInsert: true })
        .lean<PayoutBatch>()
        .exec(),
    );
  }

  findById(scope: ShopScope, id: string | Types.ObjectId): Promise<PayoutBatch | null> {
    return this.findOneById(scope, id);
  }

  /** Every batch of the period: a repeated trigger answers them again (and resumes unfinished ones). */
  forPeriod(scope: ShopScope, periodEnd: string): Promise<PayoutBatch[]> {
    // by vendor: the unique (shop, period, vendor) index's order, a total one (database/store-ranges.ts)
    // MongoDB: reads that order off the same unique index.
    return this.model
      .find(this.scoped(scope, { periodEnd }))
      .sort({ vendorId: 1 })
      .lean<PayoutBatch[]>()
      .exec();
  }

  /** One page newest first, plus the total (counted only when the page cannot tell it). */
  async page(
    scope: ShopScope,
    filter: { vendorId?: Types.ObjectId; status?: BatchStatus },
    page: { offset: number; limit: number },
  ): Promise<{ total: number; items: PayoutBatch[] }> {
    const where = { vendorId: filter.vendorId, status: valueOrAny(filter.status, BATCH_STATUSES) };
    return this.offsetPage<PayoutBatch>(scope, where, { createdAt: -1, _id: -1 }, page);
  }

  /** A failed batch goes back to queued when it is triggered again. */
  requeue(scope: ShopScope, id: Types.ObjectId): Promise<PayoutBatch | null> {
    return this.model
      .findOneAndUpdate(
        this.scoped(scope, { _id: id, status: 'failed' }),
        { $set: { status: 'queued' } },
        { new: true },
      )
      .lean<PayoutBatch>()
      .exec();
  }

  /**
   * Takes the run lease of a batch that is not completed and whose lease is free or expired.
   * Null when another run holds it (or the batch is completed).
   */
  acquire(
    scope: ShopScope,
    id: Types.ObjectId,
    leaseId: string,
    now: Date,
    until: Date,
  ): Promise<PayoutBatch | null> {
    return this.model
      .findOneAndUpdate(
        this.scoped(scope, {
          _id: id,
          status: { $nin: SETTLED_BATCH_STATUSES },
          ...leaseFree(now),
        }),
        { $set: { status: 'running', leaseId, leaseUntil: until, startedAt: now }, $inc: { runs: 1 } },
        { new: true },
      )
      .lean<PayoutBatch>()
      .exec();
  }

  /** Extends the lease; false when it was lost (expired and taken over), so the run must stop. */
  renew(scope: ShopScope, id: Types.ObjectId, leaseId: string, until: Date): Promise<boolean> {
    return this.renewLease(scope, id, leaseId, until);
  }

  /**
   * Records the run's decision (pay or carry forward) once: a resumed run finds it and finishes
   * the same way. Returns the batch as decided (by this run or an earlier one).
   */
  async decide(
    scope: ShopScope,
    id: Types.ObjectId,
    leaseId: string,
    decision: {
      decision: BatchDecision;
      net: number;
      openingBalance: number;
      decidedAdjustments: DecidedAdjustment[] | null;
    },
  ): Promise<PayoutBatch | null> {
    await this.model
      .updateOne(this.scoped(scope, { _id: id, leaseId, decision: null }), { $set: decision })
      .exec();
    return this.findOneById(scope, id);
  }

  /**
   * Withdraws a pay decision the run could not mark as decided (an adjustment changed in between),
   * once the run has let go of what it marked: the run (or a resumed one) decides again.
   */
  async undecide(scope: ShopScope, id: Types.ObjectId, leaseId: string): Promise<boolean> {
    const res = await this.model
      .updateOne(this.scoped(scope, { _id: id, leaseId, decision: 'pay' }), {
        $set: { decision: null, net: null, decidedAdjustments: null },
      })
      .exec();
    return res.matchedCount === 1;
  }

  /** Every settled batch of the vendor (reconcile). */
  settledForVendor(scope: ShopScope, vendorId: Types.ObjectId): Promise<PayoutBatch[]> {
    return this.model
      .find(this.scoped(scope, { vendorId, status: { $in: SETTLED_BATCH_STATUSES } }))
      .sort({ createdAt: -1, _id: -1 })
      .lean<PayoutBatch[]>()
      .exec();
  }

  complete(
    scope: ShopScope,
    id: Types.ObjectId,
    leaseId: string,
    totals: BatchTotals,
    at: Date,
    status: 'completed' | 'carried_forward' | 'below_minimum' = 'completed',
  ): Promise<PayoutBatch | null> {
    return this.model
      .findOneAndUpdate(
        this.scoped(scope, { _id: id, leaseId }),
        {
          $set: {
            ...totals,
            status,
            transferDue: status === 'completed' && totals.total > 0,
            // a paid batch issues its documents (DESIGN §14); a carried-forward one settles no row
            documentsDue: status === 'completed',
            completedAt: at,
            // its payout_batch.* events are pending until recorded (the same write: DESIGN §11)
            eventPendingAt: at,
            lastError: null,
            leaseId: null,
            leaseUntil: null,
          },
        },
        { new: true },
      )
      .lean<PayoutBatch>()
      .exec();
  }

  /** The batch's events are recorded: its pending-event marker goes (where it still holds `at`). */
  async eventsRecorded(scope: ShopScope, id: Types.ObjectId, at: Date): Promise<void> {
    await clearMarker(this.model, (f) => this.scoped(scope, f), [id], at);
  }

  /** The batch's transfer exists (createForPaidBatch answered): nothing left for the sweeper. */
  async transferCreated(scope: ShopScope, id: Types.ObjectId): Promise<void> {
    await this.model
      .updateOne(this.scoped(scope, { _id: id, transferDue: true }), { $set: { transferDue: false } })
      .exec();
  }

  /** Every document of the batch is issued (the documents feature): nothing left for its sweeper. */
  async documentsIssued(scope: ShopScope, id: Types.ObjectId): Promise<void> {
    await this.model
      .updateOne(this.scoped(scope, { _id: id, documentsDue: true }), { $set: { documentsDue: false } })
      .exec();
  }

  /** Records a failed run and frees the lease: `failed` when no retry follows, else back to `queued`. */
  async release(
    scope: ShopScope,
    id: Types.ObjectId,
    leaseId: string,
    error: string,
    final: boolean,
  ): Promise<void> {
    await this.model
      .updateOne(this.scoped(scope, { _id: id, leaseId }), {
        $set: { status: final ? 'failed' : 'queued', lastError: error, leaseId: null, leaseUntil: null },
      })
      .exec();
  }
}
