import { OnQueueFailed, Processor } from '@nestjs/bull';
import { Logger } from '@nestjs/common';
import type { Job } from 'bull';
import { IngestionJobData, Jobs, OnJob, Queues } from '../queues/jobs';
import { PayloadError } from './payload-fields';
import { WebhookInbox } from './webhook-inbox.service';

/** Several deliveries at a time: the work is mostly waiting on the database. */
export const INGESTION_CONCURRENCY = 6;

@Processor(Queues.Ingestion)
export class IngestionProcessor {
  private readonly logger = new Logger('Ingestion');

  constructor(private readonly inbox: WebhookInbox) {}

  @OnJob({ queue: Queues.Ingestion, name: Jobs.ShopifyWebhook, concurrency: INGESTION_CONCURRENCY })
  async handle(job: Job<IngestionJobData>): Promise<string> {
    try {
      return await this.inbox.process(job.data, { final: isLastAttempt(job) });
    } catch (err) {
      // Retrying cannot fix a payload we do not understand: fail now (the delivery says why).
      if (err instanceof PayloadError) await job.discard();
      throw err;
    }
  }

  @OnQueueFailed()
  failed(job: Job<IngestionJobData>, err: Error): void {
    const final = err instanceof PayloadError || job.attemptsMade >= (job.opts.attempts ?? 1);
    const facts = {
      jobId: job.id,
      shopId: job.data?.shopId,
      deliveryId: job.data?.deliveryId,
      attemptsMade: job.attemptsMade,
      err: err.message,
    };
    if (final) this.logger.error(facts, 'Webhook delivery failed for good; it reads `failed` until retried');
    else this.logger.warn(facts, 'Webhook delivery attempt failed; will retry');
  }
}

export function isLastAttempt(job: Job): boolean {
  return job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
}
