import { InjectQueue, Processor } from '@nestjs/bull';
import type { Queue } from 'bull';
import { Clock } from '../common/clock/clock';
import { Jobs, OnJob, Queues } from '../queues/jobs';
import { RepeatableJob, RepeatableJobsProcessor } from '../queues/repeatable-jobs';
import { SystemIdempotencyRepository } from './idempotency.repository';

const PURGE_EVERY_MS = 3600_000;

/** Retention of idempotency records (hourly): keys past their 24 h are deleted. */
@Processor(Queues.Maintenance)
export class IdempotencyMaintenanceProcessor extends RepeatableJobsProcessor {
  constructor(
    private readonly records: SystemIdempotencyRepository,
    private readonly clock: Clock,
    @InjectQueue(Queues.Maintenance) queue: Queue,
  ) {
    super(queue, 'idempotency retention', 'IdempotencyRetention');
  }

  protected repeatableJobs(): RepeatableJob[] {
    return [{ name: Jobs.PurgeIdempotencyKeys, everyMs: PURGE_EVERY_MS }];
  }

  @OnJob({ queue: Queues.Maintenance, name: Jobs.PurgeIdempotencyKeys })
  purge(): Promise<number> {
    return this.records.purgeExpired(this.clock.now());
  }
}
