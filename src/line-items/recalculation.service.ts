import { randomUUID } from 'node:crypto';
import { InjectQueue } from '@nestjs/bull';
import { Injectable, Logger, Optional } from '@nestjs/common';
import type { Queue } from 'bull';
import { Types } from 'mongoose';
import { withTimeout } from '../common/async/timeout';
import { payoutState } from '../common/money';
import { OperationContexts } from '../common/context/operation-context';
import { ShopScope, toObjectId } from '../common/tenancy';
import { EventSink } from '../event-port/event-sink';
import { VendorTally } from './vendor-tally.service';
import { crashPoint } from '../common/faults/crash-point';
import { recalculatedEvent } from './recalculation-events';
import { JobsService } from '../jobs/jobs.service';
import type { AuditStamp } from '../audit/audit-record';
import { addJob, jobEntry, Jobs, Queues, RecalculateJobData, SkuUpdateJobData } from '../queues/jobs';
import { ConcurrentLineItemChange } from './concurrent-line-item-change';
import { LineItemPricing, reprice } from './line-item-pricing';
import { isPayoutRow } from './line-item.schema';
import type { GuardedSet } from './line-item-views';
import { LineItemsRepository } from './line-items.repository';
import { OrderSummaryRefresher } from './order-summary.refresher';

/** Ids (or orders) per job: big by-SKU updates fan out into several jobs. */
export const RECALC_JOB_SIZE = 1000;
/** A request waits this long at most for Redis to take its jobs, then answers 503. */
const ENQUEUE_TIMEOUT_MS = 2000;

/**
 * Recalculation of line items (queued) and the summary refreshes that too many orders at once
 * leave to the queue. The only producer of the recalculation queue.
 */
@Injectable()
export class RecalculationService {
  private readonly logger = new Logger('Recalculation');

  constructor(
    private readonly lineItems: LineItemsRepository,
    private readonly pricing: LineItemPricing,
    private readonly summaries: OrderSummaryRefresher,
    private readonly jobs: JobsService,
    @InjectQueue(Queues.Recalculation) private readonly queue: Queue,
    private readonly tally: VendorTally,
    @Optional() private readonly events?: EventSink,
  ) {}

  /**
   * Queues the recalculation of these line items as one job resource (`GET /v1/jobs/{id}`) run in
   * parts; returns its id, or null when there is nothing to recalculate. When Redis cannot take the
   * parts, the job reads `failed` and the caller gets the error (a 503).
   */
  async queueRecalculation(scope: ShopScope, ids: Types.ObjectId[]): Promise<string | null> {
    const unique = [...new Set(ids.map(String))];
    if (unique.length === 0) return null;
    const parts = chunks(unique);
    const jobId = await this.jobs.create(scope, 'recalculation', unique.length, parts.length);
    const entries = parts.map((lineItemIds, part) =>
      jobEntry(
        Jobs.Recalculate,
        { shopId: scope.shopId, lineItemIds, jobId, part },
        { jobId: `${jobId}:${part}` },
      ),
    );
    try {
      await withTimeout(this.queue.addBulk(entries), ENQUEUE_TIMEOUT_MS, 'the recalculation queue (Redis)');
    } catch (err) {
      await this.jobs
        .failToQueue(scope, jobId, 'The recalculation could not be queued (the job queue is unavailable)')
        .catch(() => undefined);
      throw err;
    }
    return jobId;
  }

  /**
   * Queues the rest of a by-SKU update as one job resource (`line-item-update`, one part): its total
   * is the lines it will handle (the remaining ones, plus the inline ones it recalculates).
   */
  async queueSkuUpdate(
    scope: ShopScope,
    w: Omit<SkuUpdateJobData, 'shopId' | 'jobId' | 'audit'> & { remaining: number; stamp: AuditStamp | null },
  ): Promise<string> {
    const jobId = await this.jobs.create(scope, 'line-item-update', w.remaining + w.recalcIds.length, 1);
    const data: SkuUpdateJobData = {
      shopId: scope.shopId,
      jobId,
      sku: w.sku,
      fields: w.fields as Record<string, number | string>,
      recalculate: w.recalculate,
      recalcIds: w.recalcIds,
      after: w.after,
      audit: w.stamp ? { ...w.stamp, at: w.stamp.at.toISOString() } : null,
    };
    try {
      await withTimeout(
        addJob(this.queue, Jobs.SkuUpdate, data, { jobId: `${jobId}:0`, attempts: 5, backoff: 2000 }),
        ENQUEUE_TIMEOUT_MS,
        'the recalculation queue (Redis)',
      );
    } catch (err) {
      await this.jobs
        .failToQueue(
          scope,
          jobId,
          'The update of the remaining lines could not be queued (the job queue is unavailable)',
        )
        .catch(() => undefined);
      throw err;
    }
    return jobId;
  }

  /** Queues the summary refresh of these orders. */
  async queueSummaryRefresh(scope: ShopScope, orderIds: number[]): Promise<void> {
    const jobs = chunks(orderIds).map((ids) =>
      jobEntry(Jobs.RefreshSummaries, { shopId: scope.shopId, orderIds: ids }),
    );
    await withTimeout(this.queue.addBulk(jobs), ENQUEUE_TIMEOUT_MS, 'the recalculation queue (Redis)');
  }

  /**
   * One part of a recalculation job (the queue job). Reports to its job resource: started, then its
   * items done — or, on the last attempt, failed. Throws to retry.
   */
  async runPart(scope: ShopScope, data: RecalculateJobData, attempt: { final: boolean }) {
    const job = data.jobId !== undefined ? { id: data.jobId, part: data.part ?? 0 } : null;
    // The job resource's bookkeeping is a phase of its own (round-trip budgets count the work apart).
    const track = <T>(fn: () => Promise<T>) => OperationContexts.phase('job', fn);
    if (job) await track(() => this.jobs.partStarted(scope, job.id));
    try {
      const outcome = await this.recalculate(scope, data.lineItemIds);
      const settled =
        job &&
        (await track(() =>
          this.jobs.partFinished(scope, job.id, job.part, { done: data.lineItemIds.length, failed: 0 }),
        ));
      // Only the part that settled the job reads it for its event (a phase of its own).
      if (job && settled && this.events)
        await OperationContexts.phase('events', () => this.recalculated(scope, job.id));
      return outcome;
    } catch (err) {
      if (job && attempt.final) {
        const errorId = randomUUID();
        this.logger.error(
          { errorId, jobId: job.id, part: job.part, err: (err as Error)?.message },
          'Recalculation part failed',
        );
        await track(() =>
          this.jobs.partFinished(scope, job.id, job.part, {
            done: 0,
            failed: data.lineItemIds.length,
            error: `${data.lineItemIds.length} line item(s) could not be recalculated (errorId ${errorId})`,
          }),
        ).catch(() => undefined);
      }
      throw err;
    }
  }

  /**
   * `line_items.recalculated` once the job has settled (DESIGN §11), with the job as GET
   * /v1/jobs/{id} shows it; keyed by the job id, so whichever part settles it (or a retry) emits it
   * once. The settling write marked it pending; once recorded the mark goes.
   */
  async recalculated(scope: ShopScope, jobId: string): Promise<void> {
    const { job, pendingAt } = await this.jobs.withPendingEvent(scope, jobId);
    if (job.state !== 'completed' && job.state !== 'failed') return;
    crashPoint('after-change:line_items.recalculated');
    if (!(await this.events?.emit(scope, [recalculatedEvent(job)])) || !pendingAt) return;
    await this.jobs.eventRecorded(scope, jobId, pendingAt);
  }

  /**
   * Re-runs the commission and payout calculation (DESIGN §6) on these line items with the current
   * shop settings, vendor and SKU records; assigns still-unassigned lines whose vendor now exists.
   * Frozen line items are skipped. Idempotent: a retried job recomputes the same figures.
   */
  async recalculate(scope: ShopScope, ids: string[]): Promise<{ recalculated: number; skipped: number }> {
    const oids = ids.map((id) => toObjectId(id)).filter((x): x is Types.ObjectId => x !== null);
    const lines = await this.lineItems.findByIds(scope, oids);
    // Refund rows keep the figures cut from their sale line (DESIGN §6): never repriced.
    const live = lines.filter((l) => !l.frozen && l.type !== 'refund');
    const ctx = await this.pricing.load(scope, {
      vendorNames: live.map((l) => l.vendorName),
      vendorIds: live.map((l) => l.vendorId),
      skus: live.map((l) => l.sku),
      productIds: live.map((l) => l.productId),
    });
    const writes: GuardedSet[] = [];
    for (const l of live) {
      const { vendor, figures: f } = reprice(ctx, l);
      const set: Record<string, unknown> = {
        vendorId: vendor?._id ?? null,
        commission: f.commission,
        commissionPlan: f.commissionPlan,
        commissionRule: f.commissionRule,
        costOfItem: f.costOfItem,
        taxOnCommissions: f.taxOnCommissions,
        tcs: f.tcs,
        totalGlobalDeductions: f.totalGlobalDeductions,
        payout: f.payout,
        ...payoutState(f.payout, l.paid),
        inPayouts: isPayoutRow({
          type: l.type,
          vendorId: vendor?._id,
          financialStatus: l.financialStatus,
          batchId: l.batchId,
        }),
      };
      // Only lines whose figures change are written (and only their orders' summaries refreshed).
      const unchanged = Object.entries(set).every(([k, v]) =>
        same(v, (l as unknown as Record<string, unknown>)[k]),
      );
      if (!unchanged) writes.push({ id: l._id, guard: { frozen: false, paid: l.paid }, set });
    }
    if ((await this.lineItems.applyGuardedSets(scope, writes)) < writes.length) {
      throw new ConcurrentLineItemChange('line items were paid or frozen during recalculation');
    }
    const changed = new Set(writes.map((w) => String(w.id)));
    const before = new Map(live.map((l) => [String(l._id), String(l.vendorId)]));
    await this.tally.settle(scope, [
      ...live.filter((l) => changed.has(String(l._id))).map((l) => l.vendorId),
      ...writes.map((w) => w.set.vendorId),
    ]);
    await this.summaries.refresh(
      scope,
      live.filter((l) => changed.has(String(l._id))).map((l) => l.orderId),
      { vendorsChanged: writes.some((w) => String(w.set.vendorId) !== before.get(String(w.id))) },
    );
    return { recalculated: live.length, skipped: lines.length - live.length };
  }

  refreshSummaries(scope: ShopScope, orderIds: number[]): Promise<void> {
    return this.summaries.refresh(scope, orderIds);
  }
}

/** A recalculated field equals the stored one (commissionRule is an object: compared by value). */
function same(next: unknown, stored: unknown): boolean {
  if (next !== null && typeof next === 'object' && !(next instanceof Types.ObjectId))
    return JSON.stringify(next) === JSON.stringify(stored ?? null);
  return String(next) === String(stored);
}

function chunks<T>(values: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < values.length; i += RECALC_JOB_SIZE) out.push(values.slice(i, i + RECALC_JOB_SIZE));
  return out;
}
