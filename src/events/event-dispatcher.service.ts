import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Types } from 'mongoose';
import { Clock } from '../common/clock/clock';
import { OutboundHttpError, outboundRequest } from '../common/http/outbound/outbound-http';
import type { ShopScope } from '../common/tenancy';
import { webhooksConfig, WebhooksConfig } from '../config/configuration';
import { EndpointGate } from './endpoint-gate';
import { EventDeliveriesRepository } from './event-deliveries.repository';
import type { DeliveryAttempt, EventDelivery } from './event-delivery.schema';
import { EventMetrics } from './event-metrics';
import { EventsService } from './events.service';
import { afterAttempt } from './retry-schedule';
import { signDelivery, SigningSecret } from './webhook-signing';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';
import type { WebhookEndpoint } from './webhook-endpoint.schema';
import { EndpointSecrets } from './endpoint-secrets';
import { DELIVERY_TIMEOUT_MS, WebhookTargets } from './webhook-targets';

const EXCERPT_BYTES = 512;
/** A claim outlives the attempt's deadline, so a slow attempt is never sent twice at once. */
const CLAIM_MS = DELIVERY_TIMEOUT_MS + 30_000;

/**
 * Sends one delivery attempt (the `deliver-event` job): claims the delivery, signs the stored body
 * with every active secret, POSTs it through the outbound-HTTP guard, logs the attempt, and decides
 * what follows (success, the next attempt on the schedule, failure, or disabling the endpoint).
 */
@Injectable()
export class EventDispatcher {
  private readonly logger = new Logger('EventDispatcher');
  private readonly gate: EndpointGate;

  constructor(
    private readonly deliveries: EventDeliveriesRepository,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly events: EventsService,
    private readonly secrets: EndpointSecrets,
    private readonly targets: WebhookTargets,
    private readonly metrics: EventMetrics,
    private readonly clock: Clock,
    @Inject(webhooksConfig.KEY) private readonly cfg: WebhooksConfig,
  ) {
    this.gate = new EndpointGate(cfg.endpointConcurrency);
  }

  /** The job: waits for the attempt when the endpoint has a free slot, else leaves it in its line. */
  async deliver(scope: ShopScope, id: string): Promise<void> {
    const delivery = await this.deliveries.findById(scope, id);
    if (!delivery || delivery.status !== 'pending') return;
    const run = this.gate.submit(String(delivery.endpointId), id, () => this.attempt(scope, delivery._id));
    if (run !== 'queued' && run !== 'dropped') await run;
  }

  private async attempt(scope: ShopScope, id: Types.ObjectId): Promise<void> {
    const now = this.clock.now();
    const delivery = await this.deliveries.claim(scope, id, now, new Date(now.getTime() + CLAIM_MS));
    if (!delivery) return;
    const endpoint = await this.endpoints.findById(scope, delivery.endpointId);
    if (!endpoint || endpoint.status !== 'enabled') {
      await this.deliveries.abandon(scope, id);
      return;
    }
    const event = await this.events.stored(scope, delivery.eventId);
    if (!event) {
      await this.deliveries.abandon(scope, id);
      return;
    }
    const sent = await this.send(scope, endpoint, delivery.eventId, event.body);
    await this.conclude(scope, endpoint, delivery, sent, event.createdAt);
  }

  private async send(scope: ShopScope, endpoint: WebhookEndpoint, msgId: string, body: string) {
    const now = this.clock.now();
    const secrets: SigningSecret[] = this.secrets.reveal(scope, endpoint);
    // The timestamp is the wall clock of the sending machine: receivers check it against theirs.
    const headers = signDelivery(msgId, body, secrets, new Date(), now);
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
        } satisfies DeliveryAttempt,
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

  private async conclude(
    scope: ShopScope,
    endpoint: WebhookEndpoint,
    delivery: EventDelivery,
    sent: { status: number | null; retryAfter: string | undefined; attempt: DeliveryAttempt },
    eventCreatedAt: Date,
  ): Promise<void> {
    const now = this.clock.now();
    const failed = !(sent.status !== null && sent.status >= 200 && sent.status < 300);
    const verdict = afterAttempt({
      attempt: (delivery.attemptCount ?? 0) + 1,
      status: sent.status,
      retryAfter: sent.retryAfter,
      now,
      scheduleMs: this.cfg.retryScheduleMs,
      failingSince: failed ? (endpoint.failingSince ?? now) : null,
    });
    this.metrics.attempt(sent.status, sent.attempt.durationMs, verdict.kind);
    if (verdict.kind === 'retry') {
      await this.deliveries.recordAttempt(scope, delivery._id, sent.attempt, {
        status: 'pending',
        nextAttemptAt: verdict.at,
      });
      await this.events.enqueue(scope, [String(delivery._id)], verdict.at.getTime() - now.getTime());
    } else {
      const status = verdict.kind === 'succeeded' ? 'succeeded' : 'failed';
      await this.deliveries.recordAttempt(scope, delivery._id, sent.attempt, { status, nextAttemptAt: null });
    }
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
    }
  }
}
