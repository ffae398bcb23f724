import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { AuditTrail } from '../audit/audit-trail.service';
import { Clock } from '../common/clock/clock';
import { crashPoint } from '../common/faults/crash-point';
import type { ShopScope } from '../common/tenancy';
import { railsConfig, type RailsConfig } from '../config/configuration';
import { PayoutProvidersService } from './payout-providers.service';
import { FollowOutcome, RailOutage, RailRefusal } from './rails/payout-rail';
import { PayoutRails } from './rails/payout-rails';
import { railTransfer } from './transfer.mapper';
import { Transfer } from './transfer.schema';
import { claimTransfer } from './transfer-claim';
import { TransferQueue } from './transfer-queue';
import { OPEN_STATES, TransferState } from './transfer-states';
import { held, mayHaveReachedProvider, UNCLAIMED_FAIL_AFTER_MS } from './transfer-lease';
import { TransfersRepository } from './transfers.repository';
import { TransfersService } from './transfers.service';

/**
 * The queue side of transfers (and the operator's follow-up): calls the rail of a `pending`
 * transfer (send) and follows a `sent` one to its outcome. Each call first claims the transfer (a
 * lease, and the attempt counted), so two workers never call a provider for the same transfer at
 * once; the provider's idempotency key (the transfer id) covers the crash between its answer and
 * our write, and a repeated attempt asks the provider first. Outages keep the transfer
 * pending and throw (the job retries with backoff, then the sweeper) — as does any answer that
 * leaves the outcome unknown (an idempotency conflict); refusals count, and the
 * TRANSFER_MAX_ATTEMPTS-th fails the transfer, which credits it back.
 */
@Injectable()
export class TransferRunner {
  private readonly logger = new Logger('TransferRunner');

  constructor(
    private readonly transfers: TransfersRepository,
    private readonly service: TransfersService,
    private readonly providers: PayoutProvidersService,
    private readonly rails: PayoutRails,
    private readonly queue: TransferQueue,
    private readonly clock: Clock,
    @Inject(railsConfig.KEY) private readonly cfg: RailsConfig,
    /** Audits the moves an operator's follow-up makes (outside a credentialed request: none). */
    @Optional() private readonly audit?: AuditTrail,
  ) {}

  /**
   * `audited`: an operator's follow-up (its moves are audit events too). A repeated attempt may
   * follow one that reached the provider (a crash, a timeout): the rail is asked first (Stripe: the
   * batch's transfer_group), so a provider that has forgotten the idempotency key (Stripe keeps it
   * 24 h) never makes a second transfer. `askedFirst`: the caller has just asked.
   */
  async send(
    scope: ShopScope,
    transferId: string,
    by = 'rail',
    audited = false,
    askedFirst = false,
  ): Promise<string> {
    const t = await this.claim(scope, transferId, ['pending']);
    if (!t) return 'skipped: not pending';
    const rail = this.rails.of(t.method);
    let outcome;
    // An earlier attempt may have reached the provider (its outcome unknown: a crash, an outage):
    // a refusal then — of the lookup, or of a key gone since — says nothing of that transfer, so it
    // never counts (it may be paid); only a refused create the lookup found nothing before counts.
    const unknownBefore = mayHaveReachedProvider(t);
    let asked = askedFirst;
    try {
      const creds = await this.providers.credentials(scope);
      if (t.attempts > 1 && !askedFirst) {
        const prior = await rail.follow(railTransfer(t), creds);
        asked = true;
        if (prior.kind === 'paid') return await this.applyOutcome(scope, t, prior, by, audited);
      }
      outcome = await rail.send(railTransfer(t), creds);
    } catch (err) {
      return this.failedCall(scope, t, err, !unknownBefore || asked);
    }
    const now = this.clock.now();
    if (outcome.kind === 'awaiting_reference') {
      await this.step(scope, t, 'awaiting_reference', by, {}, audited);
      return 'awaiting_reference';
    }
    // A rail that settles at once (Stripe) is paid in the one write of its answer: a crash can
    // leave the transfer pending (the same key answers the first transfer again), never half-way.
    const settled = outcome.kind === 'paid';
    const moved = await this.step(
      scope,
      t,
      settled ? 'paid' : 'sent',
      by,
      {
        providerId: outcome.providerId,
        providerStatus: outcome.kind === 'sent' ? outcome.providerStatus : null,
        sentAt: now,
        lastError: null,
        ...(outcome.kind === 'paid' ? { settledAt: now, reference: outcome.reference } : {}),
      },
      audited,
    );
    if (!moved) return 'skipped: moved meanwhile';
    crashPoint('transfer:provider-answer-written');
    if (settled) return 'paid';
    await this.queue.follow(scope, String(t._id));
    return 'sent';
  }

  /**
   * An operator's follow-up of a `pending` or `sent` transfer: asks the provider and applies what it
   * says (a transfer it made is paid, reversed by what it took back since; a failed one fails). A
   * pending transfer the provider has no trace of is sent now, with its same idempotency key. A
   * lookup the provider refuses or cannot answer changes nothing and counts towards nothing.
   */
  async followUp(scope: ShopScope, transferId: string, by: string): Promise<string> {
    const t = await this.claim(scope, transferId, OPEN_STATES);
    if (!t) return 'skipped: not pending or sent';
    let outcome: FollowOutcome;
    try {
      outcome = await this.rails
        .of(t.method)
        .follow(railTransfer(t), await this.providers.credentials(scope));
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      await this.transfers.release(scope, t._id, { lastError: message }, {}, held(t));
      throw err;
    }
    const found = outcome.kind === 'paid' || outcome.kind === 'failed';
    if (t.state === 'pending' && !found) {
      // nothing made at the provider (or a rail that cannot ask): the send, with the same key
      await this.transfers.release(scope, t._id, {}, {}, held(t));
      return this.send(scope, transferId, by, true, true);
    }
    const result = await this.applyOutcome(scope, t, outcome, by, true);
    if (result.startsWith('ignored')) await this.transfers.release(scope, t._id, {}, {}, held(t));
    return result;
  }

  async follow(scope: ShopScope, transferId: string): Promise<string> {
    const t = await this.claim(scope, transferId, ['sent']);
    if (!t) return 'skipped: not sent';
    let outcome: FollowOutcome;
    try {
      outcome = await this.rails
        .of(t.method)
        .follow(railTransfer(t), await this.providers.credentials(scope));
    } catch (err) {
      if (err instanceof RailRefusal) {
        // The payout exists (it was accepted); a refused lookup is retried like an outage.
        await this.transfers.release(scope, t._id, { lastError: err.message }, {}, held(t));
        await this.queue.follow(scope, String(t._id));
        return 'lookup refused; followed again later';
      }
      return this.failedCall(scope, t, err);
    }
    return this.applyOutcome(scope, t, outcome, 'rail');
  }

  /** A provider's word on a transfer (a follow-up lookup or a verified webhook). */
  async applyOutcome(
    scope: ShopScope,
    t: Transfer,
    outcome: FollowOutcome,
    by: string,
    audited = false,
  ): Promise<string> {
    const now = this.clock.now();
    if (outcome.kind === 'paid') {
      // pending → paid only on a lookup that found the provider's transfer (its id in hand)
      const providerId = outcome.providerId ?? t.providerId;
      if (t.state !== 'sent' && !(t.state === 'pending' && providerId))
        return `ignored: transfer is ${t.state}`;
      const set: Partial<Transfer> = {
        providerId,
        settledAt: now,
        providerStatus: outcome.providerStatus,
        reference: outcome.reference ?? providerId,
        lastError: null,
        ...(t.state === 'pending' ? { sentAt: now } : {}),
      };
      // What the provider took back while we did not know it was paid (its webhook found no paid
      // transfer then): paid and reversed by that much in the one write, with its credit.
      if (outcome.reversed && outcome.reversed > 0) {
        const audit = this.auditOf(scope, t, 'reversed', audited);
        const both = await this.service.paidAndReversed(scope, t, set, outcome.reversed, by, audit);
        return both ? 'reversed' : 'skipped: moved meanwhile';
      }
      const paid = await this.step(scope, t, 'paid', by, set, audited);
      return paid ? 'paid' : 'skipped: moved meanwhile';
    }
    if (outcome.kind === 'failed') {
      let cur: Transfer | null = t;
      for (let round = 0; cur && round < 3; round++) {
        // Money that reached the vendor and came back (RETURNED after SUCCESS) is a reversal.
        if (cur.state === 'paid') {
          await this.service.reverse(scope, cur, cur.amount, by, outcome.reason);
          return 'reversed';
        }
        if (cur.state !== 'sent' && cur.state !== 'pending') return `ignored: transfer is ${cur.state}`;
        if (await this.service.fail(scope, cur, outcome.reason, by)) return 'failed';
        cur = await this.transfers.findById(scope, t._id); // its conditional write lost: read again
      }
      return 'skipped: moved meanwhile';
    }
    if (t.state !== 'sent') return `ignored: transfer is ${t.state}`;
    if (outcome.kind === 'absent') {
      // Accepted by the provider, yet unknown to it now (another account's key?): followed on.
      await this.transfers.release(
        scope,
        t._id,
        { lastError: 'The provider has no transfer with this id (was the provider key changed?)' },
        {},
        held(t),
      );
      if (by === 'rail') await this.queue.follow(scope, String(t._id));
      return 'pending (absent at the provider)';
    }
    const unclaimed = outcome.providerStatus === 'UNCLAIMED';
    const since = unclaimed ? (t.unclaimedSince ?? now) : null;
    if (since && now.getTime() - new Date(since).getTime() >= UNCLAIMED_FAIL_AFTER_MS) {
      await this.service.fail(scope, t, 'PayPal payout item UNCLAIMED for 30 days', by);
      return 'failed';
    }
    await this.transfers.release(
      scope,
      t._id,
      { providerStatus: outcome.providerStatus, unclaimedSince: since },
      {},
      held(t),
    );
    if (by === 'rail') await this.queue.follow(scope, String(t._id));
    return `pending (${outcome.providerStatus ?? 'no status yet'})`;
  }

  private claim(scope: ShopScope, transferId: string, states: readonly TransferState[]) {
    return claimTransfer(this.transfers, this.clock, this.cfg.leaseMs, scope, transferId, states);
  }

  /**
   * An outage keeps the transfer and throws (retry); a refusal counts towards failing it — unless
   * `counts` is false (an earlier attempt's outcome is unknown and no lookup answered since): then
   * it is kept pending with the refusal as its lastError, like an outage.
   */
  private async failedCall(scope: ShopScope, t: Transfer, err: unknown, counts = true): Promise<string> {
    if (err instanceof RailRefusal && counts) {
      const refusals = (t.refusals ?? 0) + 1;
      if (refusals >= this.cfg.maxAttempts) {
        await this.service.fail(scope, t, err.message, 'rail');
        return 'failed';
      }
      await this.transfers.release(scope, t._id, { lastError: err.message }, { refusals: 1 }, held(t));
      throw err;
    }
    const message = err instanceof RailOutage ? err.message : `Rail call failed: ${(err as Error)?.message}`;
    await this.transfers.release(scope, t._id, { lastError: message }, {}, held(t));
    this.logger.warn(
      { transferId: String(t._id), err: message },
      'Payout provider unavailable; retried later',
    );
    throw err;
  }

  /** An operator's follow-up is audited in the move's own write (the history has it either way). */
  private auditOf(scope: ShopScope, t: Transfer, to: TransferState, audited: boolean) {
    const stamp = audited ? (this.audit?.begin() ?? null) : null;
    const event = this.audit?.changed(
      scope,
      stamp,
      'transfer.follow_up',
      { type: 'transfer', id: t._id },
      { state: t.state },
      { state: to },
    );
    return { stamp, event: event ?? null };
  }

  private async step(
    scope: ShopScope,
    t: Transfer,
    to: TransferState,
    by: string,
    set: Partial<Transfer>,
    audited = false,
  ): Promise<Transfer | null> {
    const clean = Object.fromEntries(
      Object.entries(set).filter(([, v]) => v !== undefined),
    ) as Partial<Transfer>;
    const { stamp, event } = this.auditOf(scope, t, to, audited);
    const moved = await this.transfers.move(scope, t._id, to, this.service.change(t.state, to, by), clean, {
      stamp,
      event: event ?? null,
    });
    if (moved && stamp) await this.audit!.commit(scope, this.transfers.outbox, stamp, [event], [moved._id]);
    if (moved) await this.service.moved(scope, moved);
    return moved;
  }
}
