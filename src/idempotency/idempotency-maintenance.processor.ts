import { InjectQueue, Processor } from '@nestjs/bull';
import { Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { Queue } from 'bull';
import { Clock } from '../common/clock/clock';
import { Jobs, OnJob, Queues } from '../queues/jobs';
import { keepTrying, scheduleRepeatable, whenConnected } from '../queues/queues';
import { SystemIdempotencyRepository } from './idempotency.repository';

const PURGE_EVERY_MS = 3600_000;

/** Retention of idempotency records (hourly): keys past their 24 h are deleted. */
@Processor(Queues.Maintenance)
export class IdempotencyMaintenanceProcessor implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('IdempotencyRetention');
  private stopped = false;

  constructor(
    private readonly records: SystemIdempotencyRepository,
    private readonly clock: Clock,
    @InjectQueue(Queues.Maintenance) private readonly queue: Queue,
  ) {}

  onApplicationBootstrap(): void {
    void keepTrying(
      async () => {
        await whenConnected(this.queue);
        await scheduleRepeatable(this.queue, Jobs.PurgeIdempotencyKeys, PURGE_EVERY_MS);
      },
      (err) =>
        this.logger.warn(
          { err: (err as Error)?.message },
          'Could not schedule idempotency retention yet; retrying',
        ),
      () => this.stopped,
    );
  }

  onApplicationShutdown(): void {
    this.stopped = true;
  }

  @OnJob({ queue: Queues.Maintenance, name: Jobs.PurgeIdempotencyKeys })
  purge(): Promise<number> {
    return this.records.purgeExpired(this.clock.now());
  }
}
