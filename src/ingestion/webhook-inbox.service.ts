import { randomUUID } from 'node:crypto';
import { InjectQueue } from '@nestjs/bull';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Queue } from 'bull';
import { withTimeout } from '../common/async/timeout';
import { Clock } from '../common/clock/clock';
import { OperationContexts } from '../common/context/operation-context';
import { ConflictError, NotFoundError } from '../common/errors';
import { ShopScope, shopScope } from '../common/tenancy';
import { jobsConfig, JobsConfig } from '../config/configuration';
import { addJob, IngestionJobData, Jobs, Queues } from '../queues/jobs';
import { parseJsonLossless } from './lossless-json';
import { PayloadError } from './payload-fields';
import { DeliverySummary, WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { SystemDeliveriesRepository } from './system-deliveries.repository';
import { WebhookProcessingService } from './webhook-processing.service';

export const INGESTION_JOB_OPTIONS = {
  attempts: 8,
  backoff: { type: 'exponential', delay: 2000 },
  removeOnComplete: 1000,
  removeOnFail: 1000,
};

/** A request never waits longer than this on Redis: the delivery is safe in MongoDB already. */
const ENQUEUE_TIMEOUT_MS = 1500;
/** Deliveries re-enqueued per sweep (the next sweep takes the rest). */
const SWEEP_BATCH = 500;
/** Bull states in which the delivery's job will still run by itself. */
const PENDING_JOB_STATES = new Set(['waiting', 'active', 'delayed', 'paused']);

/** The phase the round-trip budgets leave out of the work a delivery causes. */
const INBOX_PHASE = 'inbox';
const inboxPhase = <T>(fn: () => Promise<T>): Promise<T> => OperationContexts.phase(INBOX_PHASE, fn);

export interface NewDelivery {
  shopDomain: string;
  topic: string;
  webhookId: string;
  /** The signed body, verbatim. */
  payload: string;
  /** `X-Shopify-Triggered-At`, when it named a readable instant. */
  triggeredAt?: Date | null;
}

/**
 * The webhook inbox (DESIGN §7). A verified delivery is stored in `webhook_deliveries` before the
 * webhook is answered, then queued by id; the queue job claims it, applies it and records the
 * outcome. Redis holds only a pointer: when a job is lost (Redis restarted without its data, a
 * worker killed, a job removed by hand) the sweeper finds the delivery still `received` after the
 * grace period and queues it again. Applying a delivery twice is harmless (`updated_at` rules).
 */
@Injectable()
export class WebhookInbox {
  private readonly logger = new Logger('WebhookInbox');

  constructor(
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly system: SystemDeliveriesRepository,
    private readonly processing: WebhookProcessingService,
    private readonly clock: Clock,
    @InjectQueue(Queues.Ingestion) private readonly queue: Queue,
    @Inject(jobsConfig.KEY) private readonly cfg: JobsConfig,
  ) {}

  /**
   * Stores a verified delivery and queues it. `deliveryId` null: this shop already has this webhook
   * id (a repeat, acknowledged and not processed again). A queue that cannot take the job does not
   * fail the call: the delivery is stored, and the sweeper queues it.
   */
  async accept(scope: ShopScope, d: NewDelivery): Promise<{ deliveryId: string | null }> {
    const id = await inboxPhase(() => this.deliveries.insert(scope, { ...d, receivedAt: this.clock.now() }));
    if (!id) return { deliveryId: null };
    const deliveryId = String(id);
    try {
      await this.enqueue(scope.shopId, deliveryId, false);
    } catch (err) {
      this.logger.warn(
        { deliveryId, shopId: scope.shopId, err: (err as Error)?.message },
        'Delivery stored but not queued; the sweeper will queue it',
      );
    }
    return { deliveryId };
  }

  /**
   * One processing attempt of a delivery (the ingestion job). `final`: no automatic attempt
   * follows, so a failure leaves the delivery `failed`. Throws to retry.
   */
  async process(job: IngestionJobData, attempt: { final: boolean }): Promise<string> {
    const scope = shopScope(job.shopId);
    const now = this.clock.now();
    const delivery = await inboxPhase(() =>
      this.deliveries.claim(scope, job.deliveryId, now, new Date(now.getTime() + this.cfg.redriveAfterMs)),
    );
    if (!delivery) return 'skipped: already processed or failed, or another attempt holds it';
    const started = performance.now();
    try {
      const payload = parsePayload(delivery.payload);
      const result = await this.processing.apply(
        scope,
        delivery.topic,
        payload,
        delivery.receivedAt,
        delivery.triggeredAt ?? null,
      );
      await inboxPhase(() =>
        this.deliveries.markProcessed(scope, delivery._id, {
          processedAt: this.clock.now(),
          processingMs: Math.round(performance.now() - started),
          result,
        }),
      );
      return result;
    } catch (err) {
      const final = attempt.final || err instanceof PayloadError;
      let reason: string;
      if (err instanceof PayloadError) reason = err.message;
      else {
        const errorId = randomUUID();
        reason = `Processing failed (errorId ${errorId})${final ? '' : '; it is retried automatically'}`;
        this.logger.warn(
          { errorId, deliveryId: job.deliveryId, shopId: job.shopId, err: (err as Error)?.message },
          'Webhook delivery attempt failed',
        );
      }
      await inboxPhase(() =>
        this.deliveries.markAttemptFailed(
          scope,
          delivery._id,
          reason,
          final ? { at: this.clock.now() } : null,
        ),
      ).catch((e: unknown) =>
        this.logger.warn(
          { deliveryId: job.deliveryId, err: (e as Error)?.message },
          'Could not record the failure',
        ),
      );
      throw err;
    }
  }

  /**
   * The sweeper: queues again every delivery still `received` after the grace period whose job is
   * gone (or finished without processing it). Returns how many it queued.
   */
  async redrive(): Promise<number> {
    const now = this.clock.now();
    const stranded = await this.system.stranded(
      new Date(now.getTime() - this.cfg.redriveAfterMs),
      SWEEP_BATCH,
    );
    let queued = 0;
    for (const d of stranded) {
      if (d.leaseUntil && d.leaseUntil > now) continue; // an attempt is running
      if (await this.enqueue(String(d.shopId), String(d._id), true)) queued++;
    }
    if (queued > 0) this.logger.warn({ queued }, 'Re-enqueued stranded webhook deliveries');
    return queued;
  }

  /** Retention: deletes processed deliveries older than the retention period. */
  async purge(): Promise<number> {
    const before = new Date(this.clock.now().getTime() - this.cfg.retentionMs);
    const deleted = await this.system.purgeProcessed(before);
    if (deleted > 0) this.logger.log({ deleted, before }, 'Purged processed webhook deliveries');
    return deleted;
  }

  /** An operator retry of a failed delivery: back to `received` and queued (or swept). */
  async retry(scope: ShopScope, id: string): Promise<DeliverySummary> {
    const requeued = await this.deliveries.requeueFailed(scope, id);
    if (!requeued) {
      const current = await this.deliveries.findById(scope, id);
      if (!current) throw new NotFoundError('Webhook delivery');
      throw new ConflictError(`Only a failed delivery can be retried; this one is ${current.state}`);
    }
    try {
      await this.enqueue(scope.shopId, id, true);
    } catch (err) {
      this.logger.warn(
        { deliveryId: id, err: (err as Error)?.message },
        'Retry recorded; the sweeper will queue it',
      );
    }
    return requeued;
  }

  /**
   * Queues a delivery's job (its id is the delivery id, so Bull keeps one at a time). `redrive`:
   * a finished or failed job of the same id is replaced; a pending one is left alone (false).
   */
  private enqueue(shopId: string, deliveryId: string, redrive: boolean): Promise<boolean> {
    const work = async () => {
      if (redrive) {
        const existing = await this.queue.getJob(deliveryId);
        if (existing) {
          if (PENDING_JOB_STATES.has(await existing.getState())) return false;
          await existing.remove();
        }
      }
      await addJob(
        this.queue,
        Jobs.ShopifyWebhook,
        { shopId, deliveryId },
        { ...INGESTION_JOB_OPTIONS, jobId: deliveryId },
      );
      return true;
    };
    return withTimeout(work(), ENQUEUE_TIMEOUT_MS, 'the ingestion queue (Redis)');
  }
}

function parsePayload(raw: string): unknown {
  try {
    return parseJsonLossless(raw);
  } catch {
    throw new PayloadError('The stored payload is not JSON');
  }
}
