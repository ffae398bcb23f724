import { InjectQueue, Processor } from '@nestjs/bull';
import { Inject, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { Queue } from 'bull';
import { jobsConfig, JobsConfig } from '../config/configuration';
import { Jobs, OnJob, Queues } from '../queues/jobs';
import { keepTrying, scheduleRepeatable, whenConnected } from '../queues/queues';
import { AuditRepairService, RepairReport } from './audit-repair.service';

/** The audit repair job: every SWEEP_EVERY_SECONDS, and once at every processor start. */
@Processor(Queues.Maintenance)
export class AuditMaintenanceProcessor implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('AuditRepair');
  private stopped = false;

  constructor(
    private readonly repairs: AuditRepairService,
    @InjectQueue(Queues.Maintenance) private readonly queue: Queue,
    @Inject(jobsConfig.KEY) private readonly cfg: JobsConfig,
  ) {}

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
        await scheduleRepeatable(this.queue, Jobs.RepairAuditTrail, this.cfg.sweepEveryMs);
      },
      (err) =>
        this.logger.warn(
          { err: (err as Error)?.message },
          'Could not schedule the audit repair yet; retrying',
        ),
      () => this.stopped,
    );
    if (this.stopped) return;
    await this.repairs
      .repair()
      .catch((err: unknown) =>
        this.logger.warn(
          { err: (err as Error)?.message },
          'Start-up audit repair failed; the repeatable one retries',
        ),
      );
  }

  @OnJob({ queue: Queues.Maintenance, name: Jobs.RepairAuditTrail })
  repair(): Promise<RepairReport> {
    return this.repairs.repair();
  }
}
