import { Types } from 'mongoose';
import type { PayoutAdjustment } from '../../src/adjustments/payout-adjustment.schema';
import { UNPAID_BATCH_ID } from '../../src/adjustments/payout-adjustment.schema';
import type {
  PayableAdjustment,
  PayoutAdjustmentsRepository,
} from '../../src/adjustments/payout-adjustments.repository';
import type { ShopScope } from '../../src/common/tenancy';
import {
  type BatchDecision,
  type DecidedAdjustment,
  isSettled,
  type PayoutBatch,
} from '../../src/payouts/payout-batch.schema';
import type { BatchTotals, PayoutBatchesRepository } from '../../src/payouts/payout-batches.repository';
import type { SystemPayoutBatchesRepository } from '../../src/payouts/system-payout-batches.repository';
import { toCents } from '../../src/common/money';
import type { LastBatch, VendorBalance } from '../../src/balances/vendor-balance.schema';
import type { VendorBalancesRepository } from '../../src/balances/vendor-balances.repository';
import { inScope, matchesAll, SHOP } from './fake';

type BatchMethods =
  | 'findOrCreate'
  | 'findById'
  | 'forPeriod'
  | 'requeue'
  | 'acquire'
  | 'renew'
  | 'complete'
  | 'release'
  | 'decide'
  | 'undecide'
  | 'transferCreated'
  | 'documentsIssued'
  | 'eventsRecorded';

/** payout_batches in memory, with the repository's conditional writes (unique key, run lease). */
export class FakePayoutBatchesRepository
  implements Pick<PayoutBatchesRepository, BatchMethods>, Pick<SystemPayoutBatchesRepository, 'eventPending'>
{
  readonly docs: PayoutBatch[] = [];
  /** Called before a run completes its batch: throw from it to crash a run there. */
  beforeComplete: () => void = () => undefined;

  async findOrCreate(
    scope: ShopScope,
    key: { vendorId: Types.ObjectId; periodEnd: string },
    init: { vendorName: string; cutoff: Date; minimumPayout?: number },
  ): Promise<PayoutBatch> {
    const found = this.live(scope).find((b) => matchesAll(b, key));
    if (found) return { ...found };
    const now = new Date();
    const batch: PayoutBatch = {
      _id: new Types.ObjectId(),
      shopId: new Types.ObjectId(scope.shopId),
      ...key,
      minimumPayout: 0,
      ...init,
      status: 'queued',
      lineItemCount: 0,
      lineItemTotal: 0,
      adjustmentCount: 0,
      adjustmentTotal: 0,
      refundCount: 0,
      refundTotal: 0,
      total: 0,
      net: null,
      decision: null,
      openingBalance: 0,
      closingBalance: 0,
      runs: 0,
      lastError: null,
      startedAt: null,
      completedAt: null,
      leaseId: null,
      leaseUntil: null,
      transferDue: false,
      createdAt: now,
      updatedAt: now,
    };
    this.docs.push(batch);
    return { ...batch };
  }

  async findById(scope: ShopScope, id: string | Types.ObjectId): Promise<PayoutBatch | null> {
    const doc = this.live(scope).find((b) => String(b._id) === String(id));
    return doc ? { ...doc } : null;
  }

  async forPeriod(scope: ShopScope, periodEnd: string): Promise<PayoutBatch[]> {
    return this.live(scope)
      .filter((b) => b.periodEnd === periodEnd)
      .map((b) => ({ ...b }));
  }

  async requeue(scope: ShopScope, id: Types.ObjectId): Promise<PayoutBatch | null> {
    return this.update(scope, id, (b) => b.status === 'failed', { status: 'queued' });
  }

  async acquire(
    scope: ShopScope,
    id: Types.ObjectId,
    leaseId: string,
    now: Date,
    until: Date,
  ): Promise<PayoutBatch | null> {
    const doc = this.live(scope).find(
      (b) => b._id.equals(id) && !isSettled(b.status) && (b.leaseUntil === null || b.leaseUntil < now),
    );
    if (!doc) return null;
    Object.assign(doc, { status: 'running', leaseId, leaseUntil: until, startedAt: now, runs: doc.runs + 1 });
    return { ...doc };
  }

  async renew(scope: ShopScope, id: Types.ObjectId, leaseId: string, until: Date): Promise<boolean> {
    return (await this.update(scope, id, (b) => b.leaseId === leaseId, { leaseUntil: until })) !== null;
  }

  async complete(
    scope: ShopScope,
    id: Types.ObjectId,
    leaseId: string,
    totals: BatchTotals,
    at: Date,
    status: 'completed' | 'carried_forward' = 'completed',
  ): Promise<PayoutBatch | null> {
    this.beforeComplete();
    return this.update(scope, id, (b) => b.leaseId === leaseId, {
      ...totals,
      status,
      transferDue: status === 'completed' && totals.total > 0,
      documentsDue: status === 'completed',
      completedAt: at,
      eventPendingAt: at,
      lastError: null,
      leaseId: null,
      leaseUntil: null,
    });
  }

  async eventsRecorded(scope: ShopScope, id: Types.ObjectId, at: Date): Promise<void> {
    const b = this.live(scope).find((d) => d._id.equals(id));
    if (b?.eventPendingAt?.getTime() === at.getTime()) delete b.eventPendingAt;
  }

  /** SystemPayoutBatchesRepository.eventPending over every shop. */
  async eventPending(before: Date, limit: number): Promise<PayoutBatch[]> {
    return this.docs
      .filter((b) => b.eventPendingAt && b.eventPendingAt < before)
      .sort((a, b) => a.eventPendingAt!.getTime() - b.eventPendingAt!.getTime())
      .slice(0, limit)
      .map((b) => ({ ...b }));
  }

  async documentsIssued(scope: ShopScope, id: Types.ObjectId): Promise<void> {
    await this.update(scope, id, (b) => !!b.documentsDue, { documentsDue: false });
  }

  async transferCreated(scope: ShopScope, id: Types.ObjectId): Promise<void> {
    await this.update(scope, id, (b) => b.transferDue, { transferDue: false });
  }

  async release(
    scope: ShopScope,
    id: Types.ObjectId,
    leaseId: string,
    error: string,
    final: boolean,
  ): Promise<void> {
    await this.update(scope, id, (b) => b.leaseId === leaseId, {
      status: final ? 'failed' : 'queued',
      lastError: error,
      leaseId: null,
      leaseUntil: null,
    });
  }

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
    await this.update(scope, id, (b) => b.leaseId === leaseId && b.decision === null, decision);
    return this.findById(scope, id);
  }

  async undecide(scope: ShopScope, id: Types.ObjectId, leaseId: string): Promise<boolean> {
    const set = { decision: null, net: null, decidedAdjustments: null };
    return (await this.update(scope, id, (b) => b.leaseId === leaseId && b.decision === 'pay', set)) !== null;
  }

  private async update(
    scope: ShopScope,
    id: Types.ObjectId,
    when: (b: PayoutBatch) => boolean,
    set: Partial<PayoutBatch>,
  ): Promise<PayoutBatch | null> {
    const doc = this.live(scope).find((b) => b._id.equals(id) && when(b));
    if (!doc) return null;
    Object.assign(doc, set);
    return { ...doc };
  }

  private live(scope: ShopScope): PayoutBatch[] {
    return inScope(scope, this.docs);
  }
}

type AdjustmentMethods =
  'listPayable' | 'vendorsWithPayable' | 'markPaid' | 'releaseBatch' | 'paidByBatch' | 'settledByBatch';

/** payout_adjustments in memory: what the payout engine reads and marks. */
export class FakePayoutAdjustmentsRepository implements Pick<PayoutAdjustmentsRepository, AdjustmentMethods> {
  readonly docs: PayoutAdjustment[] = [];

  add(vendorId: Types.ObjectId, amount: number, customItemDate: Date, scope = SHOP): PayoutAdjustment {
    const doc = {
      _id: new Types.ObjectId(),
      shopId: new Types.ObjectId(scope.shopId),
      vendorId,
      vendorName: 'vendor',
      amount,
      type: amount < 0 ? 'DEDUCTION' : 'ADDITION',
      status: 'UNPAID',
      batchId: UNPAID_BATCH_ID,
      paidAt: null,
      customId: `ADJ-${this.docs.length + 1}`,
      comments: '',
      customItemDate,
    } as unknown as PayoutAdjustment;
    this.docs.push(doc);
    return doc;
  }

  async listPayable(scope: ShopScope, vendorId: Types.ObjectId, cutoff: Date): Promise<PayableAdjustment[]> {
    return this.payable(scope, cutoff)
      .filter((a) => a.vendorId.equals(vendorId))
      .map((a) => ({ _id: a._id, vendorId: a.vendorId, amount: a.amount }));
  }

  async vendorsWithPayable(scope: ShopScope, cutoff: Date): Promise<Types.ObjectId[]> {
    const ids = new Map(this.payable(scope, cutoff).map((a) => [String(a.vendorId), a.vendorId]));
    return [...ids.values()];
  }

  /** Called before each markPaid: lets a test edit an adjustment mid-batch. */
  beforeMarkPaid: () => void = () => undefined;

  async markPaid(
    scope: ShopScope,
    decided: Array<{ _id: Types.ObjectId; amount: number }>,
    batchId: string,
    at: Date,
    cutoff: Date,
  ): Promise<void> {
    this.beforeMarkPaid();
    for (const a of inScope(scope, this.docs)) {
      const as = decided.find((d) => d._id.equals(a._id));
      if (as && a.status === 'UNPAID' && a.amount === as.amount && a.customItemDate <= cutoff) {
        Object.assign(a, { status: 'PAID', batchId, paidAt: at });
      }
    }
  }

  async releaseBatch(scope: ShopScope, batchId: string, vendorId: Types.ObjectId): Promise<void> {
    for (const a of inScope(scope, this.docs)) {
      if (a.batchId === batchId && a.status === 'PAID' && a.vendorId.equals(vendorId)) {
        Object.assign(a, { status: 'UNPAID', batchId: UNPAID_BATCH_ID, paidAt: null });
      }
    }
  }

  async paidByBatch(scope: ShopScope, batchId: string): Promise<PayableAdjustment[]> {
    return inScope(scope, this.docs)
      .filter((a) => a.batchId === batchId && a.status === 'PAID')
      .map((a) => ({ _id: a._id, vendorId: a.vendorId, amount: a.amount }));
  }

  async settledByBatch(
    scope: ShopScope,
    batchId: string,
    vendorId: Types.ObjectId,
  ): Promise<PayoutAdjustment[]> {
    return inScope(scope, this.docs)
      .filter((a) => a.batchId === batchId && a.status === 'PAID' && a.vendorId.equals(vendorId))
      .map((a) => ({ ...a }));
  }

  private payable(scope: ShopScope, cutoff: Date): PayoutAdjustment[] {
    return inScope(scope, this.docs).filter((a) => a.status === 'UNPAID' && a.customItemDate <= cutoff);
  }
}

type BalanceMethods = 'find' | 'lock' | 'renew' | 'unlock' | 'applyBatch';

/** vendor_balances in memory: the vendor lock and the exactly-once batch step. */
export class FakeVendorBalancesRepository implements Pick<VendorBalancesRepository, BalanceMethods> {
  readonly docs: VendorBalance[] = [];

  async find(scope: ShopScope, vendorId: Types.ObjectId): Promise<VendorBalance | null> {
    const doc = this.doc(scope, vendorId, false);
    return doc ? { ...doc } : null;
  }

  async lock(
    scope: ShopScope,
    vendorId: Types.ObjectId,
    batchId: Types.ObjectId,
    now: Date,
    until: Date,
  ): Promise<VendorBalance | null> {
    const doc = this.doc(scope, vendorId, true)!;
    const free =
      !doc.lockBatchId || (doc.lockUntil !== null && doc.lockUntil < now) || doc.lockBatchId.equals(batchId);
    if (!free) return null;
    Object.assign(doc, { lockBatchId: batchId, lockUntil: until });
    return { ...doc };
  }

  async renew(
    scope: ShopScope,
    vendorId: Types.ObjectId,
    batchId: Types.ObjectId,
    until: Date,
  ): Promise<boolean> {
    const doc = this.doc(scope, vendorId, false);
    if (!doc?.lockBatchId?.equals(batchId)) return false;
    doc.lockUntil = until;
    return true;
  }

  async unlock(scope: ShopScope, vendorId: Types.ObjectId, batchId: Types.ObjectId): Promise<void> {
    const doc = this.doc(scope, vendorId, false);
    if (doc?.lockBatchId?.equals(batchId)) Object.assign(doc, { lockBatchId: null, lockUntil: null });
  }

  async applyBatch(
    scope: ShopScope,
    vendorId: Types.ObjectId,
    batch: LastBatch & { carriedForward: number },
  ): Promise<boolean> {
    const doc = this.doc(scope, vendorId, false);
    if (!doc?.lockBatchId?.equals(batch.batchId) || doc.lastBatchId?.equals(batch.batchId)) return false;
    const { carriedForward, ...last } = batch;
    Object.assign(doc, {
      paidToDateCents: doc.paidToDateCents + toCents(batch.total),
      batchesApplied: doc.batchesApplied + 1,
      carriedForward,
      lastBatchId: batch.batchId,
      lastBatch: last,
    });
    return true;
  }

  private doc(scope: ShopScope, vendorId: Types.ObjectId, create: boolean): VendorBalance | null {
    let doc = inScope(scope, this.docs).find((d) => d.vendorId.equals(vendorId)) ?? null;
    if (!doc && create) {
      doc = {
        _id: new Types.ObjectId(),
        shopId: new Types.ObjectId(scope.shopId),
        vendorId,
        paidToDateCents: 0,
        carriedForward: 0,
        batchesApplied: 0,
        lastBatchId: null,
        lastBatch: null,
        lockBatchId: null,
        lockUntil: null,
        negative: false,
        negativeCrossings: 0,
        dueCents: 0,
        pendingCents: 0,
        tallyLease: null,
        tallyLeaseUntil: null,
        tallyAsks: 0,
        createdAt: new Date(),
        updatedAt: new Date(),
      };
      this.docs.push(doc);
    }
    return doc;
  }
}
