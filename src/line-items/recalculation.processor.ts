import { OnQueueFailed, Process, Processor } from '@nestjs/bull';
import { Logger } from '@nestjs/common';
import type { Job } from 'bull';
import { shopScope } from '../common/tenancy';
import { Queues } from '../queues/queues';
import {
  LineItemsService,
  RecalculateJobData,
  RecalculationJobs,
  RefreshSummariesJobData,
} from './line-items.service';

/** Rebuilds the scope from the job and calls the service; Bull retries with backoff on failure. */
@Processor(Queues.Recalculation)
export class RecalculationProcessor {
  private readonly logger = new Logger('Recalculation');

  constructor(private readonly lineItems: LineItemsService) {}

  @Process({ name: RecalculationJobs.Recalculate, concurrency: 2 })
  recalculate(job: Job<RecalculateJobData>) {
    return this.lineItems.recalculate(shopScope(job.data.shopId), job.data.lineItemIds);
  }

  @Process({ name: RecalculationJobs.RefreshSummaries, concurrency: 1 })
  async refresh(job: Job<RefreshSummariesJobData>) {
    await this.lineItems.refreshSummaries(shopScope(job.data.shopId), job.data.orderIds);
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
