import { Inject, Injectable, Logger } from '@nestjs/common';
import type Redis from 'ioredis';
import type { Types } from 'mongoose';
import { AuditTrail } from '../audit/audit-trail.service';
import { Clock } from '../common/clock/clock';
import { OutboundHttpError, outboundRequest } from '../common/http/outbound/outbound-http';
import { shopScope, toObjectId, type ShopScope } from '../common/tenancy';
import { appConfig, AppConfig, webhooksConfig, WebhooksConfig } from '../config/configuration';
import type { DeliverEventJobData } from '../queues/jobs';
import { REDIS } from '../redis/redis.module';
import { EndpointGate } from './endpoint-gate';
import { EndpointSecrets } from './endpoint-secrets';
import { EventDeliveriesRepository, RecordedAttempt } from './event-deliveries.repository';
import type { DeliveryAttempt, EventDelivery } from './event-delivery.schema';
import { EventMetrics } from './event-metrics';
import { EventsService } from './events.service';
import { mayReceive } from '../event-port/fan-out';
import { MicroBatch } from './micro-batch';
import type { OutboundEvent } from './outbound-event.schema';
import { afterAttempt } from './retry-schedule';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';
import type { WebhookEndpoint } from '../event-port/webhook-endpoint.schema';
import { signDelivery } from './webhook-signing';
import { DELIVERY_TIMEOUT_MS, WebhookTargets } from './webhook-targets';

const EXCERPT_BYTES = 512;
/** A claim outlives the attempt's deadline, so a slow attempt is never sent twice at once. */
const CLAIM_MS = DELIVERY_TIMEOUT_MS + 30_000;

type Sent = { status: number | null; retryAfter: string | undefined; attempt: DeliveryAttempt };

const byId = <T extends { _id: unknown }>(rows: T[]) => new Map(rows.map((r) => [String(r._id), r]));

/**
 * Sends one delivery attempt (the `deliver-event` job): claims the delivery in Redis (one attempt at
 * a time across processes), reads it with its endpoint and stored event, signs the stored body with
 * every active secret, POSTs it through the outbound-HTTP guard, logs the attempt and decides what
 * follows (success, the next attempt on the schedule, failure, or disabling the endpoint). Reads
 * and the attempt log are coalesced across concurrent attempts (MicroBatch): the store serialises
 * commands, and one `$in` read or bulk write costs a fraction of many single ones.
 * MongoDB: runs commands in parallel; coalescing still saves it round trips, never changes an answer.
 */
@Injectable()
export class EventDispatcher {
  private readonly logger = new Logger('EventDispatcher');
  private readonly gate: EndpointGate;
  private readonly deliveryReads: MicroBatch<Types.ObjectId, EventDelivery>;
  private readonly endpointReads: MicroBatch<Types.ObjectId, WebhookEndpoint>;
  private readonly eventReads: MicroBatch<string, OutboundEvent>;
  private readonly attemptLog: MicroBatch<RecordedAttempt, void>;

  constructor(
    private readonly deliveries: EventDeliveriesRepository,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly events: EventsService,
    private readonly secrets: EndpointSecrets,
    private readonly targets: WebhookTargets,
    private readonly metrics: EventMetrics,
    private readonly audit: AuditTrail,
    private readonly clock: Clock,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(webhooksConfig.KEY) private readonly cfg: WebhooksConfig,
    @Inject(appConfig.KEY) private readonly app: AppConfig,
  ) {
    this.gate = new EndpointGate(cfg.endpointConcurrency, cfg.shopConcurrency);
    this.deliveryReads = new MicroBatch(
      (shop, ids) => this.deliveries.findMany(shopScope(shop), ids).then(byId),
      String,
    );
    this.endpointReads = new MicroBatch(
      (shop, ids) => this.endpoints.findMany(shopScope(shop), ids).then(byId),
      String,
    );
    this.eventReads = new MicroBatch(
      (shop, ids) => this.events.storedMany(shopScope(shop), ids).then(byId),
      String,
    );
    this.attemptLog = new MicroBatch(
      (shop, rows) => this.deliveries.recordAttempts(shopScope(shop), rows),
      (r) => String(r.id),
    );
  }

  /**
   * The job: waits for the attempt when the endpoint and its shop have a free slot, else leaves it
   * in the endpoint's line and returns (the queue slot goes to another endpoint's delivery).
   */
  async deliver(
    scope: ShopScope,
    job: Pick<DeliverEventJobData, 'deliveryId' | 'endpointId' | 'eventId'>,
  ): Promise<void> {
    const _id = toObjectId(job.deliveryId);
    const endpointId = toObjectId(job.endpointId);
    if (!_id || !endpointId) return;
    // The slots are taken before anything of the attempt (claim, reads, DNS): a waiting one costs nothing.
    const target = { shopId: scope.shopId, endpointId: job.endpointId };
    const run = this.gate.submit(target, job.deliveryId, () =>
      this.attempt(scope, _id, endpointId, job.eventId),
    );
    if (run !== 'queued' && run !== 'dropped') await run;
  }

  private async attempt(
    scope: ShopScope,
    id: Types.ObjectId,
    endpointId: Types.ObjectId,
    eventId: string,
  ): Promise<void> {
    const claim = `${this.app.queuePrefix}:event-claim:${String(id)}`;
    if ((await this.redis.set(claim, '1', 'PX', CLAIM_MS, 'NX')) !== 'OK') return;
    try {
      // one read stage: the job names the delivery's endpoint and event
      const [delivery, endpoint, event] = await Promise.all([
        this.deliveryReads.load(scope.shopId, id),
        this.endpointReads.load(scope.shopId, endpointId),
        this.eventReads.load(scope.shopId, eventId),
      ]);
      if (!delivery || delivery.status !== 'pending' || !delivery.endpointId.equals(endpointId)) return;
      if (delivery.nextAttemptAt && delivery.nextAttemptAt.getTime() > this.clock.now().getTime()) return;
      // mayReceive: a delivery made before its endpoint was narrowed to a merchant's scope is not sent
      if (!endpoint || endpoint.status !== 'enabled' || !event || !mayReceive(endpoint, delivery.eventType)) {
        await this.deliveries.abandon(scope, id);
        return;
      }
      const sent = await this.send(scope, endpoint, delivery.eventId, event.body);
      await this.conclude(scope, endpoint, delivery, sent, event.createdAt);
    } finally {
      await this.redis.del(claim).catch(() => undefined);
    }
  }

  private async send(
    scope: ShopScope,
    endpoint: WebhookEndpoint,
    msgId: string,
    body: string,
  ): Promise<Sent> {
    const now = this.clock.now();
    const keys = this.secrets.forSigning(scope, endpoint, now);
    if (!keys.ok) return this.unsigned(scope, endpoint, msgId, keys, now);
    // The timestamp is the wall clock of the sending machine: receivers check it against theirs.
    const headers = signDelivery(msgId, body, keys.secrets, new Date(), now);
    const started = Date.now();
    try {
      const res = await outboundRequest(
        { method: 'POST', url: endpoint.url, headers: { ...headers }, body },
        this.targets.policy(),
      );
      return {
        status: res.status,
        retryAfter: res.headers['retry-after'],
        attempt: {
          at: now,
          statusCode: res.status,
          durationMs: res.durationMs,
          error: null,
          response: res.body.subarray(0, EXCERPT_BYTES).toString('utf8') || null,
        },
      };
    } catch (err) {
      const reason =
        err instanceof OutboundHttpError ? `${err.reason}: ${err.message}` : 'network: request failed';
      return {
        status: null,
        retryAfter: undefined,
        attempt: {
          at: now,
          statusCode: null,
          durationMs: Date.now() - started,
          error: reason,
          response: null,
        },
      };
    }
  }

  /**
   * An attempt that cannot be signed is never sent (issue 28): it fails like an unreachable
   * receiver (logged in the delivery log, retried on the schedule, so a key put back or a secret
   * rotated by the shop lets it through), with an error log and its own metric for the operator.
   */
  private unsigned(
    scope: ShopScope,
    endpoint: WebhookEndpoint,
    msgId: string,
    keys: { active: number; unreadable: number },
    now: Date,
  ): Sent {
    this.metrics.unsignable();
    this.logger.error(
      {
        shopId: scope.shopId,
        endpointId: String(endpoint._id),
        eventId: msgId,
        activeSecrets: keys.active,
        unreadable: keys.unreadable,
      },
      'Webhook delivery not sent: its signing secret opens under no configured DATA_ENCRYPTION_KEY ' +
        '(run secrets:rotate before dropping a key; the shop can rotate the endpoint secret)',
    );
    const error =
      keys.active === 0
        ? 'signing: the endpoint has no active signing secret; nothing was sent'
        : "signing: the endpoint's signing secret cannot be unsealed with the configured keys; nothing was sent";
    return {
      status: null,
      retryAfter: undefined,
      attempt: { at: now, statusCode: null, durationMs: 0, error, response: null },
    };
  }

  private async conclude(
    scope: ShopScope,
    endpoint: WebhookEndpoint,
    delivery: EventDelivery,
    sent: Sent,
    eventCreatedAt: Date,
  ): Promise<void> {
    const now = this.clock.now();
    const failed = !(sent.status !== null && sent.status >= 200 && sent.status < 300);
    const attemptCount = delivery.attemptCount ?? 0;
    const verdict = afterAttempt({
      attempt: attemptCount + 1,
      status: sent.status,
      retryAfter: sent.retryAfter,
      now,
      scheduleMs: this.cfg.retryScheduleMs,
      failingSince: failed ? (endpoint.failingSince ?? now) : null,
    });
    this.metrics.attempt(sent.status, sent.attempt.durationMs, verdict.kind);
    const next =
      verdict.kind === 'retry'
        ? { status: 'pending' as const, nextAttemptAt: verdict.at }
        : {
            status: verdict.kind === 'succeeded' ? ('succeeded' as const) : ('failed' as const),
            nextAttemptAt: null,
          };
    await this.attemptLog.load(scope.shopId, { id: delivery._id, attemptCount, attempt: sent.attempt, next });
    if (verdict.kind === 'retry')
      await this.events.enqueue(scope, [delivery], verdict.at.getTime() - now.getTime());
    if (verdict.kind === 'succeeded') {
      this.metrics.delivered(Date.now() - eventCreatedAt.getTime());
      if (endpoint.failingSince) await this.endpoints.markHealthy(scope, endpoint._id);
      return;
    }
    if (!endpoint.failingSince) await this.endpoints.markFailing(scope, endpoint._id, now);
    if (verdict.kind === 'disable' && (await this.endpoints.disable(scope, endpoint._id, verdict.reason))) {
      this.metrics.disabled();
      this.logger.warn(
        { shopId: scope.shopId, endpointId: String(endpoint._id), reason: verdict.reason },
        'Webhook endpoint disabled',
      );
      // The shop learns it from its audit trail (actor platform) as well as from the endpoint itself.
      await this.audit.platformEvents(scope, 'webhook_endpoint.disable', [
        {
          resource: { type: 'webhook_endpoint', id: String(endpoint._id) },
          after: { status: 'disabled', disabledReason: verdict.reason, url: endpoint.url },
        },
      ]);
    }
  }
}
