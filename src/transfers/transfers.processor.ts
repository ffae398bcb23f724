import { InjectQueue, Processor } from '@nestjs/bull';
import { Inject } from '@nestjs/common';
import type { Job, Queue } from 'bull';
import { Clock } from '../common/clock/clock';
import { shopScope } from '../common/tenancy';
import { jobsConfig, JobsConfig, railsConfig, type RailsConfig } from '../config/configuration';
import { JobData, Jobs, OnJob, Queues } from '../queues/jobs';
import { RepeatableJob, RepeatableJobsProcessor } from '../queues/repeatable-jobs';
import { TransferQueue } from './transfer-queue';
import { TransferRunner } from './transfer-runner.service';
import { TransfersService } from './transfers.service';
import { SystemTransfersRepository } from './system-transfers.repository';

const SWEEP_BATCH = 200;

/** Rebuilds the scope from the job and drives the transfer; a throw makes Bull retry with backoff. */
@Processor(Queues.Transfers)
export class TransfersProcessor {
  constructor(private readonly runner: TransferRunner) {}

  @OnJob({ queue: Queues.Transfers, name: Jobs.SendTransfer, concurrency: 2 })
  send(job: Job<JobData<typeof Jobs.SendTransfer>>): Promise<string> {
    return this.runner.send(shopScope(job.data.shopId), job.data.transferId);
  }

  @OnJob({ queue: Queues.Transfers, name: Jobs.FollowTransfer, concurrency: 2 })
  follow(job: Job<JobData<typeof Jobs.FollowTransfer>>): Promise<string> {
    return this.runner.follow(shopScope(job.data.shopId), job.data.transferId);
  }
}

/**
 * The transfer sweeper (repeatable, and once at start): queues again every open transfer nothing
 * touched for a while (its job was lost, or retried out during a long outage), and credits back
 * any failed or reversed transfer whose credit-backs are not all confirmed (its process died in
 * between, or a retry died holding it): the credit ids are fixed in the transfer, so a repeat
 * makes only what is missing.
 */
@Processor(Queues.Maintenance)
export class TransferMaintenanceProcessor extends RepeatableJobsProcessor {
  constructor(
    private readonly system: SystemTransfersRepository,
    private readonly transfers: TransfersService,
    private readonly transferQueue: TransferQueue,
    private readonly clock: Clock,
    @InjectQueue(Queues.Maintenance) maintenance: Queue,
    @Inject(jobsConfig.KEY) private readonly jobs: JobsConfig,
    @Inject(railsConfig.KEY) private readonly rails: RailsConfig,
  ) {
    super(maintenance, 'the transfer sweeper', 'TransferSweeper');
  }

  protected repeatableJobs(): RepeatableJob[] {
    return [{ name: Jobs.SweepTransfers, everyMs: this.jobs.sweepEveryMs }];
  }

  protected override onStart(): Promise<number> {
    return this.sweepNow();
  }

  @OnJob({ queue: Queues.Maintenance, name: Jobs.SweepTransfers })
  sweep(): Promise<number> {
    return this.sweepNow();
  }

  async sweepNow(): Promise<number> {
    const quiet = Math.max(this.jobs.redriveAfterMs, 2 * this.rails.pollMs);
    const stale = await this.system.stale(new Date(this.clock.now().getTime() - quiet), SWEEP_BATCH);
    let driven = 0;
    for (const t of stale) {
      const scope = shopScope(String(t.shopId));
      try {
        if (t.state === 'pending') await this.transferQueue.send(scope, String(t._id));
        else if (t.state === 'sent') await this.transferQueue.follow(scope, String(t._id), 0);
        else await this.transfers.creditBack(scope, await this.transfers.load(scope, t._id));
        driven++;
      } catch (err) {
        this.logger.warn(
          { transferId: String(t._id), err: (err as Error)?.message },
          'Could not drive a transfer',
        );
      }
    }
    if (driven > 0) this.logger.warn({ driven }, 'Drove stale transfers');
    return driven;
  }
}
