import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import type { ShopScope } from '../common/tenancy';
import { valueOrAny } from '../database/query-filters';
import { leaseFree } from '../database/lease';
import { TenantRepository } from '../database/tenant-repository';
import { upsertReturningDocument } from '../database/upsert';
import { clearMarker } from '../event-port/pending-event-marker';
import { PayoutRun, RUN_STATES, RunState, RunTotals, RunVendor } from './payout-run.schema';

/** What a run copies from the schedule when it is created. */
export type RunTerms = Pick<
  PayoutRun,
  'frequency' | 'holdDays' | 'minimumPayout' | 'requireCompleteTaxProfile'
>;

/**
 * Payout runs (DESIGN §15). Every write that moves a run is conditional: created once per (shop,
 * due date) by an upsert; claimed only when pending or when its lease lapsed; written by the
 * holder of its lease only; a vendor recorded once.
 */
@Injectable()
export class PayoutRunsRepository extends TenantRepository<PayoutRun> {
  constructor(@InjectModel(PayoutRun.name) model: Model<PayoutRun>) {
    super(model);
  }

  /** The run of (shop, due date): found, or created pending. Safe under concurrent ticks. */
  findOrCreate(scope: ShopScope, dueDate: string, terms: RunTerms): Promise<PayoutRun> {
    return upsertReturningDocument(() =>
      this.model
        .findOneAndUpdate(
          this.scoped(scope, { dueDate }),
          { $setOnInsert: { ...terms, state: 'pending' } },
          { upsert: true, new: true, setDefaultsOnInsert: true },
        )
        .lean<PayoutRun>()
        .exec(),
    );
  }

  findById(scope: ShopScope, id: string | Types.ObjectId): Promise<PayoutRun | null> {
    return this.findOneById(scope, id);
  }

  /** The run of a due date, if one was made. */
  ofDueDate(scope: ShopScope, dueDate: string): Promise<PayoutRun | null> {
    return this.model.findOne(this.scoped(scope, { dueDate })).lean<PayoutRun>().exec();
  }

  /** GET /v1/payouts/runs: newest due date first, plus the total. */
  page(
    scope: ShopScope,
    filter: { state?: RunState; dueDate?: Record<string, string> },
    page: { offset: number; limit: number },
  ): Promise<{ total: number; items: PayoutRun[] }> {
    const where: Record<string, unknown> = { state: valueOrAny(filter.state, RUN_STATES) };
    if (filter.dueDate) where.dueDate = filter.dueDate;
    return this.offsetPage<PayoutRun>(scope, where, { dueDate: -1, _id: -1 }, page);
  }

  /** Takes the run's lease: pending, or running with its lease lapsed. Null when another holds it. */
  claim(scope: ShopScope, id: Types.ObjectId, leaseId: string, now: Date, until: Date) {
    return this.model
      .findOneAndUpdate(
        this.scoped(scope, {
          _id: id,
          state: { $in: ['pending', 'running'] },
          ...leaseFree(now),
        }),
        { $set: { state: 'running', leaseId, leaseUntil: until, startedAt: now }, $inc: { claims: 1 } },
        { new: true },
      )
      .lean<PayoutRun>()
      .exec();
  }

  /** Extends the lease; false when it was lost (lapsed and taken over). */
  renew(scope: ShopScope, id: Types.ObjectId, leaseId: string, until: Date): Promise<boolean> {
    return this.renewLease(scope, id, leaseId, until);
  }

  /** Records one vendor's batch or skip, once (a resumed run finds it recorded). */
  async addVendor(scope: ShopScope, id: Types.ObjectId, leaseId: string, vendor: RunVendor): Promise<void> {
    await this.model
      .updateOne(this.scoped(scope, { _id: id, leaseId, 'vendors.vendorId': { $ne: vendor.vendorId } }), {
        $push: { vendors: vendor },
      })
      .exec();
  }

  /** Stores the run's candidate vendors once (the holder of the lease, before its first batch). */
  async setCandidates(
    scope: ShopScope,
    id: Types.ObjectId,
    leaseId: string,
    candidates: Types.ObjectId[],
  ): Promise<boolean> {
    const res = await this.model
      .updateOne(this.scoped(scope, { _id: id, leaseId, candidates: { $exists: false } }), {
        $set: { candidates },
      })
      .exec();
    return res.matchedCount === 1;
  }

  async markPlanned(scope: ShopScope, id: Types.ObjectId, leaseId: string): Promise<boolean> {
    const res = await this.model
      .updateOne(this.scoped(scope, { _id: id, leaseId }), { $set: { planned: true } })
      .exec();
    return res.matchedCount === 1;
  }

  /** Completes the run with its vendors' settled batches and totals (the holder of the lease only). */
  complete(
    scope: ShopScope,
    id: Types.ObjectId,
    leaseId: string,
    vendors: RunVendor[],
    totals: RunTotals,
    at: Date,
  ): Promise<PayoutRun | null> {
    return this.model
      .findOneAndUpdate(
        this.scoped(scope, { _id: id, leaseId }),
        {
          $set: {
            vendors,
            totals,
            state: 'completed',
            completedAt: at,
            eventPendingAt: at,
            leaseId: null,
            leaseUntil: null,
            lastError: null,
          },
        },
        { new: true },
      )
      .lean<PayoutRun>()
      .exec();
  }

  /** Lets go of the lease (batches still settling, or a failure): the next tick resumes the run. */
  async release(scope: ShopScope, id: Types.ObjectId, leaseId: string, error: string | null): Promise<void> {
    await this.model
      .updateOne(this.scoped(scope, { _id: id, leaseId }), {
        $set: { leaseId: null, leaseUntil: null, lastError: error },
      })
      .exec();
  }

  async eventRecorded(scope: ShopScope, id: Types.ObjectId, at: Date): Promise<void> {
    await clearMarker(this.model, (f) => this.scoped(scope, f), [id], at);
  }
}
