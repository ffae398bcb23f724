import { InjectQueue, Processor } from '@nestjs/bull';
import { Inject } from '@nestjs/common';
import type { Queue } from 'bull';
import { jobsConfig, JobsConfig } from '../config/configuration';
import { Jobs, OnJob, Queues } from '../queues/jobs';
import { RepeatableJob, RepeatableJobsProcessor } from '../queues/repeatable-jobs';
import { WebhookInbox } from './webhook-inbox.service';

/** Retention runs hourly: it only has to keep the collection from growing without bound. */
const PURGE_EVERY_MS = 3600_000;

/**
 * The inbox's repeatable jobs, in every process that runs processors: the sweeper (every
 * SWEEP_EVERY_SECONDS, and once at start, so a worker that comes back after a crash picks up what
 * it left) and the retention purge.
 */
@Processor(Queues.Maintenance)
export class InboxMaintenanceProcessor extends RepeatableJobsProcessor {
  constructor(
    private readonly inbox: WebhookInbox,
    @InjectQueue(Queues.Maintenance) queue: Queue,
    @Inject(jobsConfig.KEY) private readonly cfg: JobsConfig,
  ) {
    super(queue, 'the inbox sweeper', 'InboxMaintenance');
  }

  protected repeatableJobs(): RepeatableJob[] {
    return [
      { name: Jobs.SweepDeliveries, everyMs: this.cfg.sweepEveryMs },
      { name: Jobs.PurgeDeliveries, everyMs: PURGE_EVERY_MS },
    ];
  }

  protected override onStart(): Promise<number> {
    return this.inbox.redrive();
  }

  @OnJob({ queue: Queues.Maintenance, name: Jobs.SweepDeliveries })
  sweep(): Promise<number> {
    return this.inbox.redrive();
  }

  @OnJob({ queue: Queues.Maintenance, name: Jobs.PurgeDeliveries })
  purge(): Promise<number> {
    return this.inbox.purge();
  }
}
