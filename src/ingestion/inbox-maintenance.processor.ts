import { InjectQueue, Processor } from '@nestjs/bull';
import { Inject, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { Queue } from 'bull';
import { jobsConfig, JobsConfig } from '../config/configuration';
import { Jobs, OnJob, Queues } from '../queues/jobs';
import { keepTrying, scheduleRepeatable, whenConnected } from '../queues/queues';
import { WebhookInbox } from './webhook-inbox.service';

/** Retention runs hourly: it only has to keep the collection from growing without bound. */
const PURGE_EVERY_MS = 3600_000;

/**
 * The inbox's repeatable jobs, in every process that runs processors: the sweeper (every
 * SWEEP_EVERY_SECONDS, and once at start, so a worker that comes back after a crash picks up what
 * it left) and the retention purge.
 */
@Processor(Queues.Maintenance)
export class InboxMaintenanceProcessor implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('InboxMaintenance');
  private stopped = false;

  constructor(
    private readonly inbox: WebhookInbox,
    @InjectQueue(Queues.Maintenance) private readonly queue: Queue,
    @Inject(jobsConfig.KEY) private readonly cfg: JobsConfig,
  ) {}

  /** In the background: start-up does not wait for Redis. */
  onApplicationBootstrap(): void {
    void this.start();
  }

  onApplicationShutdown(): void {
    this.stopped = true;
  }

  private async start(): Promise<void> {
    await keepTrying(
      async () => {
        await whenConnected(this.queue);
        await scheduleRepeatable(this.queue, Jobs.SweepDeliveries, this.cfg.sweepEveryMs);
        await scheduleRepeatable(this.queue, Jobs.PurgeDeliveries, PURGE_EVERY_MS);
      },
      (err) =>
        this.logger.warn(
          { err: (err as Error)?.message },
          'Could not schedule the inbox sweeper yet; retrying',
        ),
      () => this.stopped,
    );
    if (this.stopped) return;
    await this.inbox
      .redrive()
      .catch((err: unknown) =>
        this.logger.warn(
          { err: (err as Error)?.message },
          'Start-up sweep failed; the repeatable sweep retries',
        ),
      );
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
