import { OnQueueFailed, Processor } from '@nestjs/bull';
import { Logger } from '@nestjs/common';
import type { Job } from 'bull';
import { shopScope } from '../common/tenancy';
import { JobData, Jobs, OnJob, Queues } from '../queues/jobs';
import { RecalculationService } from './recalculation.service';
import { SkuUpdateRunner } from './sku-update.runner';

/** Rebuilds the scope from the job and calls the service; Bull retries with backoff on failure. */
@Processor(Queues.Recalculation)
export class RecalculationProcessor {
  private readonly logger = new Logger('Recalculation');

  constructor(
    private readonly recalculation: RecalculationService,
    private readonly skuUpdates: SkuUpdateRunner,
  ) {}

  @OnJob({ queue: Queues.Recalculation, name: Jobs.Recalculate, concurrency: 2 })
  recalculate(job: Job<JobData<typeof Jobs.Recalculate>>) {
    const final = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    return this.recalculation.runPart(shopScope(job.data.shopId), job.data, { final });
  }

  @OnJob({ queue: Queues.Recalculation, name: Jobs.SkuUpdate, concurrency: 1 })
  skuUpdate(job: Job<JobData<typeof Jobs.SkuUpdate>>) {
    const final = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    return this.skuUpdates.run(shopScope(job.data.shopId), job.data, { final });
  }

  @OnJob({ queue: Queues.Recalculation, name: Jobs.RefreshSummaries, concurrency: 1 })
  async refresh(job: Job<JobData<typeof Jobs.RefreshSummaries>>) {
    await this.recalculation.refreshSummaries(shopScope(job.data.shopId), job.data.orderIds);
  }

  @OnQueueFailed()
  failed(job: Job, err: Error): void {
    const final = job.attemptsMade >= (job.opts.attempts ?? 1);
    this.logger[final ? 'error' : 'warn'](
      {
        jobId: job.id,
        name: job.name,
        shopId: job.data?.shopId,
        attemptsMade: job.attemptsMade,
        err: err.message,
      },
      final
        ? 'Recalculation job failed for good (kept in the failed set)'
        : 'Recalculation job failed; will retry',
    );
  }
}
