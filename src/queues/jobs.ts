import { Process } from '@nestjs/bull';
import type { Job, JobOptions, Queue } from 'bull';
import { OperationContexts } from '../common/context/operation-context';

/**
 * Every Bull queue and every job: its name, its queue and its payload type, in one place (after
 * immich's `enum.ts` + `@OnJob`). Producers add jobs with `addJob`/`jobEntry` and processors take
 * them with `@OnJob`, both typed from `JobCatalog`, so a producer and its processor cannot drift
 * apart. Every tenant payload carries the tenant (`shopId`): a processor rebuilds the scope from it;
 * the maintenance jobs (sweepers) are the system's own and carry nothing.
 */
export const Queues = {
  Ingestion: 'ingestion',
  Recalculation: 'recalculation',
  Payouts: 'payouts',
  Transfers: 'transfers',
  Maintenance: 'maintenance',
  Events: 'events',
  Documents: 'documents',
} as const;
export type QueueName = (typeof Queues)[keyof typeof Queues];

export const Jobs = {
  /** Process one stored webhook delivery of the inbox (ingestion). */
  ShopifyWebhook: 'shopify-webhook',
  /** Recompute the figures of some line items (line-items). */
  Recalculate: 'recalculate',
  /** Write a by-SKU update's figures (and recalculate) past the lines answered inline (line-items). */
  SkuUpdate: 'sku-update',
  /** Rebuild the materialised summaries of some orders (line-items). */
  RefreshSummaries: 'refresh-summaries',
  /** Run (or resume) one payout batch (payouts). */
  RunPayoutBatch: 'run-batch',
  /** Call a transfer's payout rail (transfers). */
  SendTransfer: 'send-transfer',
  /** Look up a sent transfer's outcome at its provider (transfers; PayPal). */
  FollowTransfer: 'follow-transfer',
  /** Drive open transfers whose job was lost (transfers; repeatable). */
  SweepTransfers: 'sweep-transfers',
  /** Re-enqueue webhook deliveries still `received` after the grace period (ingestion; repeatable). */
  SweepDeliveries: 'sweep-deliveries',
  /** Delete processed webhook deliveries past the retention period (ingestion; repeatable). */
  PurgeDeliveries: 'purge-deliveries',
  /** Open the payout runs whose due date came and work pending or lapsed runs (payout-schedule; repeatable). */
  TickPayoutSchedule: 'tick-payout-schedule',
  /** Resume payout batches whose run lease lapsed or whose job vanished (payouts; repeatable). */
  SweepPayoutBatches: 'sweep-payout-batches',
  /** Delete finished job records past the retention period (jobs; repeatable). */
  PurgeJobRecords: 'purge-job-records',
  /** Store audit events a request left in an outbox or pending (audit; repeatable). */
  RepairAuditTrail: 'repair-audit-trail',
  /** Delete idempotency records past their 24 h (idempotency; repeatable). */
  PurgeIdempotencyKeys: 'purge-idempotency-keys',
  /** Send one outbound event delivery (events). */
  DeliverEvent: 'deliver-event',
  /** Fan out events a crash left unfanned and re-drive overdue deliveries (events; repeatable). */
  SweepEvents: 'sweep-events',
  /** Issue the documents of one settled payout batch (documents; DESIGN §14). */
  IssueBatchDocuments: 'issue-batch-documents',
  /** Issue the documents of settled batches whose issuing died or whose job was lost (documents; repeatable). */
  SweepBatchDocuments: 'sweep-batch-documents',
  /** Recompute the seller tax quarters the tally marked (reports; repeatable). */
  RefreshSellerTax: 'refresh-seller-tax',
} as const;
export type JobName = (typeof Jobs)[keyof typeof Jobs];

/**
 * A webhook delivery to process: the payload stays in MongoDB (`webhook_deliveries`), so a job lost
 * with Redis loses nothing; the sweeper re-enqueues the delivery.
 */
export interface IngestionJobData {
  shopId: string;
  deliveryId: string;
}

export interface RecalculateJobData {
  shopId: string;
  lineItemIds: string[];
  /** The job resource (`GET /v1/jobs/{id}`) this part reports to, and which part it is. */
  jobId?: string;
  part?: number;
}

/**
 * The rest of a by-SKU `POST /v1/lineitems/update` (the request wrote the first lines itself): the
 * lines after `after` in (orderCreatedAt, _id) order, read page by page so no process holds every
 * line of a SKU. `recalcIds`: lines the request wrote that still need their recalculation.
 */
export interface SkuUpdateJobData {
  shopId: string;
  jobId: string;
  sku: string;
  fields: Record<string, number | string>;
  recalculate: boolean;
  recalcIds: string[];
  after: { orderCreatedAt: string; id: string } | null;
  /** The request's audit stamp (its actor and request id), so the job's writes are attributed to it. */
  audit: {
    key: string;
    at: string;
    actor: { kind: string; id: string };
    requestId: string | null;
    clientRequestId?: string | null;
  } | null;
}

/** The sweepers' jobs: the system's own, not a tenant's. */
export type MaintenanceJobData = Record<string, never>;

export interface RefreshSummariesJobData {
  shopId: string;
  orderIds: number[];
}

export interface PayoutBatchJobData {
  shopId: string;
  batchId: string;
}

export interface TransferJobData {
  shopId: string;
  transferId: string;
}

/** One outbound event delivery to attempt: the delivery (and its attempt log) lives in MongoDB. */
export interface DeliverEventJobData {
  shopId: string;
  deliveryId: string;
  /** Its endpoint: the per-endpoint limit applies before anything is read. */
  endpointId: string;
  /** Its event: read together with the delivery and the endpoint. */
  eventId: string;
}

/** Job name → its queue and payload. */
export interface JobCatalog {
  [Jobs.ShopifyWebhook]: { queue: typeof Queues.Ingestion; data: IngestionJobData };
  [Jobs.Recalculate]: { queue: typeof Queues.Recalculation; data: RecalculateJobData };
  [Jobs.RefreshSummaries]: { queue: typeof Queues.Recalculation; data: RefreshSummariesJobData };
  [Jobs.SkuUpdate]: { queue: typeof Queues.Recalculation; data: SkuUpdateJobData };
  [Jobs.RunPayoutBatch]: { queue: typeof Queues.Payouts; data: PayoutBatchJobData };
  [Jobs.SendTransfer]: { queue: typeof Queues.Transfers; data: TransferJobData };
  [Jobs.FollowTransfer]: { queue: typeof Queues.Transfers; data: TransferJobData };
  [Jobs.SweepTransfers]: { queue: typeof Queues.Maintenance; data: MaintenanceJobData };
  [Jobs.SweepDeliveries]: { queue: typeof Queues.Maintenance; data: MaintenanceJobData };
  [Jobs.PurgeDeliveries]: { queue: typeof Queues.Maintenance; data: MaintenanceJobData };
  [Jobs.SweepPayoutBatches]: { queue: typeof Queues.Maintenance; data: MaintenanceJobData };
  [Jobs.TickPayoutSchedule]: { queue: typeof Queues.Maintenance; data: MaintenanceJobData };
  [Jobs.PurgeJobRecords]: { queue: typeof Queues.Maintenance; data: MaintenanceJobData };
  [Jobs.RepairAuditTrail]: { queue: typeof Queues.Maintenance; data: MaintenanceJobData };
  [Jobs.PurgeIdempotencyKeys]: { queue: typeof Queues.Maintenance; data: MaintenanceJobData };
  [Jobs.DeliverEvent]: { queue: typeof Queues.Events; data: DeliverEventJobData };
  [Jobs.SweepEvents]: { queue: typeof Queues.Maintenance; data: MaintenanceJobData };
  [Jobs.IssueBatchDocuments]: { queue: typeof Queues.Documents; data: PayoutBatchJobData };
  [Jobs.SweepBatchDocuments]: { queue: typeof Queues.Maintenance; data: MaintenanceJobData };
  [Jobs.RefreshSellerTax]: { queue: typeof Queues.Maintenance; data: MaintenanceJobData };
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

/** One finished job handler run, for the job duration metric. */
export interface JobRun {
  queue: QueueName;
  name: string;
  seconds: number;
  ok: boolean;
}

const jobRunListeners = new Set<(run: JobRun) => void>();

/** Subscribes to every `@OnJob` handler run of this process; returns the unsubscribe function. */
export function onJobRun(listener: (run: JobRun) => void): () => void {
  jobRunListeners.add(listener);
  return () => jobRunListeners.delete(listener);
}

function reportJobRun(run: JobRun): void {
  for (const l of jobRunListeners) l(run);
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
  const register =
    spec.concurrency === undefined ? Process(name) : Process({ name, concurrency: spec.concurrency });
  return (target, key, descriptor) => {
    const handler = descriptor.value as unknown as (this: unknown, job: Job) => unknown;
    const wrapped = async function (this: unknown, job: Job) {
      const started = process.hrtime.bigint();
      const seconds = () => Number(process.hrtime.bigint() - started) / 1e9;
      try {
        const result = await OperationContexts.run(
          { id: jobOperationId(spec.queue, job.id), kind: 'job' },
          () => handler.call(this, job),
        );
        reportJobRun({ queue: spec.queue, name, seconds: seconds(), ok: true });
        return result;
      } catch (err) {
        reportJobRun({ queue: spec.queue, name, seconds: seconds(), ok: false });
        throw err;
      }
    };
    descriptor.value = wrapped as unknown as typeof descriptor.value;
    return register(target, key, descriptor);
  };
}
