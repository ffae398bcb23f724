import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { AuditOutbox, ModelOutbox, withOutbox } from '../audit/audit-outbox';
import type { AuditRecord, AuditStamp } from '../audit/audit-record';
import { ShopScope } from '../common/tenancy';
import { TenantRepository } from '../database/tenant-repository';
import { isDuplicateKeyError } from '../common/errors/duplicate-key';
import { clearMarker } from '../event-port/pending-event-marker';
import { valueOrAny } from '../database/query-filters';
import { Transfer, TransferStateChange } from './transfer.schema';
import { guardFilter, NO_LEASE, TransferGuard } from './transfer-lease';
import type { CreditWrite } from './transfer-credits';
import {
  PAYOUT_METHOD_TYPES,
  PayoutMethodType,
  sourcesOf,
  TRANSFER_EVENT_OF,
  TRANSFER_STATES,
  TransferState,
} from './transfer-states';

export type NewTransfer = Pick<
  Transfer,
  'batchId' | 'vendorId' | 'vendorName' | 'method' | 'destination' | 'recipientType' | 'amount' | 'currency'
>;

export interface TransferListFilter {
  state?: TransferState;
  method?: PayoutMethodType;
  vendorId?: Types.ObjectId;
  createdAt?: { $gte?: Date; $lte?: Date };
}

@Injectable()
export class TransfersRepository extends TenantRepository<Transfer> {
  protected override readonly vendorField = 'vendorId';
  readonly outbox: AuditOutbox;

  constructor(@InjectModel(Transfer.name) model: Model<Transfer>) {
    super(model);
    this.outbox = new ModelOutbox(model);
  }

  /** The batch's transfer, created `pending` unless it exists (then that one, `created: false`). */
  async insertOnce(
    scope: ShopScope,
    data: NewTransfer,
    change: TransferStateChange,
  ): Promise<{ transfer: Transfer; created: boolean }> {
    try {
      const doc = await this.model.create({
        ...data,
        ...this.owner(scope),
        state: 'pending',
        leaseUntil: NO_LEASE,
        history: [change],
      });
      return { transfer: doc.toObject() as Transfer, created: true };
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
      const existing = await this.findByBatch(scope, data.batchId);
      if (!existing) throw err;
      return { transfer: existing, created: false };
    }
  }

  findById(scope: ShopScope, id: string | Types.ObjectId): Promise<Transfer | null> {
    return this.findOneById<Transfer>(scope, id);
  }

  findByBatch(scope: ShopScope, batchId: Types.ObjectId): Promise<Transfer | null> {
    return this.model.findOne(this.scoped(scope, { batchId })).lean<Transfer>().exec();
  }

  /** Every transfer of a vendor (payouts:reconcile; served by the vendor's list index). */
  forReconcile(scope: ShopScope, vendorId: Types.ObjectId): Promise<Transfer[]> {
    return this.model.find(this.scoped(scope, { vendorId }), { history: 0 }).lean<Transfer[]>().exec();
  }

  findByProviderId(scope: ShopScope, providerId: string): Promise<Transfer | null> {
    return this.model.findOne(this.scoped(scope, { providerId })).lean<Transfer>().exec();
  }

  page(
    scope: ShopScope,
    f: TransferListFilter,
    page: { offset: number; limit: number },
  ): Promise<{ total: number; items: Transfer[] }> {
    return this.offsetPage<Transfer>(
      scope,
      {
        vendorId: f.vendorId,
        state: valueOrAny(f.state, TRANSFER_STATES),
        method: valueOrAny(f.method, PAYOUT_METHOD_TYPES),
        createdAt: f.createdAt,
      },
      { createdAt: -1, _id: -1 },
      page,
    );
  }

  /**
   * Takes the transfer for one rail call: in one of `states`, not held by another call. Counts the
   * attempt. Null when it is not claimable (moved on, or another call holds it).
   */
  claim(
    scope: ShopScope,
    id: Types.ObjectId,
    states: readonly TransferState[],
    now: Date,
    leaseUntil: Date,
  ): Promise<Transfer | null> {
    return this.model
      .findOneAndUpdate(
        this.scoped(scope, { _id: id, state: { $in: states }, leaseUntil: { $lte: now } }),
        { $set: { leaseUntil }, $inc: { attempts: 1 } },
        { new: true },
      )
      .lean<Transfer>()
      .exec();
  }

  /** Ends a claim without a state change (an outage, a refusal short of the limit, still pending). */
  release(
    scope: ShopScope,
    id: Types.ObjectId,
    set: Partial<Pick<Transfer, 'lastError' | 'providerStatus' | 'unclaimedSince'>>,
    inc: Partial<Record<'refusals', number>> = {},
    guard: TransferGuard = {},
  ): Promise<Transfer | null> {
    return this.model
      .findOneAndUpdate(
        this.scoped(scope, { ...guardFilter(guard), _id: id }),
        { $set: { ...set, leaseUntil: NO_LEASE }, ...(Object.keys(inc).length ? { $inc: inc } : {}) },
        { new: true },
      )
      .lean<Transfer>()
      .exec();
  }

  /**
   * The one way a state changes: conditional on a state the move may start from (a stale or
   * repeated writer matches nothing and gets null), the change appended to the history in the same
   * single-document write, and the lease dropped. `guard`: further conditions of the writer (a
   * retry's own hold and credit counter).
   */
  move(
    scope: ShopScope,
    id: Types.ObjectId,
    to: TransferState,
    change: TransferStateChange,
    set: Partial<Transfer> = {},
    audit: { stamp: AuditStamp | null; event: AuditRecord | null } = { stamp: null, event: null },
    inc: Partial<Record<'refusals', number>> = {},
    guard: TransferGuard = {},
  ): Promise<Transfer | null> {
    const update = withOutbox(
      {
        $set: { ...set, state: to, leaseUntil: NO_LEASE } as Record<string, unknown>,
        ...(Object.keys(inc).length ? { $inc: inc as Record<string, number> } : {}),
      },
      audit.stamp,
      audit.event,
    );
    // A move the systems around us hear of (transfer.paid|failed) is pending in its own write.
    const pending = TRANSFER_EVENT_OF[to] ? { $min: { eventPendingAt: change.at } } : {};
    return this.model
      .findOneAndUpdate(
        this.scoped(scope, { ...guardFilter(guard), _id: id, state: { $in: sourcesOf(to) } }),
        { ...update, ...pending, $push: { history: change } },
        { new: true },
      )
      .lean<Transfer>()
      .exec();
  }

  /**
   * The transfer's pending events are recorded: its marker goes, where it still holds `at` and the
   * transfer is the version they were derived from (`updatedAt`): a move since keeps its own.
   */
  eventsRecorded(scope: ShopScope, t: Pick<Transfer, '_id' | 'updatedAt'>, at: Date): Promise<number> {
    return clearMarker(this.model, (f) => this.scoped(scope, f), [t._id], at, {
      extra: { updatedAt: t.updatedAt },
    });
  }

  /**
   * A move to `failed`, a paid transfer's reversal, or a reversed one's raise (a further partial
   * reversal), with the credit-back it owes, in one conditional write: on the state it may start
   * from, the credit counter it was read at (so two writers never record the same credit) and, for
   * a reversal, the reversed total it was read at (so the total only ever rises, and by exactly the
   * credited increase). The credit marker goes null until the credit is made. Null: it changed.
   * `paidFirst`: a pending or sent transfer the provider made and has taken back since, moved
   * through `paid` to `reversed` in this one write (both moves in the history), on the state as read.
   */
  recordCredit(
    scope: ShopScope,
    t: Pick<Transfer, '_id' | 'state'>,
    to: 'failed' | 'reversed',
    change: TransferStateChange,
    write: CreditWrite,
    paidFirst: TransferStateChange | null = null,
    audit: { stamp: AuditStamp | null; event: AuditRecord | null } = { stamp: null, event: null },
  ): Promise<Transfer | null> {
    const raise = to === 'reversed' && t.state === 'reversed';
    const seq = write.was.creditSeq;
    const filter = {
      _id: t._id,
      state: paidFirst ? t.state : raise ? 'reversed' : { $in: sourcesOf(to) },
      // None recorded yet, or a transfer stored before the counter (null matches a missing field).
      creditSeq: seq ? seq : { $in: [0, null] },
      ...(to === 'reversed' ? { reversedAmount: write.was.reversedAmount } : {}),
    };
    return this.model
      .findOneAndUpdate(
        this.scoped(scope, filter),
        withOutbox(
          {
            $set: {
              ...write.set,
              state: to,
              leaseUntil: NO_LEASE,
              creditAdjustmentId: null,
              creditSeq: write.creditSeq,
            },
            $min: { eventPendingAt: paidFirst?.at ?? change.at },
            $push: {
              history: paidFirst ? { $each: [paidFirst, change] } : change,
              credits: { $each: write.credits },
            },
          },
          audit.stamp,
          audit.event,
        ),
        { new: true },
      )
      .lean<Transfer>()
      .exec();
  }

  /**
   * An operator retry takes the failed transfer first (a lease no other retry or credit-back link
   * gets past) and marks its credits unconfirmed, so a retry that dies before moving it leaves a
   * transfer the sweeper credits back again once the hold lapses.
   */
  holdForRetry(scope: ShopScope, id: Types.ObjectId, now: Date, until: Date): Promise<Transfer | null> {
    return this.model
      .findOneAndUpdate(
        this.scoped(scope, { _id: id, state: 'failed', leaseUntil: { $lte: now } }),
        { $set: { leaseUntil: until, creditAdjustmentId: null } },
        { new: true },
      )
      .lean<Transfer>()
      .exec();
  }

  /**
   * Every credit of the transfer as read is made: the marker names the latest — only while it is
   * still in that state with those credits (same counter) and no retry holds it.
   */
  markCredited(
    scope: ShopScope,
    t: Pick<Transfer, '_id' | 'state' | 'creditSeq'>,
    adjustmentId: Types.ObjectId,
    now: Date,
  ): Promise<Transfer | null> {
    const creditSeq = t.creditSeq ?? 0;
    return this.model
      .findOneAndUpdate(
        this.scoped(scope, {
          _id: t._id,
          state: t.state,
          creditSeq: creditSeq === 0 ? { $in: [0, null] } : creditSeq,
          leaseUntil: { $lte: now },
        }),
        { $set: { creditAdjustmentId: adjustmentId } },
        { new: true },
      )
      .lean<Transfer>()
      .exec();
  }
}
