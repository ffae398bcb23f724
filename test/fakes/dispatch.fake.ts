import { Types } from 'mongoose';
import type Redis from 'ioredis';
import type { AuditTrail } from '../../src/audit/audit-trail.service';
import { SystemClock } from '../../src/common/clock/clock';
import type { HostResolver, ResolvedAddress } from '../../src/common/http/outbound/host-resolver';
import { OutboundHttpError, type OutboundPolicy } from '../../src/common/http/outbound/outbound-http';
import { DataCipher } from '../../src/common/secrets/data-cipher';
import type { ShopScope } from '../../src/common/tenancy';
import type { AppConfig, WebhooksConfig } from '../../src/config/configuration';
import { EndpointSecrets } from '../../src/events/endpoint-secrets';
import type {
  EventDeliveriesRepository,
  RecordedAttempt,
} from '../../src/events/event-deliveries.repository';
import type { EventDelivery } from '../../src/events/event-delivery.schema';
import { EventDispatcher } from '../../src/events/event-dispatcher.service';
import { EventMetrics } from '../../src/events/event-metrics';
import type { EventsService } from '../../src/events/events.service';
import type { OutboundEvent } from '../../src/events/outbound-event.schema';
import type { SystemEventsRepository } from '../../src/events/system-events.repository';
import type { WebhookEndpoint } from '../../src/event-port/webhook-endpoint.schema';
import type { WebhookEndpointsRepository } from '../../src/events/webhook-endpoints.repository';
import { newSigningSecret } from '../../src/events/webhook-signing';
import { WebhookTargets } from '../../src/events/webhook-targets';
import { asReal, inScope } from './fake';

const ids = <T extends { _id: unknown }>(docs: T[], wanted: unknown[]): T[] =>
  docs.filter((d) => wanted.some((w) => String(w) === String(d._id)));

/**
 * A name resolver whose answers wait until the test releases them (a slow DNS server); `asked`
 * records every name in order. Every held query then fails as unresolvable (nothing is connected to).
 */
export class HeldResolver implements HostResolver {
  readonly asked: string[] = [];
  private readonly waiting: Array<() => void> = [];

  async resolve(host: string): Promise<ResolvedAddress[]> {
    this.asked.push(host);
    await new Promise<void>((ok) => this.waiting.push(ok));
    throw new OutboundHttpError('network', `The host ${host} could not be resolved`);
  }

  /** Lets every held query answer (each fails: nothing is connected to). */
  releaseAll(): void {
    this.waiting.splice(0).forEach((ok) => ok());
  }
}

/**
 * An EventDispatcher over in-memory deliveries, endpoints and events (the repository boundary),
 * the real gate, secrets (a real DataCipher) and metrics, and the outbound guard with `resolver`.
 */
export class DispatchBench {
  readonly cipher = new DataCipher(
    { encryptionKey: '11'.repeat(32), previousEncryptionKey: undefined },
    { jwtSecret: 'unit' },
    { nodeEnv: 'test' },
  );
  readonly secrets = new EndpointSecrets(this.cipher);
  readonly deliveries: EventDelivery[] = [];
  readonly endpoints: WebhookEndpoint[] = [];
  readonly events: OutboundEvent[] = [];
  readonly attempts: RecordedAttempt[] = [];
  readonly dispatcher: EventDispatcher;

  constructor(resolver: HostResolver, limits: { endpoint: number; shop: number }) {
    const cfg = {
      production: false,
      allowPrivateTargets: true,
      retryScheduleMs: [0, 60_000],
      deliveryConcurrency: 64,
      endpointConcurrency: limits.endpoint,
      shopConcurrency: limits.shop,
    } as WebhooksConfig;
    const targets = new (class extends WebhookTargets {
      override policy(): OutboundPolicy {
        return { ...super.policy(), timeoutMs: 5_000, resolver };
      }
    })(cfg);
    const deliveries: Pick<EventDeliveriesRepository, 'findMany' | 'recordAttempts' | 'abandon'> = {
      findMany: async (scope, wanted) => ids(inScope(scope, this.deliveries), wanted),
      recordAttempts: async (_scope, rows) => void this.attempts.push(...rows),
      abandon: async () => undefined,
    };
    const endpoints: Pick<
      WebhookEndpointsRepository,
      'findMany' | 'markFailing' | 'markHealthy' | 'disable'
    > = {
      findMany: async (scope, wanted) => ids(inScope(scope, this.endpoints), wanted),
      markFailing: async () => undefined,
      markHealthy: async () => undefined,
      disable: async () => false,
    };
    const events: Pick<EventsService, 'storedMany' | 'enqueue'> = {
      storedMany: async (scope, wanted) => ids(inScope(scope, this.events), wanted),
      enqueue: async () => undefined,
    };
    const redis = { set: async () => 'OK', del: async () => 1 };
    this.dispatcher = new EventDispatcher(
      asReal<EventDeliveriesRepository>(deliveries),
      asReal<WebhookEndpointsRepository>(endpoints),
      asReal<EventsService>(events),
      this.secrets,
      targets,
      new EventMetrics(asReal<SystemEventsRepository>({})),
      asReal<AuditTrail>({ platformEvents: async () => undefined }),
      new SystemClock(),
      asReal<Redis>(redis as unknown as Partial<Redis>),
      cfg,
      asReal<AppConfig>({ queuePrefix: 'unit' }),
    );
  }

  /** An endpoint of the shop at `url` with one signing secret, and a pending delivery of a ping to it. */
  pending(scope: ShopScope, url: string): { deliveryId: string; endpointId: string; eventId: string } {
    const shopId = new Types.ObjectId(scope.shopId);
    const endpointId = new Types.ObjectId();
    const eventId = `evt_${new Types.ObjectId().toHexString()}`;
    const now = new Date();
    this.endpoints.push({
      _id: endpointId,
      shopId,
      url,
      description: null,
      enabledEvents: ['*'],
      status: 'enabled',
      disabledReason: null,
      secrets: this.secrets.seal(scope, [{ secret: newSigningSecret(), createdAt: now, expiresAt: null }]),
      failingSince: null,
      createdBy: 'shop',
      eventScope: 'shop',
      lastReplayAt: null,
      createdAt: now,
      updatedAt: now,
    });
    this.events.push({
      _id: eventId,
      shopId,
      type: 'ping',
      createdAt: now,
      body: '{}',
      fanoutPendingAt: null,
    });
    const delivery = {
      _id: new Types.ObjectId(),
      shopId,
      endpointId,
      eventId,
      eventType: 'ping',
      status: 'pending' as const,
      attemptCount: 0,
      attempts: [],
      nextAttemptAt: null,
      createdAt: now,
      updatedAt: now,
    };
    this.deliveries.push(delivery);
    return { deliveryId: String(delivery._id), endpointId: String(endpointId), eventId };
  }
}
