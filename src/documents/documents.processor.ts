import { InjectQueue, Processor } from '@nestjs/bull';
import { Inject } from '@nestjs/common';
import type { Job, Queue } from 'bull';
import { Clock } from '../common/clock/clock';
import { shopScope } from '../common/tenancy';
import { jobsConfig, JobsConfig } from '../config/configuration';
import { SystemPayoutBatchesRepository } from '../payouts/system-payout-batches.repository';
import { JobData, Jobs, OnJob, Queues } from '../queues/jobs';
import { RepeatableJob, RepeatableJobsProcessor } from '../queues/repeatable-jobs';
import { DocumentIssuer } from './document-issuer.service';

const SWEEP_BATCH = 200;

/** Rebuilds the scope from the job and issues the batch's documents; a throw makes Bull retry. */
@Processor(Queues.Documents)
export class DocumentsProcessor {
  constructor(private readonly issuer: DocumentIssuer) {}

  @OnJob({ queue: Queues.Documents, name: Jobs.IssueBatchDocuments })
  async issue(job: Job<JobData<typeof Jobs.IssueBatchDocuments>>): Promise<number> {
    return this.issuer.issueForBatch(shopScope(job.data.shopId), job.data.batchId);
  }
}

/**
 * The documents sweeper (repeatable, and once at start): completed batches still `documentsDue` a
 * lease after they were last written (the issuing process died, or its job was lost with Redis) get
 * their documents issued here: the same idempotent steps, finishing what was begun.
 */
@Processor(Queues.Maintenance)
export class DocumentsMaintenanceProcessor extends RepeatableJobsProcessor {
  constructor(
    private readonly issuer: DocumentIssuer,
    private readonly system: SystemPayoutBatchesRepository,
    private readonly clock: Clock,
    @InjectQueue(Queues.Maintenance) queue: Queue,
    @Inject(jobsConfig.KEY) private readonly cfg: JobsConfig,
  ) {
    super(queue, 'the documents sweeper', 'DocumentsSweeper');
  }

  protected repeatableJobs(): RepeatableJob[] {
    return [{ name: Jobs.SweepBatchDocuments, everyMs: this.cfg.sweepEveryMs }];
  }

  protected override onStart(): Promise<number> {
    return this.sweepNow();
  }

  @OnJob({ queue: Queues.Maintenance, name: Jobs.SweepBatchDocuments })
  sweep(): Promise<number> {
    return this.sweepNow();
  }

  /** One sweep (also called directly by tests); answers how many batches it finished. */
  async sweepNow(): Promise<number> {
    const before = new Date(this.clock.now().getTime() - this.cfg.payoutLeaseMs);
    let finished = 0;
    for (const batch of await this.system.documentsDue(before, SWEEP_BATCH)) {
      try {
        await this.issuer.issueForBatch(shopScope(String(batch.shopId)), String(batch._id));
        finished++;
      } catch (err) {
        this.logger.warn(
          { batchId: String(batch._id), err: (err as Error)?.message },
          'Could not issue the documents of a completed batch',
        );
      }
    }
    if (finished > 0) this.logger.warn({ finished }, 'Issued the documents of batches a crash left');
    return finished;
  }
}
