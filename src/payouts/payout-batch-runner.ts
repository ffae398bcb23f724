import { InjectQueue } from '@nestjs/bull';
import { Injectable, Logger, Optional } from '@nestjs/common';
import type { Queue } from 'bull';
import { randomUUID } from 'node:crypto';
import { PayoutAdjustmentsRepository } from '../adjustments/payout-adjustments.repository';
import { Clock } from '../common/clock/clock';
import { ConflictError, DomainError, NotFoundError } from '../common/errors';
import { ShopScope } from '../common/tenancy';
import { PayoutRowsRepository } from '../line-items/payout-rows.repository';
import { OrderSummaryRefresher } from '../line-items/order-summary.refresher';
import { isSettled, PayoutBatch } from './payout-batch.schema';
import { VendorBalancesRepository } from '../balances/vendor-balances.repository';
import { RefundMetrics } from '../refunds/refund-metrics';
import { AuditTrail } from '../audit/audit-trail.service';
import { BatchTotals, PayoutBatchesRepository } from './payout-batches.repository';
import { PayoutEngineOptions } from './payout-engine.options';
import { TransfersService } from '../transfers/transfers.service';
import { PayoutEvents } from './payout-events';
import { VendorTally } from '../line-items/vendor-tally.service';
import { paidTotals } from './batch-marking';
import { BatchDecisions } from './batch-decisions';
import { RunHeartbeat, startHeartbeat } from './run-heartbeat';
import { Queues } from '../queues/jobs';
import { announceDocuments } from './batch-documents-due';

/**
 * Pay decisions one run makes at most when adjustments keep changing under it (each one let go of
 * before the next); then the run fails and its job's retry (or the sweeper) runs it again later.
 */
const MAX_DECISIONS = 3;

/** Another batch of the same vendor is running: this one runs once it is done (netting is per vendor). */
class VendorBusyError extends Error {
  constructor() {
    super('Another payout batch of this vendor is running; this one runs after it');
  }
}

/** Another run of the batch holds its lease: run again once that lease ends (never dropped). */
export class BatchBusyError extends Error {
  constructor(readonly leaseUntil: Date | null) {
    super('Another run of this payout batch is in progress');
  }
}

/**
 * One run of one payout batch (the payout engine's steps 2-4, DESIGN §8): take the batch's lease
 * and its vendor's lock, claim the vendor's due rows (sale and refund) in chunks, net them with the
 * UNPAID adjustments and store the decision; a positive net pays every held row and adjustment, a
 * net of zero or below releases them (`carried_forward`: every row stays due). Then the vendor's
 * balance takes the batch (exactly once), totals are summed from what carries the batch id, and the
 * batch settles. Every step is a conditional write, so a resumed run finishes what a dead one began.
 * A completed positive batch is then handed to the transfers service (DESIGN §10); `transferDue`
 * marks it until that answered, so a retried job or the sweeper repeats the idempotent hand-over.
 * The queue's processor and the operator CLI run batches through here (via PayoutEngine.run).
 */
@Injectable()
export class PayoutBatchRunner {
  private readonly logger = new Logger('PayoutEngine');
  private readonly decisions: BatchDecisions;

  constructor(
    private readonly batches: PayoutBatchesRepository,
    private readonly lineItems: PayoutRowsRepository,
    private readonly adjustments: PayoutAdjustmentsRepository,
    private readonly summaries: OrderSummaryRefresher,
    private readonly clock: Clock,
    private readonly options: PayoutEngineOptions,
    private readonly balances: VendorBalancesRepository,
    private readonly transfers: TransfersService,
    private readonly tally: VendorTally,
    @Optional() private readonly metrics?: RefundMetrics,
    @Optional() private readonly audit?: AuditTrail,
    @Optional() private readonly events?: PayoutEvents,
    @Optional() @InjectQueue(Queues.Documents) private readonly documentsQueue?: Queue,
  ) {
    this.decisions = new BatchDecisions(batches, lineItems, adjustments, clock);
  }

  /**
   * Runs (or resumes) one batch. `final`: no automatic retry follows, so a failure leaves the batch
   * `failed` rather than `queued`.
   */
  async run(
    scope: ShopScope,
    batchId: string,
    opts: { final: boolean; onLineItems?: (done: number, total: number) => void },
  ): Promise<PayoutBatch> {
    const batch = await this.batches.findById(scope, batchId);
    if (!batch) throw new NotFoundError('Payout batch');
    if (isSettled(batch.status)) return this.handOver(scope, batch);
    const leaseId = randomUUID();
    const leased = await this.batches.acquire(scope, batch._id, leaseId, this.clock.now(), this.leaseEnd());
    if (!leased) {
      const current = await this.batches.findById(scope, batch._id);
      if (current && isSettled(current.status)) return this.handOver(scope, current);
      throw new BatchBusyError(current?.leaseUntil ?? null);
    }
    const id = String(batch._id);
    const heartbeat = this.heartbeat(scope, batch, leaseId);
    let locked = false;
    let settledBatch: PayoutBatch;
    try {
      // Netting needs the vendor's due rows to itself: one batch of a vendor at a time.
      const lock = await this.balances.lock(
        scope,
        batch.vendorId,
        batch._id,
        this.clock.now(),
        this.leaseEnd(),
      );
      if (!lock) throw new VendorBusyError();
      locked = true;
      let decided = leased;
      for (let decisions = 1; ; decisions++) {
        if (!decided.decision) {
          await this.claim(scope, batch, id, heartbeat, opts.onLineItems);
          decided = await this.decisions.decide(scope, batch, id, leaseId, lock.carriedForward);
        }
        heartbeat.assertHeld();
        if (decided.decision !== 'pay' || (await this.decisions.markAdjustments(scope, batch, id, decided)))
          break;
        // An adjustment changed between the decision and its marking: what was marked is let go of
        // and the net decided again from what is due now (never paid at a net nobody decided).
        await this.adjustments.releaseBatch(scope, id, batch.vendorId);
        if (!(await this.batches.undecide(scope, batch._id, leaseId))) {
          throw new Error('The run lost its lease while deciding again');
        }
        if (decisions >= MAX_DECISIONS) {
          throw new ConflictError(
            `The vendor's adjustments changed while the batch was paying them (${decisions} times); ` +
              'it runs again and pays what is due then',
          );
        }
        decided = { ...decided, decision: null, net: null, decidedAdjustments: null };
      }
      const settled =
        decided.decision === 'pay' ? await this.pay(scope, batch, id) : await this.carry(scope, id);
      const status = settledStatus(decided);
      const closingBalance = status === 'completed' ? 0 : (decided.net ?? 0);
      const totals: BatchTotals = { ...settled.totals, closingBalance };
      // Into the vendor's balance exactly once (a resumed run finds it applied), then settled.
      await this.balances.applyBatch(scope, batch.vendorId, {
        batchId: batch._id,
        status,
        periodEnd: batch.periodEnd,
        total: totals.total,
        net: decided.net ?? 0,
        settledAt: this.clock.now(),
        carriedForward: closingBalance,
      });
      // Orders' vendor payout status (order lists) follows the line items; idempotent, so a rerun redoes it.
      await this.summaries.refresh(scope, settled.orderIds);
      const done = await this.batches.complete(scope, batch._id, leaseId, totals, this.clock.now(), status);
      if (!done) throw new Error('The run lost its lease before completing');
      await this.balances.unlock(scope, batch.vendorId, batch._id);
      this.metrics?.batchSettled(scope.shopId, status, totals.refundTotal);
      if (status !== 'completed') {
        await this.audit?.platformEvents(scope, 'payout_batch.carry_forward', [
          {
            resource: { type: 'payout_batch', id: id },
            after: {
              vendorId: batch.vendorId,
              periodEnd: batch.periodEnd,
              status,
              net: decided.net,
              openingBalance: decided.openingBalance,
              closingBalance,
            },
          },
        ]);
      }
      // Outbound events (DESIGN §11) once the batch is settled; they never fail the run.
      await this.events?.batchSettled(scope, done);
      settledBatch = done;
    } catch (err) {
      if (locked) await this.balances.unlock(scope, batch.vendorId, batch._id).catch(() => undefined);
      if (err instanceof VendorBusyError) {
        await this.batches.release(scope, batch._id, leaseId, err.message, false);
        throw new BatchBusyError(new Date(this.clock.now().getTime() + 1000));
      }
      const errorId = randomUUID();
      this.logger.error(
        `payout batch ${id} run failed (errorId ${errorId}): ${(err as Error)?.stack ?? String(err)}`,
      );
      const reason =
        err instanceof DomainError
          ? err.message
          : `The run stopped part-way (errorId ${errorId}); nothing is paid twice when it runs again`;
      await this.batches.release(scope, batch._id, leaseId, reason, opts.final);
      throw err;
    } finally {
      heartbeat.stop();
    }
    // Outside the run's error handling: the batch is settled whatever the hand-over does; a
    // failed hand-over fails the job (retried) and leaves `transferDue` for the sweeper.
    await announceDocuments(this.documentsQueue, scope, settledBatch, this.logger);
    return this.handOver(scope, settledBatch);
  }

  /**
   * A completed positive batch becomes its one transfer (idempotent). Only `transferDue` batches:
   * one settled before the rails were wired is never sent to a provider by a rerun.
   */
  async handOver(scope: ShopScope, batch: PayoutBatch): Promise<PayoutBatch> {
    if (batch.status !== 'completed' || !(batch.total > 0) || !batch.transferDue) return batch;
    await this.transfers.createForPaidBatch(scope, {
      batchId: batch._id,
      vendorId: batch.vendorId,
      amount: batch.total,
    });
    await this.batches.transferCreated(scope, batch._id);
    return { ...batch, transferDue: false };
  }

  /** Step 1: the vendor's due rows up to the cut-off come under the batch (conditional claims, in chunks). */
  private async claim(
    scope: ShopScope,
    batch: PayoutBatch,
    id: string,
    heartbeat: RunHeartbeat,
    onLineItems?: (done: number, total: number) => void,
  ): Promise<void> {
    const items = await this.lineItems.listPayable(scope, batch.vendorId, batch.cutoff);
    const size = Math.max(1, this.options.chunkSize);
    onLineItems?.(0, items.length);
    for (let i = 0; i < items.length; i += size) {
      heartbeat.assertHeld();
      await this.lineItems.claimForBatch(scope, items.slice(i, i + size), id);
      await this.keepLease(scope, batch, heartbeat.leaseId);
      onLineItems?.(Math.min(i + size, items.length), items.length);
    }
  }

  /** Step 3a (pay): every held row paid (the adjustments are marked already). */
  private async pay(scope: ShopScope, batch: PayoutBatch, id: string) {
    const held = await this.lineItems.heldByBatch(scope, id);
    await this.lineItems.payClaimed(scope, held, id, this.clock.now());
    await this.tally.settle(scope, [batch.vendorId]);
    return this.totals(scope, id);
  }

  /** Step 3b (carry forward): the batch lets go of its rows; nothing is paid. */
  private async carry(scope: ShopScope, id: string) {
    await this.lineItems.releaseBatch(scope, id);
    return this.totals(scope, id);
  }

  /** The run's lease renewed every third of its length, the vendor's lock with it (run-heartbeat.ts). */
  private heartbeat(scope: ShopScope, batch: PayoutBatch, leaseId: string): RunHeartbeat {
    return startHeartbeat({
      leaseId,
      everyMs: Math.max(250, Math.floor(this.options.leaseMs / 3)),
      until: () => this.leaseEnd(),
      renew: (until) => this.batches.renew(scope, batch._id, leaseId, until),
      renewLock: (until) => this.balances.renew(scope, batch.vendorId, batch._id, until),
    });
  }

  /** Σ of what the batch paid (rows and adjustments carrying its id): exact whatever happened to earlier runs. */
  private async totals(scope: ShopScope, batchId: string) {
    const [held, adjustments] = await Promise.all([
      this.lineItems.heldByBatch(scope, batchId),
      this.adjustments.paidByBatch(scope, batchId),
    ]);
    return paidTotals(held, adjustments);
  }

  private leaseEnd(): Date {
    return new Date(this.clock.now().getTime() + this.options.leaseMs);
  }

  private async keepLease(scope: ShopScope, batch: PayoutBatch, leaseId: string): Promise<void> {
    const until = this.leaseEnd();
    if (!(await this.batches.renew(scope, batch._id, leaseId, until))) {
      throw new Error('The run lost its lease (it ran longer than the lease without renewing)');
    }
    await this.balances.renew(scope, batch.vendorId, batch._id, until);
  }
}

/** A decided batch's settled status: paid, carried forward (net ≤ 0) or below the minimum (DESIGN §15). */
function settledStatus(decided: PayoutBatch): 'completed' | 'carried_forward' | 'below_minimum' {
  if (decided.decision === 'pay') return 'completed';
  return (decided.net ?? 0) > 0 ? 'below_minimum' : 'carried_forward';
}
