import { InjectQueue, Processor } from '@nestjs/bull';
import { Inject } from '@nestjs/common';
import type { Queue } from 'bull';
import { Clock } from '../common/clock/clock';
import { shopScope } from '../common/tenancy';
import { jobsConfig, JobsConfig } from '../config/configuration';
import { Jobs, OnJob, Queues } from '../queues/jobs';
import { RepeatableJob, RepeatableJobsProcessor } from '../queues/repeatable-jobs';
import { PayoutEngine } from './payout-engine.service';
import { SystemPayoutBatchesRepository } from './system-payout-batches.repository';
import { SystemLineItemsRepository } from '../line-items/system-line-items.repository';
import { VendorTally } from '../line-items/vendor-tally.service';

const SWEEP_BATCH = 200;

/**
 * The payout sweeper (repeatable, and once at start): resumes `running` batches whose run lease
 * lapsed (their process died) and re-queues `queued` batches whose job was lost, so a batch always
 * completes without an operator; and hands completed batches whose transfer was never created
 * (`transferDue`: the process died right after completing them) to the transfers service again;
 * and counts line-item changes a dead writer left uncounted into their vendors' balance sums.
 */
@Processor(Queues.Maintenance)
export class PayoutMaintenanceProcessor extends RepeatableJobsProcessor {
  constructor(
    private readonly engine: PayoutEngine,
    private readonly system: SystemPayoutBatchesRepository,
    private readonly systemLines: SystemLineItemsRepository,
    private readonly tally: VendorTally,
    private readonly clock: Clock,
    @InjectQueue(Queues.Maintenance) queue: Queue,
    @Inject(jobsConfig.KEY) private readonly cfg: JobsConfig,
  ) {
    super(queue, 'the payout sweeper', 'PayoutSweeper');
  }

  protected repeatableJobs(): RepeatableJob[] {
    return [{ name: Jobs.SweepPayoutBatches, everyMs: this.cfg.sweepEveryMs }];
  }

  protected override onStart(): Promise<number> {
    return this.sweepNow();
  }

  @OnJob({ queue: Queues.Maintenance, name: Jobs.SweepPayoutBatches })
  sweep(): Promise<number> {
    return this.sweepNow();
  }

  /** One sweep, also called directly (tests, like the transfer sweeper's). */
  async sweepNow(): Promise<number> {
    return (await this.resumeRuns()) + (await this.repairHandOvers()) + (await this.countTallies());
  }

  /** Rows changed but not counted (a writer died before its tally, or rows older than the tally). */
  async countTallies(): Promise<number> {
    let counted = 0;
    // rows older than the tally first get a mark, then are counted like any changed row
    for (let round = 0; round < 20; round++)
      if ((await this.systemLines.markUnmarked(SWEEP_BATCH)) < SWEEP_BATCH) break;
    for (let round = 0; round < 20; round++) {
      const rows = await this.systemLines.changedTallies(SWEEP_BATCH);
      if (rows.length === 0) break;
      const byShop = new Map<string, Set<string>>();
      const uncountable = rows.filter((r) => !r.vendorId && !r.tally?.v);
      for (const r of rows) {
        const vendors = byShop.get(String(r.shopId)) ?? new Set<string>();
        for (const v of [r.vendorId, r.tally?.v]) if (v) vendors.add(String(v));
        byShop.set(String(r.shopId), vendors);
      }
      await this.systemLines.clearUncountable(uncountable);
      for (const [shopId, vendors] of byShop) {
        try {
          await this.tally.settle(shopScope(shopId), vendors);
        } catch (err) {
          this.logger.warn({ shopId, err: (err as Error)?.message }, 'Could not count balance changes');
        }
      }
      counted += rows.length;
      if (rows.length < SWEEP_BATCH) break;
    }
    if (counted > 0) this.logger.warn({ counted }, 'Counted uncounted line-item changes into balances');
    return counted;
  }

  /** Completed batches left `transferDue` for longer than a lease (a live run hands over at once). */
  private async repairHandOvers(): Promise<number> {
    const before = new Date(this.clock.now().getTime() - this.cfg.payoutLeaseMs);
    let repaired = 0;
    for (const batch of await this.system.transferDue(before, SWEEP_BATCH)) {
      try {
        await this.engine.handOverTransfer(shopScope(String(batch.shopId)), batch);
        repaired++;
      } catch (err) {
        this.logger.warn(
          { batchId: String(batch._id), err: (err as Error)?.message },
          'Could not create the transfer of a completed batch',
        );
      }
    }
    if (repaired > 0) this.logger.warn({ repaired }, 'Created the missing transfers of completed batches');
    return repaired;
  }

  private async resumeRuns(): Promise<number> {
    const now = this.clock.now().getTime();
    const stalled = await this.system.stalled(
      new Date(now - this.cfg.payoutLeaseMs),
      new Date(now - this.cfg.redriveAfterMs),
      SWEEP_BATCH,
    );
    let resumed = 0;
    for (const batch of stalled) {
      try {
        if (await this.engine.resumeStalled(shopScope(String(batch.shopId)), batch)) resumed++;
      } catch (err) {
        this.logger.warn(
          { batchId: String(batch._id), err: (err as Error)?.message },
          'Could not resume a batch',
        );
      }
    }
    if (resumed > 0) this.logger.warn({ resumed }, 'Resumed stalled payout batches');
    return resumed;
  }
}
