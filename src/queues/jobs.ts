import { Process } from '@nestjs/bull';
import type { Job, JobOptions, Queue } from 'bull';
import { OperationContexts } from '../common/context/operation-context';
import type { WebhookTopic } from '../ingestion/webhook-topics';

/**
 * Every Bull queue and every job: its name, its queue and its payload type, in one place (after
 * immich's `enum.ts` + `@OnJob`). Producers add jobs with `addJob`/`jobEntry` and processors take
 * them with `@OnJob`, both typed from `JobCatalog`, so a producer and its processor cannot drift
 * apart. Every payload carries the tenant (`shopId`): a processor rebuilds the scope from it.
 */
export const Queues = {
  Ingestion: 'ingestion',
  Recalculation: 'recalculation',
  Payouts: 'payouts',
} as const;
export type QueueName = (typeof Queues)[keyof typeof Queues];

export const Jobs = {
  /** One verified store-platform webhook (ingestion). */
  ShopifyWebhook: 'shopify-webhook',
  /** Recompute the figures of some line items (line-items). */
  Recalculate: 'recalculate',
  /** Rebuild the materialised summaries of some orders (line-items). */
  RefreshSummaries: 'refresh-summaries',
  /** Run (or resume) one payout batch (payouts). */
  RunPayoutBatch: 'run-batch',
} as const;
export type JobName = (typeof Jobs)[keyof typeof Jobs];

export interface IngestionJobData {
  shopId: string;
  shopDomain: string;
  topic: WebhookTopic;
  webhookId: string;
  receivedAt: string;
  payload: unknown;
}

export interface RecalculateJobData {
  shopId: string;
  lineItemIds: string[];
}

export interface RefreshSummariesJobData {
  shopId: string;
  orderIds: number[];
}

export interface PayoutBatchJobData {
  shopId: string;
  batchId: string;
}

/** Job name → its queue and payload. */
export interface JobCatalog {
  [Jobs.ShopifyWebhook]: { queue: typeof Queues.Ingestion; data: IngestionJobData };
  [Jobs.Recalculate]: { queue: typeof Queues.Recalculation; data: RecalculateJobData };
  [Jobs.RefreshSummaries]: { queue: typeof Queues.Recalculation; data: RefreshSummariesJobData };
  [Jobs.RunPayoutBatch]: { queue: typeof Queues.Payouts; data: PayoutBatchJobData };
}

export type JobData<N extends JobName> = JobCatalog[N]['data'];
/** The jobs of one queue. */
export type JobOf<Q extends QueueName> = {
  [N in JobName]: JobCatalog[N]['queue'] extends Q ? N : never;
}[JobName];

/** Adds one job with the payload its name requires. */
export function addJob<N extends JobName>(
  queue: Queue,
  name: N,
  data: JobData<N>,
  opts?: JobOptions,
): Promise<Job<JobData<N>>> {
  return queue.add(name, data, opts);
}

/** One entry of `queue.addBulk`, typed like `addJob`. */
export function jobEntry<N extends JobName>(
  name: N,
  data: JobData<N>,
  opts?: JobOptions,
): { name: N; data: JobData<N>; opts?: JobOptions } {
  return opts ? { name, data, opts } : { name, data };
}

/** The operation id a job's work is attributed to (logs, database command costs). */
export function jobOperationId(queue: QueueName, jobId: string | number): string {
  return `job:${queue}:${jobId}`;
}

/**
 * Marks a method of a `@Processor(queue)` class as the handler of one job of that queue; the
 * handler receives `Job<JobData<name>>` and runs in the job's operation context.
 */
export function OnJob<Q extends QueueName>(spec: {
  queue: Q;
  name: JobOf<Q>;
  concurrency?: number;
}): MethodDecorator {
  const name: string = spec.name;
  const process =
    spec.concurrency === undefined ? Process(name) : Process({ name, concurrency: spec.concurrency });
  return (target, key, descriptor) => {
    const handler = descriptor.value as unknown as (this: unknown, job: Job) => unknown;
    const wrapped = function (this: unknown, job: Job) {
      return OperationContexts.run({ id: jobOperationId(spec.queue, job.id), kind: 'job' }, () =>
        handler.call(this, job),
      );
    };
    descriptor.value = wrapped as unknown as typeof descriptor.value;
    return process(target, key, descriptor);
  };
}
