import { InjectQueue, Processor } from '@nestjs/bull';
import { Inject } from '@nestjs/common';
import type { Queue } from 'bull';
import { jobsConfig, JobsConfig } from '../config/configuration';
import { Jobs, OnJob, Queues } from '../queues/jobs';
import { RepeatableJob, RepeatableJobsProcessor } from '../queues/repeatable-jobs';
import { AuditRepairService, RepairReport } from './audit-repair.service';

/** The audit repair job: every SWEEP_EVERY_SECONDS, and once at every processor start. */
@Processor(Queues.Maintenance)
export class AuditMaintenanceProcessor extends RepeatableJobsProcessor {
  constructor(
    private readonly repairs: AuditRepairService,
    @InjectQueue(Queues.Maintenance) queue: Queue,
    @Inject(jobsConfig.KEY) private readonly cfg: JobsConfig,
  ) {
    super(queue, 'the audit repair', 'AuditRepair');
  }

  protected repeatableJobs(): RepeatableJob[] {
    return [{ name: Jobs.RepairAuditTrail, everyMs: this.cfg.sweepEveryMs }];
  }

  protected override onStart(): Promise<RepairReport> {
    return this.repairs.repair();
  }

  @OnJob({ queue: Queues.Maintenance, name: Jobs.RepairAuditTrail })
  repair(): Promise<RepairReport> {
    return this.repairs.repair();
  }
}
