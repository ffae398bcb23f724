import { InjectQueue, Processor } from '@nestjs/bull';
import type { Queue } from 'bull';
import { Jobs, OnJob, Queues } from '../queues/jobs';
import { RepeatableJob, RepeatableJobsProcessor } from '../queues/repeatable-jobs';
import { JobsService } from './jobs.service';

const PURGE_EVERY_MS = 3600_000;

/** Retention of job records (hourly): finished ones older than INBOX_RETENTION_DAYS are deleted. */
@Processor(Queues.Maintenance)
export class JobsMaintenanceProcessor extends RepeatableJobsProcessor {
  constructor(
    private readonly jobs: JobsService,
    @InjectQueue(Queues.Maintenance) queue: Queue,
  ) {
    super(queue, 'job retention', 'JobsMaintenance');
  }

  protected repeatableJobs(): RepeatableJob[] {
    return [{ name: Jobs.PurgeJobRecords, everyMs: PURGE_EVERY_MS }];
  }

  @OnJob({ queue: Queues.Maintenance, name: Jobs.PurgeJobRecords })
  purge(): Promise<number> {
    return this.jobs.purgeFinished();
  }
}
