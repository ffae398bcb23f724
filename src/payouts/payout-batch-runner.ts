import { Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Types } from 'mongoose';
import { PayoutAdjustmentsRepository } from '../adjustments/payout-adjustments.repository';
import { Clock } from '../common/clock/clock';
import { DomainError, NotFoundError } from '../common/errors';
import { sumAmounts } from '../common/money';
import { ShopScope } from '../common/tenancy';
import { LineItemsRepository } from '../line-items/line-items.repository';
import { OrderSummaryRefresher } from '../line-items/order-summary.refresher';
import { PayoutBatch } from './payout-batch.schema';
import { BatchTotals, PayoutBatchesRepository } from './payout-batches.repository';
import { PayoutEngineOptions } from './payout-engine.options';

/** Another run of the batch holds its lease: run again once that lease ends (never dropped). */
export class BatchBusyError extends Error {
  constructor(readonly leaseUntil: Date | null) {
    super('Another run of this payout batch is in progress');
  }
}

/**
 * One run of one payout batch (the payout engine's steps 2-4, DESIGN §8): take the batch's lease,
 * mark its vendor's payable line items in chunks and its UNPAID adjustments with conditional
 * writes, renewing the lease as it goes, then sum what carries the batch id and complete the batch.
 * The queue's processor and the operator CLI run batches through here (via PayoutEngine.run).
 */
@Injectable()
export class PayoutBatchRunner {
  private readonly logger = new Logger('PayoutEngine');

  constructor(
    private readonly batches: PayoutBatchesRepository,
    private readonly lineItems: LineItemsRepository,
    private readonly adjustments: PayoutAdjustmentsRepository,
    private readonly summaries: OrderSummaryRefresher,
    private readonly clock: Clock,
    private readonly options: PayoutEngineOptions,
  ) {}

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
      throw new BatchBusyError(current?.leaseUntil ?? null);
    }
    const id = String(batch._id);
    const heartbeat = this.heartbeat(scope, batch._id, leaseId);
    try {
      const items = await this.lineItems.listPayable(scope, batch.vendorId, batch.cutoff);
      const size = Math.max(1, this.options.chunkSize);
      opts.onLineItems?.(0, items.length);
      for (let i = 0; i < items.length; i += size) {
        heartbeat.assertHeld();
        await this.lineItems.markPaid(scope, items.slice(i, i + size), id, this.clock.now());
        await this.keepLease(scope, batch._id, leaseId);
        opts.onLineItems?.(Math.min(i + size, items.length), items.length);
      }
      heartbeat.assertHeld();
      const adjustments = await this.adjustments.listPayable(scope, batch.vendorId, batch.cutoff);
      await this.adjustments.markPaid(
        scope,
        adjustments.map((a) => a._id),
        id,
        this.clock.now(),
      );
      const { totals, orderIds } = await this.totals(scope, id);
      // Orders' vendor payout status (order lists) follows the line items; idempotent, so a rerun redoes it.
      await this.summaries.refresh(scope, orderIds);
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
    } finally {
      heartbeat.stop();
    }
  }

  /**
   * Renews the lease every third of its length while the run is alive (a slow chunk included), so
   * only a dead run's lease lapses. A renewal that finds the lease taken over stops the run at the
   * next chunk boundary; a renewal that fails (database unreachable) is simply tried again.
   */
  private heartbeat(scope: ShopScope, id: Types.ObjectId, leaseId: string) {
    let lost = false;
    const timer = setInterval(
      () => {
        this.batches
          .renew(scope, id, leaseId, this.leaseEnd())
          .then((held) => {
            if (!held) lost = true;
          })
          .catch(() => undefined);
      },
      Math.max(250, Math.floor(this.options.leaseMs / 3)),
    );
    timer.unref();
    return {
      assertHeld: () => {
        if (lost) throw new Error('The run lost its lease (another run took the batch over)');
      },
      stop: () => clearInterval(timer),
    };
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
    const lineItemTotal = sumAmounts(items.map((li) => li.batchPaidAmount ?? 0));
    const adjustmentTotal = sumAmounts(adjustments.map((a) => a.amount));
    return {
      totals: {
        lineItemCount: items.length,
        lineItemTotal,
        adjustmentCount: adjustments.length,
        adjustmentTotal,
        total: sumAmounts([lineItemTotal, adjustmentTotal]),
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
