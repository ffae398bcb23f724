import { randomUUID } from 'node:crypto';
import { InjectQueue } from '@nestjs/bull';
import { Injectable, Logger } from '@nestjs/common';
import type { Queue } from 'bull';
import { Types } from 'mongoose';
import { PayoutAdjustmentsRepository } from '../adjustments/payout-adjustments.repository';
import { VendorDirectory } from '../adjustments/vendor-directory.repository';
import { Clock } from '../common/clock/clock';
import { DomainError, NotFoundError, ValidationError } from '../common/errors';
import { ShopScope } from '../common/tenancy';
import { OrderSummaryRefresher } from '../line-items/order-summary.refresher';
import { Queues } from '../queues/queues';
import { dayEnd, dayOf } from './date-range';
import { PayoutBatch } from './payout-batch.schema';
import { BatchTotals, PayoutBatchesRepository } from './payout-batches.repository';
import { PayoutEngineOptions, PayoutFailureHook } from './payout-failure-hook';
import { PayoutLineItemsRepository } from './payout-line-items.repository';
import { sumMoney } from './payout-money';

export const PAYOUT_BATCH_JOB = 'run-batch';

export interface PayoutBatchJob {
  shopId: string;
  batchId: string;
}

/** Automatic attempts of a batch job (1 s, then 2 s backoff); after that the batch reads `failed`. */
export const PAYOUT_JOB_ATTEMPTS = 3;

/** Another run of the batch holds its lease: retried later by the queue. */
/** Where an in-process run stands (the CLI shows it): batches done, and the line items of the current one. */
export interface RunProgress {
  batchesDone: number;
  batches: number;
  current?: { vendorName: string; lineItemsDone: number; lineItems: number };
}

export class BatchBusyError extends Error {
  constructor() {
    super('Another run of this payout batch is in progress');
  }
}

/**
 * The payout engine (DESIGN §8). A batch pays one vendor's payable line items and UNPAID
 * adjustments up to its cut-off. Without transactions it stays exact by construction:
 *  1. the batch document exists first, unique per (vendor, period), so a repeated trigger finds it;
 *  2. a run takes the batch's lease, so two runs of one batch never overlap;
 *  3. every mark is a conditional single-document write (`batchId: null` → this batch; `UNPAID` →
 *     `PAID`), so an item is paid by at most one batch, once;
 *  4. totals are summed from what carries the batch id, not from what the run meant to pay, so a run
 *     that crashed part-way is completed by the next run of the same batch with nothing lost or doubled.
 */
@Injectable()
export class PayoutEngine {
  private readonly logger = new Logger(PayoutEngine.name);

  constructor(
    private readonly batches: PayoutBatchesRepository,
    private readonly lineItems: PayoutLineItemsRepository,
    private readonly adjustments: PayoutAdjustmentsRepository,
    private readonly vendors: VendorDirectory,
    private readonly summaries: OrderSummaryRefresher,
    private readonly clock: Clock,
    private readonly hook: PayoutFailureHook,
    private readonly options: PayoutEngineOptions,
    @InjectQueue(Queues.Payouts) private readonly queue: Queue<PayoutBatchJob>,
  ) {}

  /** POST /v1/payouts/batches: the batches of the trigger, each queued unless already completed. */
  async trigger(scope: ShopScope, input: { vendorId?: string; until: string }): Promise<PayoutBatch[]> {
    const batches = await this.prepare(scope, input);
    for (const batch of batches) if (batch.status !== 'completed') await this.enqueue(scope, batch);
    return batches;
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
    if (batch.status === 'completed') return batch;
    try {
      return await this.run(scope, String(batch._id), { final: true, onLineItems });
    } catch (err) {
      if (!(err instanceof BatchBusyError))
        this.logger.warn(`payout batch ${String(batch._id)} failed: ${String(err)}`);
      return (await this.batches.findById(scope, batch._id)) ?? batch;
    }
  }

  /** Finds or creates the batch of each vendor the trigger covers. */
  private async prepare(
    scope: ShopScope,
    input: { vendorId?: string; until: string },
  ): Promise<PayoutBatch[]> {
    const cutoff = dayEnd(input.until);
    if (!cutoff) throw new ValidationError(`until "${input.until}" is not a valid YYYY-MM-DD date`);
    if (input.until > dayOf(this.clock.now())) {
      throw new ValidationError('until cannot be in the future: a period is paid once it has ended', {
        fields: { until: ['until must be today or earlier (UTC)'] },
      });
    }
    let vendors: Array<{ _id: Types.ObjectId; vendorName: string }>;
    if (input.vendorId) {
      const vendor = await this.vendors.findById(scope, input.vendorId);
      if (!vendor) {
        throw new ValidationError(`vendorId ${input.vendorId} is not a vendor of this shop`, {
          fields: { vendorId: [`vendorId ${input.vendorId} is not a vendor of this shop`] },
        });
      }
      vendors = [vendor];
    } else {
      const [fromItems, fromAdjustments, existing] = await Promise.all([
        this.lineItems.vendorsWithPayable(scope, cutoff),
        this.adjustments.vendorsWithPayable(scope, cutoff),
        this.batches.forPeriod(scope, input.until),
      ]);
      const ids = new Map<string, Types.ObjectId>();
      for (const id of [...fromItems, ...fromAdjustments, ...existing.map((b) => b.vendorId)])
        ids.set(String(id), id);
      const names = await this.vendors.namesByIds(scope, [...ids.values()]);
      vendors = [...ids.values()]
        .filter((id) => names.has(String(id)))
        .map((id) => ({ _id: id, vendorName: names.get(String(id))! }))
        .sort((a, b) => a.vendorName.localeCompare(b.vendorName));
    }
    const out: PayoutBatch[] = [];
    for (const v of vendors) {
      let batch = await this.batches.findOrCreate(
        scope,
        { vendorId: v._id, periodEnd: input.until },
        { vendorName: v.vendorName, cutoff },
      );
      if (batch.status === 'failed') batch = (await this.batches.requeue(scope, batch._id)) ?? batch;
      out.push(batch);
    }
    return out;
  }

  /** One job per batch at a time: the batch id is the job id, so a pending job is not added twice. */
  private async enqueue(scope: ShopScope, batch: PayoutBatch): Promise<void> {
    const jobId = String(batch._id);
    const existing = await this.queue.getJob(jobId);
    if (existing) {
      const state = await existing.getState();
      if (state !== 'completed' && state !== 'failed') return;
      await existing.remove();
    }
    await this.queue.add(
      PAYOUT_BATCH_JOB,
      { shopId: scope.shopId, batchId: jobId },
      {
        jobId,
        attempts: PAYOUT_JOB_ATTEMPTS,
        backoff: { type: 'exponential', delay: 1000 },
        removeOnComplete: true,
        removeOnFail: true,
      },
    );
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
    if (batch.status === 'completed') return batch;
    const leaseId = randomUUID();
    const leased = await this.batches.acquire(scope, batch._id, leaseId, this.clock.now(), this.leaseEnd());
    if (!leased) {
      const current = await this.batches.findById(scope, batch._id);
      if (current?.status === 'completed') return current;
      throw new BatchBusyError();
    }
    const id = String(batch._id);
    try {
      const items = await this.lineItems.listPayable(scope, batch.vendorId, batch.cutoff);
      const size = Math.max(1, this.options.chunkSize);
      opts.onLineItems?.(0, items.length);
      for (let i = 0, chunk = 0; i < items.length; i += size, chunk++) {
        await this.lineItems.markPaid(scope, items.slice(i, i + size), id, this.clock.now());
        await this.keepLease(scope, batch._id, leaseId);
        await this.hook.reached('line-items-chunk', { batchId: id, chunk });
        opts.onLineItems?.(Math.min(i + size, items.length), items.length);
      }
      const adjustments = await this.adjustments.listPayable(scope, batch.vendorId, batch.cutoff);
      await this.adjustments.markPaid(
        scope,
        adjustments.map((a) => a._id),
        id,
        this.clock.now(),
      );
      await this.hook.reached('adjustments', { batchId: id });
      const { totals, orderIds } = await this.totals(scope, id);
      // Orders' vendor payout status (order lists) follows the line items; idempotent, so a rerun redoes it.
      await this.summaries.refresh(scope, orderIds, false);
      await this.hook.reached('before-complete', { batchId: id });
      const done = await this.batches.complete(scope, batch._id, leaseId, totals, this.clock.now());
      if (!done) throw new Error('The run lost its lease before completing');
      return done;
    } catch (err) {
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
    }
  }

  /** Σ of what carries the batch id: exact whatever happened to earlier runs. */
  private async totals(
    scope: ShopScope,
    batchId: string,
  ): Promise<{ totals: BatchTotals; orderIds: number[] }> {
    const [items, adjustments] = await Promise.all([
      this.lineItems.paidByBatch(scope, batchId),
      this.adjustments.paidByBatch(scope, batchId),
    ]);
    const lineItemTotal = sumMoney(items.map((li) => li.batchPaidAmount ?? 0));
    const adjustmentTotal = sumMoney(adjustments.map((a) => a.amount));
    return {
      totals: {
        lineItemCount: items.length,
        lineItemTotal,
        adjustmentCount: adjustments.length,
        adjustmentTotal,
        total: sumMoney([lineItemTotal, adjustmentTotal]),
      },
      orderIds: [...new Set(items.map((li) => li.orderId))],
    };
  }

  private leaseEnd(): Date {
    return new Date(this.clock.now().getTime() + this.options.leaseMs);
  }

  private async keepLease(scope: ShopScope, id: Types.ObjectId, leaseId: string): Promise<void> {
    if (!(await this.batches.renew(scope, id, leaseId, this.leaseEnd()))) {
      throw new Error('The run lost its lease (it ran longer than the lease without renewing)');
    }
  }
}
