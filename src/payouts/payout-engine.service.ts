import { withTimeout } from '../common/async/timeout';
import { InjectQueue } from '@nestjs/bull';
import { Injectable, Logger } from '@nestjs/common';
import type { Queue } from 'bull';
import { Types } from 'mongoose';
import { PayoutAdjustmentsRepository } from '../adjustments/payout-adjustments.repository';
import type { AuditRecord, AuditStamp } from '../audit/audit-record';
import { Clock } from '../common/clock/clock';
import { dayEnd, dayOf } from '../common/dates/day-range';
import { ValidationError } from '../common/errors';
import { ShopScope } from '../common/tenancy';
import { PayoutRowsRepository } from '../line-items/payout-rows.repository';
import { addJob, Jobs, Queues } from '../queues/jobs';
import { isPayable, PayoutVendor } from '../vendors/vendor-policy';
import { VendorsRepository } from '../vendors/vendors.repository';
import { isSettled, PayoutBatch } from './payout-batch.schema';
import { PayoutBatchesRepository } from './payout-batches.repository';
import { BatchBusyError, PayoutBatchRunner } from './payout-batch-runner';

/** Automatic attempts of a batch job (1 s, 2 s, 4 s, 8 s backoff); after that the batch reads `failed`. */
export const PAYOUT_JOB_ATTEMPTS = 5;

/** Where an in-process run stands (the CLI shows it): batches done, and the line items of the current one. */
export interface RunProgress {
  batchesDone: number;
  batches: number;
  current?: { vendorName: string; lineItemsDone: number; lineItems: number };
}

/** How a trigger records the batches it creates: the write's stamp and each new batch's event. */
export interface BatchAudit {
  stamp: AuditStamp;
  eventFor(batch: {
    _id: Types.ObjectId;
    vendorId: Types.ObjectId;
    vendorName: string;
    periodEnd: string;
    cutoff: Date;
  }): AuditRecord | null;
}

/** Options of a batch job; `jobId` names the run (the batch id, or a resume of a lapsed lease). */
function batchJobOptions(jobId: string, delay = 0) {
  return {
    jobId,
    delay,
    attempts: PAYOUT_JOB_ATTEMPTS,
    backoff: { type: 'exponential', delay: 1000 },
    removeOnComplete: true,
    removeOnFail: true,
  };
}

/** A request waits this long at most for Redis to take a batch job, then answers 503. */
const ENQUEUE_TIMEOUT_MS = 2000;

/**
 * The payout engine (DESIGN §8). A batch pays one vendor's payable line items and UNPAID
 * adjustments up to its cut-off. Without transactions it stays exact by construction:
 *  1. the batch document exists first, unique per (vendor, period), so a repeated trigger finds it;
 *  2. a run takes the batch's lease, so two runs of one batch never overlap;
 *  3. every mark is a conditional single-document write (`batchId: null` → this batch; `UNPAID` →
 *     `PAID`), so an item is paid by at most one batch, once;
 *  4. totals are summed from what carries the batch id, not from what the run meant to pay, so a run
 *     that crashed part-way is completed by the next run of the same batch with nothing lost or doubled.
 * Which vendors are paid at all is the vendor policy's answer (`isPayable`, vendors/vendor-policy.ts).
 * This class decides and queues the batches (1); a run (2-4) is PayoutBatchRunner's.
 */
@Injectable()
export class PayoutEngine {
  private readonly logger = new Logger(PayoutEngine.name);

  constructor(
    private readonly batches: PayoutBatchesRepository,
    private readonly lineItems: PayoutRowsRepository,
    private readonly adjustments: PayoutAdjustmentsRepository,
    private readonly vendors: VendorsRepository,
    private readonly clock: Clock,
    @InjectQueue(Queues.Payouts) private readonly queue: Queue,
    private readonly runner: PayoutBatchRunner,
  ) {}

  /**
   * POST /v1/payouts/batches: the batches of the trigger, each queued unless already completed; a
   * batch left `running` by a run whose lease lapsed (its process died) is resumed at once.
   */
  async trigger(
    scope: ShopScope,
    input: { vendorId?: string; until: string; minimumPayout?: number },
    audit?: BatchAudit | null,
  ): Promise<PayoutBatch[]> {
    const batches = await this.prepare(scope, input, audit);
    const now = this.clock.now();
    for (const batch of batches) {
      if (isSettled(batch.status)) continue;
      if (batch.status === 'running' && batch.leaseUntil && batch.leaseUntil < now)
        await this.resume(scope, batch);
      else await this.enqueue(scope, batch);
    }
    return batches;
  }

  /**
   * The payout sweeper's action on one batch: `running` with a lapsed lease → a resume run now;
   * `queued` (its job lost with Redis) → queued again unless its job is still pending.
   */
  async resumeStalled(scope: ShopScope, batch: PayoutBatch): Promise<boolean> {
    if (batch.status === 'running') {
      if (!batch.leaseUntil || batch.leaseUntil >= this.clock.now()) return false;
      await this.resume(scope, batch);
      return true;
    }
    if (batch.status === 'queued') return this.enqueue(scope, batch);
    return false;
  }

  /**
   * The payout sweeper's repair of a completed batch whose transfer was never created (the
   * process died between completing it and the hand-over): the same idempotent hand-over.
   */
  handOverTransfer(scope: ShopScope, batch: PayoutBatch): Promise<PayoutBatch> {
    return this.runner.handOver(scope, batch);
  }

  /**
   * A run of a batch whose last run died: a job id of its own (the dead run's job may still sit in
   * Redis as `active`), one per lapsed lease, so repeated sweeps do not stack runs.
   */
  private async resume(scope: ShopScope, batch: PayoutBatch): Promise<void> {
    const jobId = `${String(batch._id)}:resume:${batch.leaseUntil?.getTime() ?? 0}`;
    await withTimeout(
      addJob(
        this.queue,
        Jobs.RunPayoutBatch,
        { shopId: scope.shopId, batchId: String(batch._id) },
        batchJobOptions(jobId),
      ),
      ENQUEUE_TIMEOUT_MS,
      'the payout queue (Redis)',
    );
  }

  /**
   * A run found the lease held: run again when it ends (a delayed job, its id naming that moment).
   */
  async retryWhenFree(scope: ShopScope, batchId: string, leaseUntil: Date | null): Promise<void> {
    const at = (leaseUntil ?? this.clock.now()).getTime();
    const delay = Math.max(1000, at - this.clock.now().getTime() + 1000);
    await addJob(
      this.queue,
      Jobs.RunPayoutBatch,
      { shopId: scope.shopId, batchId },
      batchJobOptions(`${batchId}:after:${at}`, delay),
    );
  }

  /** The operator CLI: the same batches, run in this process one after the other. */
  async runNow(
    scope: ShopScope,
    input: { vendorId?: string; until: string },
    onProgress: (progress: RunProgress) => void = () => undefined,
  ): Promise<PayoutBatch[]> {
    const batches = await this.prepare(scope, input);
    const out: PayoutBatch[] = [];
    onProgress({ batchesDone: 0, batches: batches.length });
    for (const batch of batches) {
      const onLineItems = (lineItemsDone: number, lineItems: number) =>
        onProgress({
          batchesDone: out.length,
          batches: batches.length,
          current: { vendorName: batch.vendorName, lineItemsDone, lineItems },
        });
      out.push(await this.runOnce(scope, batch, onLineItems));
      onProgress({ batchesDone: out.length, batches: batches.length });
    }
    return out;
  }

  private async runOnce(
    scope: ShopScope,
    batch: PayoutBatch,
    onLineItems: (done: number, total: number) => void,
  ): Promise<PayoutBatch> {
    if (isSettled(batch.status)) return this.runner.handOver(scope, batch);
    try {
      return await this.run(scope, String(batch._id), { final: true, onLineItems });
    } catch (err) {
      if (!(err instanceof BatchBusyError))
        this.logger.warn(`payout batch ${String(batch._id)} failed: ${String(err)}`);
      return (await this.batches.findById(scope, batch._id)) ?? batch;
    }
  }

  /** Finds or creates the batch of each payable vendor the trigger covers. */
  private async prepare(
    scope: ShopScope,
    input: { vendorId?: string; until: string; minimumPayout?: number },
    audit?: BatchAudit | null,
  ): Promise<PayoutBatch[]> {
    const cutoff = dayEnd(input.until);
    if (!cutoff) throw new ValidationError(`until "${input.until}" is not a valid YYYY-MM-DD date`);
    if (input.until > dayOf(this.clock.now())) {
      throw new ValidationError('until cannot be in the future: a period is paid once it has ended', {
        fields: { until: ['until must be today or earlier (UTC)'] },
      });
    }
    const vendors = input.vendorId
      ? await this.namedVendor(scope, input.vendorId)
      : await this.vendorsWithPayable(scope, input.until, cutoff);
    const out: PayoutBatch[] = [];
    for (const v of vendors) {
      const _id = new Types.ObjectId();
      const event = audit?.eventFor({
        _id,
        vendorId: v._id,
        vendorName: v.vendorName,
        periodEnd: input.until,
        cutoff,
      });
      let batch = await this.batches.findOrCreate(
        scope,
        { vendorId: v._id, periodEnd: input.until },
        { vendorName: v.vendorName, cutoff, minimumPayout: input.minimumPayout ?? 0 },
        audit && event ? { _id, stamp: audit.stamp, event } : null,
      );
      if (batch.status === 'failed') batch = (await this.batches.requeue(scope, batch._id)) ?? batch;
      out.push(batch);
    }
    return out;
  }

  /** The vendor a trigger names: 422 when it is not one of the shop's; no batch when it is not payable. */
  private async namedVendor(scope: ShopScope, vendorId: string): Promise<PayoutVendor[]> {
    const vendor = await this.vendors.findById(scope, vendorId);
    if (!vendor) {
      throw new ValidationError(`vendorId ${vendorId} is not a vendor of this shop`, {
        fields: { vendorId: [`vendorId ${vendorId} is not a vendor of this shop`] },
      });
    }
    return isPayable(vendor) ? [vendor] : [];
  }

  /**
   * Every payable vendor with something to pay up to the cut-off, or a batch of the period already
   * (a repeated trigger answers it again and resumes it), by name.
   */
  private async vendorsWithPayable(scope: ShopScope, until: string, cutoff: Date): Promise<PayoutVendor[]> {
    const [fromItems, fromAdjustments, existing] = await Promise.all([
      this.lineItems.vendorsWithPayable(scope, cutoff),
      this.adjustments.vendorsWithPayable(scope, cutoff),
      this.batches.forPeriod(scope, until),
    ]);
    const ids = [...fromItems, ...fromAdjustments, ...existing.map((b) => b.vendorId)];
    const vendors = await this.vendors.findSummaries(scope, ids);
    return vendors.filter((v) => isPayable(v)).sort((a, b) => a.vendorName.localeCompare(b.vendorName));
  }

  /**
   * One job per batch at a time: the batch id is the job id, so a pending job is not added twice
   * (false then). Redis unreachable → the error (a 503); the batch stays queued for the sweeper.
   */
  private enqueue(scope: ShopScope, batch: PayoutBatch): Promise<boolean> {
    const jobId = String(batch._id);
    const work = async () => {
      const existing = await this.queue.getJob(jobId);
      if (existing) {
        const state = await existing.getState();
        if (state !== 'completed' && state !== 'failed') return false;
        await existing.remove();
      }
      await addJob(
        this.queue,
        Jobs.RunPayoutBatch,
        { shopId: scope.shopId, batchId: jobId },
        batchJobOptions(jobId),
      );
      return true;
    };
    return withTimeout(work(), ENQUEUE_TIMEOUT_MS, 'the payout queue (Redis)');
  }

  /** Runs (or resumes) one batch now, in this process (PayoutBatchRunner). */
  run(
    scope: ShopScope,
    batchId: string,
    opts: { final: boolean; onLineItems?: (done: number, total: number) => void },
  ): Promise<PayoutBatch> {
    return this.runner.run(scope, batchId, opts);
  }
}
