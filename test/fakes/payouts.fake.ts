import { Types } from 'mongoose';
import type { PayoutAdjustment } from '../../src/adjustments/payout-adjustment.schema';
import { UNPAID_BATCH_ID } from '../../src/adjustments/payout-adjustment.schema';
import type {
  PayableAdjustment,
  PayoutAdjustmentsRepository,
} from '../../src/adjustments/payout-adjustments.repository';
import type { ShopScope } from '../../src/common/tenancy';
import type { PayoutBatch } from '../../src/payouts/payout-batch.schema';
import type { BatchTotals, PayoutBatchesRepository } from '../../src/payouts/payout-batches.repository';
import { inScope, matchesAll, SHOP } from './fake';

type BatchMethods =
  'findOrCreate' | 'findById' | 'forPeriod' | 'requeue' | 'acquire' | 'renew' | 'complete' | 'release';

/** payout_batches in memory, with the repository's conditional writes (unique key, run lease). */
export class FakePayoutBatchesRepository implements Pick<PayoutBatchesRepository, BatchMethods> {
  readonly docs: PayoutBatch[] = [];
  /** Called before a run completes its batch: throw from it to crash a run there. */
  beforeComplete: () => void = () => undefined;

  async findOrCreate(
    scope: ShopScope,
    key: { vendorId: Types.ObjectId; periodEnd: string },
    init: { vendorName: string; cutoff: Date },
  ): Promise<PayoutBatch> {
    const found = this.live(scope).find((b) => matchesAll(b, key));
    if (found) return { ...found };
    const now = new Date();
    const batch: PayoutBatch = {
      _id: new Types.ObjectId(),
      shopId: new Types.ObjectId(scope.shopId),
      ...key,
      ...init,
      status: 'queued',
      lineItemCount: 0,
      lineItemTotal: 0,
      adjustmentCount: 0,
      adjustmentTotal: 0,
      total: 0,
      runs: 0,
      lastError: null,
      startedAt: null,
      completedAt: null,
      leaseId: null,
      leaseUntil: null,
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
      (b) => b._id.equals(id) && b.status !== 'completed' && (b.leaseUntil === null || b.leaseUntil < now),
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
  ): Promise<PayoutBatch | null> {
    this.beforeComplete();
    return this.update(scope, id, (b) => b.leaseId === leaseId, {
      ...totals,
      status: 'completed',
      completedAt: at,
      lastError: null,
      leaseId: null,
      leaseUntil: null,
    });
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

type AdjustmentMethods = 'listPayable' | 'vendorsWithPayable' | 'markPaid' | 'paidByBatch';

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

  async markPaid(scope: ShopScope, ids: Types.ObjectId[], batchId: string, at: Date): Promise<void> {
    for (const a of inScope(scope, this.docs)) {
      if (a.status === 'UNPAID' && ids.some((id) => id.equals(a._id))) {
        Object.assign(a, { status: 'PAID', batchId, paidAt: at });
      }
    }
  }

  async paidByBatch(scope: ShopScope, batchId: string): Promise<PayableAdjustment[]> {
    return inScope(scope, this.docs)
      .filter((a) => a.batchId === batchId && a.status === 'PAID')
      .map((a) => ({ _id: a._id, vendorId: a.vendorId, amount: a.amount }));
  }

  private payable(scope: ShopScope, cutoff: Date): PayoutAdjustment[] {
    return inScope(scope, this.docs).filter((a) => a.status === 'UNPAID' && a.customItemDate <= cutoff);
  }
}
