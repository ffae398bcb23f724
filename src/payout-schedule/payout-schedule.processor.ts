import { InjectQueue, Processor } from '@nestjs/bull';
import { Inject } from '@nestjs/common';
import type { Queue } from 'bull';
import { jobsConfig, JobsConfig } from '../config/configuration';
import { Jobs, OnJob, Queues } from '../queues/jobs';
import { RepeatableJob, RepeatableJobsProcessor } from '../queues/repeatable-jobs';
import { PayoutScheduler } from './payout-scheduler.service';

/**
 * The payout scheduler's tick (DESIGN §15): repeatable (every SWEEP_EVERY_SECONDS, one process
 * takes each tick) and once at start (a process that comes back catches up at once, and resumes a
 * run a dead process left once its lease lapsed). Ticks of several processes at once are safe.
 */
@Processor(Queues.Maintenance)
export class PayoutScheduleProcessor extends RepeatableJobsProcessor {
  constructor(
    private readonly scheduler: PayoutScheduler,
    @InjectQueue(Queues.Maintenance) queue: Queue,
    @Inject(jobsConfig.KEY) private readonly cfg: JobsConfig,
  ) {
    super(queue, 'the payout scheduler', 'PayoutScheduler');
  }

  protected repeatableJobs(): RepeatableJob[] {
    return [{ name: Jobs.TickPayoutSchedule, everyMs: this.cfg.sweepEveryMs }];
  }

  protected override onStart(): Promise<unknown> {
    return this.scheduler.tickNow();
  }

  @OnJob({ queue: Queues.Maintenance, name: Jobs.TickPayoutSchedule })
  tick(): Promise<unknown> {
    return this.scheduler.tickNow();
  }
}
