import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Types } from 'mongoose';
import { PayoutAdjustmentsRepository } from '../adjustments/payout-adjustments.repository';
import { Clock } from '../common/clock/clock';
import { dayEnd } from '../common/dates/day-range';
import type { ShopScope } from '../common/tenancy';
import { jobsConfig, type JobsConfig } from '../config/configuration';
import { PayoutRowsRepository } from '../line-items/payout-rows.repository';
import { PayoutEngine } from '../payouts/payout-engine.service';
import { isSettled, type PayoutBatch } from '../payouts/payout-batch.schema';
import { PayoutBatchesRepository } from '../payouts/payout-batches.repository';
import { RunHeartbeat, startHeartbeat } from '../payouts/run-heartbeat';
import { VendorsRepository } from '../vendors/vendors.repository';
import { cutoffDay } from './due-dates';
import type { PayoutRun, RunVendor } from './payout-run.schema';
import { PayoutRunEvents } from './payout-run.events';
import { PayoutRunsRepository } from './payout-runs.repository';
import { runTotals } from './run-totals';
import { VendorPayoutGate, vendorTerms } from './vendor-gate';

/** How long one claim of a run waits for its batches to settle before letting the next tick finish it. */
export const SETTLE_WAIT_MS = 20_000;
const POLL_MS = 250;

/**
 * One scheduled run (DESIGN §15), worked under its lease: (1) plan — each vendor with payable rows
 * up to its cut-off (the due date − its hold) gets an ORDINARY batch through the payout engine's
 * trigger (the path of POST /v1/payouts/batches: netting, carry-forward, transfers and events as
 * ever), its minimum on the batch; a paused vendor, one without a payout method, or one whose tax
 * profile the shop requires and is incomplete is recorded as skipped. A batch is unique per
 * (vendor, period end), so a resumed run's trigger finds the batch the dead one made: never a
 * second. (2) settle — once every batch is settled the run completes with totals summed from the
 * batches, and `payout_run.completed` is recorded. A run whose batches are still running lets go
 * of its lease; the next tick picks it up again.
 */
@Injectable()
export class PayoutRunRunner {
  private readonly logger = new Logger('PayoutScheduler');

  constructor(
    private readonly runs: PayoutRunsRepository,
    private readonly engine: PayoutEngine,
    private readonly batches: PayoutBatchesRepository,
    private readonly lineItems: PayoutRowsRepository,
    private readonly adjustments: PayoutAdjustmentsRepository,
    private readonly vendors: VendorsRepository,
    private readonly gate: VendorPayoutGate,
    private readonly events: PayoutRunEvents,
    private readonly clock: Clock,
    @Inject(jobsConfig.KEY) private readonly cfg: JobsConfig,
  ) {}

  /** Claims and works one run; null when another process holds it. */
  async work(
    scope: ShopScope,
    runId: Types.ObjectId,
    settleWaitMs = SETTLE_WAIT_MS,
  ): Promise<PayoutRun | null> {
    const leaseId = randomUUID();
    const run = await this.runs.claim(scope, runId, leaseId, this.clock.now(), this.leaseEnd());
    if (!run) return null;
    const heartbeat = startHeartbeat({
      leaseId,
      everyMs: Math.max(250, Math.floor(this.cfg.payoutLeaseMs / 3)),
      until: () => this.leaseEnd(),
      renew: (until) => this.runs.renew(scope, runId, leaseId, until),
      renewLock: () => Promise.resolve(),
    });
    try {
      const planned = run.planned ? run : await this.plan(scope, run, leaseId, heartbeat);
      const settled = await this.settle(scope, planned, heartbeat, settleWaitMs);
      if (!settled) {
        await this.runs.release(scope, runId, leaseId, null);
        return this.runs.findById(scope, runId);
      }
      const done = await this.runs.complete(
        scope,
        runId,
        leaseId,
        settled,
        runTotals(settled),
        this.clock.now(),
      );
      if (!done) throw new Error('The run lost its lease before completing');
      await this.events.completed(scope, done);
      return done;
    } catch (err) {
      this.logger.warn({ runId: String(runId), err: (err as Error)?.message }, 'Payout run stopped');
      await this.runs.release(scope, runId, leaseId, (err as Error)?.message ?? String(err));
      throw err;
    } finally {
      heartbeat.stop();
    }
  }

  /** Step 1: a batch (or a skip) per vendor with something due up to its cut-off. */
  private async plan(scope: ShopScope, run: PayoutRun, leaseId: string, heartbeat: RunHeartbeat) {
    const widest = dayEnd(run.dueDate)!;
    const [fromRows, fromAdjustments] = await Promise.all([
      this.lineItems.vendorsWithPayable(scope, widest),
      this.adjustments.vendorsWithPayable(scope, widest),
    ]);
    // A resumed run also looks at the first claim's vendors: one whose batch a killed process made
    // but never recorded may have no payable row left (its batch paid them) yet is this run's.
    const ids = uniqueIds([...(run.candidates ?? []), ...fromRows, ...fromAdjustments]);
    if (!run.candidates && !(await this.runs.setCandidates(scope, run._id, leaseId, ids)))
      throw new Error('The run lost its lease');
    const vendors = (await this.vendors.payoutSettingsOf(scope, ids)).sort((a, b) =>
      a.vendorName.localeCompare(b.vendorName),
    );
    const recorded = new Set(run.vendors.map((v) => String(v.vendorId)));
    // Who has something due at each cut-off the run's vendors use (few distinct holds: few reads).
    const dueAt = new Map<string, Set<string>>();
    const dueBy = async (periodEnd: string) => {
      if (!dueAt.has(periodEnd)) {
        const cutoff = dayEnd(periodEnd)!;
        const [rows, adjustments, made] = await Promise.all([
          this.lineItems.vendorsWithPayable(scope, cutoff),
          this.adjustments.vendorsWithPayable(scope, cutoff),
          this.batches.forPeriod(scope, periodEnd),
        ]);
        // a vendor with a batch of this period end already: the trigger answers that batch
        const batched = made.map((b) => b.vendorId);
        dueAt.set(periodEnd, new Set([...rows, ...adjustments, ...batched].map(String)));
      }
      return dueAt.get(periodEnd)!;
    };
    for (const v of vendors) {
      if (recorded.has(String(v._id))) continue;
      heartbeat.assertHeld();
      const terms = vendorTerms(run, v.payoutSettings);
      const periodEnd = cutoffDay(run.dueDate, terms.holdDays);
      if (!(await dueBy(periodEnd)).has(String(v._id))) continue;
      const base = { vendorId: v._id, vendorName: v.vendorName, status: null, total: 0, net: null };
      const [reason] = await this.gate.reasons(scope, v, run.requireCompleteTaxProfile);
      if (reason) {
        await this.runs.addVendor(scope, run._id, leaseId, {
          ...base,
          skipped: reason,
          batchId: null,
          periodEnd: null,
        });
        continue;
      }
      const [batch] = await this.engine.trigger(scope, {
        vendorId: String(v._id),
        until: periodEnd,
        minimumPayout: terms.minimumPayout,
      });
      if (!batch) continue;
      await this.runs.addVendor(scope, run._id, leaseId, {
        ...base,
        skipped: null,
        batchId: batch._id,
        periodEnd,
      });
    }
    heartbeat.assertHeld();
    if (!(await this.runs.markPlanned(scope, run._id, leaseId))) throw new Error('The run lost its lease');
    return (await this.runs.findById(scope, run._id))!;
  }

  /**
   * Step 2: the run's batches as they settled; null when some are still moving after `waitMs`. A
   * batch that failed is triggered again (the engine re-queues it); one that is queued or running
   * is the payout engine's (its job, or the payout sweeper after a crash).
   */
  private async settle(
    scope: ShopScope,
    run: PayoutRun,
    heartbeat: RunHeartbeat,
    waitMs: number,
  ): Promise<RunVendor[] | null> {
    const deadline = Date.now() + waitMs;
    const periodEnds = [...new Set(run.vendors.filter((v) => v.periodEnd).map((v) => v.periodEnd!))];
    for (let round = 0; ; round++) {
      heartbeat.assertHeld();
      const all = (await Promise.all(periodEnds.map((p) => this.batches.forPeriod(scope, p)))).flat();
      const byId = new Map<string, PayoutBatch>(all.map((b) => [String(b._id), b]));
      const mine = run.vendors.map((v) => (v.batchId ? byId.get(String(v.batchId)) : undefined));
      if (mine.every((b, i) => !run.vendors[i].batchId || (b && isSettled(b.status)))) {
        return run.vendors.map((v, i) => {
          const b = mine[i];
          return b ? { ...v, status: b.status, total: b.total, net: b.net } : v;
        });
      }
      if (round === 0) {
        for (const [i, b] of mine.entries()) {
          if (b?.status !== 'failed') continue;
          const v = run.vendors[i];
          await this.engine.trigger(scope, { vendorId: String(v.vendorId), until: b.periodEnd });
        }
      }
      if (Date.now() >= deadline) return null;
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  }

  private leaseEnd(): Date {
    return new Date(this.clock.now().getTime() + this.cfg.payoutLeaseMs);
  }
}

function uniqueIds(ids: Types.ObjectId[]): Types.ObjectId[] {
  return [...new Map(ids.map((id) => [String(id), id])).values()];
}
