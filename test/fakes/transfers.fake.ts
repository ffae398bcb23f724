import { Types } from 'mongoose';
import type { PayoutAdjustmentsService } from '../../src/adjustments/payout-adjustments.service';
import type { ShopScope } from '../../src/common/tenancy';
import type { PayoutMethodsService, VendorPayoutTarget } from '../../src/transfers/payout-methods.service';
import type { PayoutProvidersService } from '../../src/transfers/payout-providers.service';
import type { RailCredentials } from '../../src/transfers/rails/payout-rail';
import type { TransferQueue } from '../../src/transfers/transfer-queue';
import type { Transfer, TransferStateChange } from '../../src/transfers/transfer.schema';
import type { CreditWrite } from '../../src/transfers/transfer-credits';
import { sourcesOf, TRANSFER_EVENT_OF, TransferState } from '../../src/transfers/transfer-states';
import type { SystemTransferEventsRepository } from '../../src/transfers/system-transfers.repository';
import { NO_LEASE, type TransferGuard } from '../../src/transfers/transfer-lease';
import { NewTransfer, TransfersRepository } from '../../src/transfers/transfers.repository';
import { inScope } from './fake';

type TransferMethods =
  | 'insertOnce'
  | 'findById'
  | 'findByBatch'
  | 'findByProviderId'
  | 'claim'
  | 'release'
  | 'move'
  | 'recordCredit'
  | 'holdForRetry'
  | 'markCredited'
  | 'eventsRecorded';

const copy = (t: Transfer): Transfer => ({
  ...t,
  history: [...t.history],
  credits: (t.credits ?? []).map((c) => ({ ...c })),
});

/** The transfers collection in memory, with the repository's conditional writes (unique batch, lease, state). */
export class FakeTransfersRepository
  implements Pick<TransfersRepository, TransferMethods>, Pick<SystemTransferEventsRepository, 'eventPending'>
{
  readonly docs: Transfer[] = [];
  readonly outbox = {
    stamped: async (): Promise<Types.ObjectId[]> => [],
    settle: async (): Promise<void> => undefined,
  };
  /** Throws from the next `move` (a process killed between the provider's answer and our write). */
  crashNextMove = false;

  async insertOnce(scope: ShopScope, data: NewTransfer, change: TransferStateChange) {
    const existing = await this.findByBatch(scope, data.batchId);
    if (existing) return { transfer: existing, created: false };
    const now = change.at;
    const t: Transfer = {
      _id: new Types.ObjectId(),
      shopId: new Types.ObjectId(scope.shopId),
      ...data,
      state: 'pending',
      providerId: null,
      providerStatus: null,
      attempts: 0,
      refusals: 0,
      lastError: null,
      reference: null,
      sentAt: null,
      settledAt: null,
      failedAt: null,
      reversedAt: null,
      reversedAmount: null,
      unclaimedSince: null,
      leaseUntil: NO_LEASE,
      creditAdjustmentId: null,
      credits: [],
      creditSeq: 0,
      history: [change],
      createdAt: now,
      updatedAt: now,
    };
    this.docs.push(t);
    return { transfer: copy(t), created: true };
  }

  async findById(scope: ShopScope, id: string | Types.ObjectId) {
    const t = this.live(scope).find((d) => String(d._id) === String(id));
    return t ? copy(t) : null;
  }

  async findByBatch(scope: ShopScope, batchId: Types.ObjectId) {
    const t = this.live(scope).find((d) => d.batchId.equals(batchId));
    return t ? copy(t) : null;
  }

  async findByProviderId(scope: ShopScope, providerId: string) {
    const t = this.live(scope).find((d) => d.providerId === providerId);
    return t ? copy(t) : null;
  }

  async claim(
    scope: ShopScope,
    id: Types.ObjectId,
    states: readonly TransferState[],
    now: Date,
    leaseUntil: Date,
  ) {
    const t = this.live(scope).find((d) => d._id.equals(id));
    if (!t || !states.includes(t.state) || (t.leaseUntil ?? NO_LEASE) > now) return null;
    t.leaseUntil = leaseUntil;
    t.attempts += 1;
    return copy(t);
  }

  async release(
    scope: ShopScope,
    id: Types.ObjectId,
    set: Partial<Transfer>,
    inc: { refusals?: number } = {},
    guard: TransferGuard = {},
  ) {
    const t = this.live(scope).find((d) => d._id.equals(id));
    if (!t || !guarded(t, guard)) return null;
    Object.assign(t, set, { leaseUntil: NO_LEASE });
    t.refusals += inc.refusals ?? 0;
    return copy(t);
  }

  async move(
    scope: ShopScope,
    id: Types.ObjectId,
    to: TransferState,
    change: TransferStateChange,
    set: Partial<Transfer> = {},
    _audit?: unknown,
    _inc?: unknown,
    guard: TransferGuard = {},
  ) {
    if (this.crashNextMove) {
      this.crashNextMove = false;
      throw new Error('killed before the answer was recorded');
    }
    const t = this.live(scope).find((d) => d._id.equals(id));
    if (!t || !sourcesOf(to).includes(t.state) || !guarded(t, guard)) return null;
    Object.assign(t, set, { state: to, leaseUntil: NO_LEASE, updatedAt: new Date(change.at) });
    t.history.push(change);
    // $min: the oldest move whose event is still pending
    if (TRANSFER_EVENT_OF[to] && !(t.eventPendingAt && t.eventPendingAt <= change.at))
      t.eventPendingAt = change.at;
    return copy(t);
  }

  async eventsRecorded(scope: ShopScope, t: Pick<Transfer, '_id' | 'updatedAt'>, at: Date) {
    const doc = this.live(scope).find((d) => d._id.equals(t._id));
    const holds =
      doc?.eventPendingAt?.getTime() === at.getTime() &&
      new Date(doc.updatedAt).getTime() === new Date(t.updatedAt).getTime();
    if (!doc || !holds) return 0;
    delete doc.eventPendingAt;
    return 1;
  }

  /** SystemTransferEventsRepository.eventPending over every shop. */
  async eventPending(before: Date, limit: number): Promise<Transfer[]> {
    return this.docs
      .filter((d) => d.eventPendingAt && d.eventPendingAt < before)
      .sort((a, b) => a.eventPendingAt!.getTime() - b.eventPendingAt!.getTime())
      .slice(0, limit)
      .map(copy);
  }

  async recordCredit(
    scope: ShopScope,
    ref: Pick<Transfer, '_id' | 'state'>,
    to: 'failed' | 'reversed',
    change: TransferStateChange,
    write: CreditWrite,
    paidFirst: TransferStateChange | null = null,
  ) {
    if (this.crashNextMove) {
      this.crashNextMove = false;
      throw new Error('killed before the answer was recorded');
    }
    const t = this.live(scope).find((d) => d._id.equals(ref._id));
    if (!t) return null;
    const raise = to === 'reversed' && ref.state === 'reversed';
    const stateOk = paidFirst
      ? t.state === ref.state
      : raise
        ? t.state === 'reversed'
        : sourcesOf(to).includes(t.state);
    if (!stateOk || (t.creditSeq ?? 0) !== (write.was.creditSeq ?? 0)) return null;
    if (to === 'reversed' && (t.reversedAmount ?? null) !== write.was.reversedAmount) return null;
    Object.assign(t, write.set, {
      state: to,
      leaseUntil: NO_LEASE,
      creditAdjustmentId: null,
      creditSeq: write.creditSeq,
      updatedAt: new Date(change.at),
    });
    if (paidFirst) t.history.push(paidFirst);
    t.history.push(change);
    t.credits = [...(t.credits ?? []), ...write.credits.map((c) => ({ ...c }))];
    const at = paidFirst?.at ?? change.at;
    if (!(t.eventPendingAt && t.eventPendingAt <= at)) t.eventPendingAt = at;
    return copy(t);
  }

  async holdForRetry(scope: ShopScope, id: Types.ObjectId, now: Date, until: Date) {
    const t = this.live(scope).find((d) => d._id.equals(id));
    if (!t || t.state !== 'failed' || (t.leaseUntil ?? NO_LEASE) > now) return null;
    Object.assign(t, { leaseUntil: until, creditAdjustmentId: null });
    return copy(t);
  }

  async markCredited(
    scope: ShopScope,
    ref: Pick<Transfer, '_id' | 'state' | 'creditSeq'>,
    adjustmentId: Types.ObjectId,
    now: Date,
  ) {
    const t = this.live(scope).find((d) => d._id.equals(ref._id));
    if (!t || t.state !== ref.state || (t.creditSeq ?? 0) !== (ref.creditSeq ?? 0)) return null;
    if ((t.leaseUntil ?? NO_LEASE) > now) return null;
    t.creditAdjustmentId = adjustmentId;
    return copy(t);
  }

  private live(scope: ShopScope): Transfer[] {
    return inScope(scope, this.docs);
  }
}

/** System ADDITION adjustments in memory, exactly once per id, like the adjustments service. */
export class FakeCredits implements Pick<
  PayoutAdjustmentsService,
  'createSystemAddition' | 'releaseSystemAddition' | 'withdrawSystemAddition'
> {
  readonly credits = new Map<
    string,
    { amount: number; status: 'UNPAID' | 'PAID'; vendorId: string; held: boolean }
  >();
  created = 0;
  /** Runs before a credit is written / right after (a race test's pause points). */
  beforeCreate: (() => Promise<void>) | null = null;
  afterCreate: (() => Promise<void>) | null = null;
  /** Throws from the next create (the process killed before the adjustment was written). */
  failNextCreate = false;

  async createSystemAddition(
    _scope: ShopScope,
    input: { id: Types.ObjectId; vendorId: Types.ObjectId; amount: number; comments: string; held?: boolean },
  ) {
    if (this.beforeCreate) await this.beforeCreate();
    if (this.failNextCreate) {
      this.failNextCreate = false;
      throw new Error('killed before the credit was written');
    }
    const key = String(input.id);
    if (!this.credits.has(key)) {
      this.credits.set(key, {
        amount: input.amount,
        status: 'UNPAID',
        vendorId: String(input.vendorId),
        held: input.held ?? false,
      });
      this.created++;
    }
    if (this.afterCreate) await this.afterCreate();
    const c = this.credits.get(key);
    return { _id: key, amount: c?.amount ?? input.amount, status: c?.status ?? 'UNPAID' } as Awaited<
      ReturnType<PayoutAdjustmentsService['createSystemAddition']>
    >;
  }

  async releaseSystemAddition(_scope: ShopScope, id: Types.ObjectId, _at: Date) {
    const c = this.credits.get(String(id));
    if (!c || c.status !== 'UNPAID' || !c.held) return false;
    c.held = false;
    return true;
  }

  async withdrawSystemAddition(_scope: ShopScope, id: Types.ObjectId) {
    const c = this.credits.get(String(id));
    if (!c) return 'absent' as const;
    if (c.status === 'PAID') return 'paid' as const;
    this.credits.delete(String(id));
    return 'withdrawn' as const;
  }

  /** A payout batch: every UNPAID credit it can see (a held one is dated past any cut-off) is PAID. */
  payOutstanding(_at: Date): number {
    let paid = 0;
    for (const c of this.credits.values()) {
      if (c.status === 'UNPAID' && !c.held) {
        c.status = 'PAID';
        paid++;
      }
    }
    return paid;
  }
}

/** Every vendor on one target (set per test). */
export class FakeMethods implements Pick<PayoutMethodsService, 'targetOf'> {
  target: VendorPayoutTarget = { type: 'manual', destination: null, recipientType: null };
  readonly byVendor = new Map<string, VendorPayoutTarget>();
  async targetOf(_scope: ShopScope, vendorId: string) {
    return this.byVendor.get(vendorId) ?? this.target;
  }
}

export class FakeProviders implements Pick<PayoutProvidersService, 'credentials' | 'currency'> {
  creds: RailCredentials & { currency: string } = {
    mode: 'sandbox',
    currency: 'USD',
    stripeSecretKey: 'sk_test_fakeKey000001',
    paypalClientId: null,
    paypalClientSecret: null,
  };
  async credentials() {
    return { ...this.creds };
  }
  async currency() {
    return this.creds.currency;
  }
}

/** Records what would be queued; the test drives the runner itself. */
export class FakeTransferQueue implements Pick<TransferQueue, 'send' | 'follow'> {
  readonly sent: string[] = [];
  readonly followed: string[] = [];
  async send(_scope: ShopScope, id: string) {
    this.sent.push(id);
    return true;
  }
  async follow(_scope: ShopScope, id: string) {
    this.followed.push(id);
    return true;
  }
}

/** TransfersRepository's guard on a holder's write (its own lease, not lapsed; its credit counter). */
function guarded(t: Transfer, g: TransferGuard): boolean {
  if (g.lease) {
    const until = (t.leaseUntil ?? NO_LEASE).getTime();
    if (until !== g.lease.until.getTime()) return false;
    if (g.lease.now && until <= g.lease.now.getTime()) return false;
  }
  return g.creditSeq === undefined || (t.creditSeq ?? 0) === (g.creditSeq ?? 0);
}
