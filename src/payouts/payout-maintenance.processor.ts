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

const SWEEP_BATCH = 200;

/**
 * The payout sweeper (repeatable, and once at start): resumes `running` batches whose run lease
 * lapsed (their process died) and re-queues `queued` batches whose job was lost, so a batch always
 * completes without an operator; and hands completed batches whose transfer was never created
 * (`transferDue`: the process died right after completing them) to the transfers service again.
 */
@Processor(Queues.Maintenance)
export class PayoutMaintenanceProcessor extends RepeatableJobsProcessor {
  constructor(
    private readonly engine: PayoutEngine,
    private readonly system: SystemPayoutBatchesRepository,
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
    return (await this.resumeRuns()) + (await this.repairHandOvers());
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
