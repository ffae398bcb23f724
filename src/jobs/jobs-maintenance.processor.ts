import { InjectQueue, Processor } from '@nestjs/bull';
import { Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { Queue } from 'bull';
import { Jobs, OnJob, Queues } from '../queues/jobs';
import { keepTrying, scheduleRepeatable, whenConnected } from '../queues/queues';
import { JobsService } from './jobs.service';

const PURGE_EVERY_MS = 3600_000;

/** Retention of job records (hourly): finished ones older than INBOX_RETENTION_DAYS are deleted. */
@Processor(Queues.Maintenance)
export class JobsMaintenanceProcessor implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('JobsMaintenance');
  private stopped = false;

  constructor(
    private readonly jobs: JobsService,
    @InjectQueue(Queues.Maintenance) private readonly queue: Queue,
  ) {}

  onApplicationBootstrap(): void {
    void keepTrying(
      async () => {
        await whenConnected(this.queue);
        await scheduleRepeatable(this.queue, Jobs.PurgeJobRecords, PURGE_EVERY_MS);
      },
      (err) =>
        this.logger.warn({ err: (err as Error)?.message }, 'Could not schedule job retention yet; retrying'),
      () => this.stopped,
    );
  }

  onApplicationShutdown(): void {
    this.stopped = true;
  }

  @OnJob({ queue: Queues.Maintenance, name: Jobs.PurgeJobRecords })
  purge(): Promise<number> {
    return this.jobs.purgeFinished();
  }
}
