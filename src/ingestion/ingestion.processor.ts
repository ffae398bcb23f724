import { OnQueueFailed, Processor } from '@nestjs/bull';
import { Logger } from '@nestjs/common';
import type { Job } from 'bull';
import { IngestionJobData, Jobs, OnJob, Queues } from '../queues/jobs';
import { IngestionService } from './ingestion.service';
import { PayloadError } from './shopify-payloads';

/** Several webhooks at a time: the work is mostly waiting on the database. */
export const INGESTION_CONCURRENCY = 6;

@Processor(Queues.Ingestion)
export class IngestionProcessor {
  private readonly logger = new Logger('Ingestion');

  constructor(private readonly ingestion: IngestionService) {}

  @OnJob({ queue: Queues.Ingestion, name: Jobs.ShopifyWebhook, concurrency: INGESTION_CONCURRENCY })
  async handle(job: Job<IngestionJobData>): Promise<string> {
    try {
      return await this.ingestion.process(job.data);
    } catch (err) {
      // Retrying cannot fix a payload we do not understand: fail now, keep it for inspection.
      if (err instanceof PayloadError) await job.discard();
      throw err;
    }
  }

  @OnQueueFailed()
  failed(job: Job<IngestionJobData>, err: Error): void {
    const final = err instanceof PayloadError || job.attemptsMade >= (job.opts.attempts ?? 1);
    const facts = {
      jobId: job.id,
      topic: job.data?.topic,
      shopId: job.data?.shopId,
      webhookId: job.data?.webhookId,
      attemptsMade: job.attemptsMade,
      err: err.message,
    };
    if (final)
      this.logger.error(facts, 'Webhook processing failed for good; the job stays in the failed set');
    else this.logger.warn(facts, 'Webhook processing failed; will retry');
  }
}
