import { Injectable } from '@nestjs/common';
import { Types } from 'mongoose';
import { AuditTrail } from '../audit/audit-trail.service';
import { applySet } from '../audit/audit-record';
import { Clock } from '../common/clock/clock';
import { ConflictError, NotFoundError, ValidationError } from '../common/errors';
import { assertOutboundUrl, OutboundHttpError } from '../common/http/outbound/outbound-http';
import { nextOffset } from '../common/pagination';
import { toObjectId, type ShopScope } from '../common/tenancy';
import type { DeliveryDto, DeliveryListDto, DeliveryListQueryDto } from './dto/event.dto';
import type {
  CreateWebhookEndpointDto,
  DeletedWebhookEndpointDto,
  TestEventResultDto,
  UpdateWebhookEndpointDto,
  WebhookEndpointDto,
  WebhookEndpointListDto,
  WebhookEndpointWithSecretDto,
} from './dto/webhook-endpoint.dto';
import { assertMerchantMay, assertMerchantMayRotate, endpointAuditView } from './endpoint-scope';
import { EndpointSecrets } from './endpoint-secrets';
import { EventDeliveriesRepository } from './event-deliveries.repository';
import { toDeliveryResponse, toEndpointResponse } from './event.mapper';
import { eventBody, EventsService } from './events.service';
import { deliveryId, eventIdFor } from '../event-port/fan-out';
import { OutboundEventsRepository } from './outbound-events.repository';
import { newSigningSecret, rotateSecrets } from './webhook-signing';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';
import type { EndpointCredential, WebhookEndpoint } from '../event-port/webhook-endpoint.schema';
import { WebhookTargets } from './webhook-targets';

export const MAX_ENDPOINTS_PER_SHOP = 16;
const RESOURCE = 'webhook_endpoint' as const;

/**
 * The shop's webhook endpoints (v1 shop token, V2 merchant token): one resource, two generations.
 * Every write is in the audit trail (never a secret); what a merchant token may subscribe an
 * endpoint to is limited to what it reads (endpoint-scope.ts). Replay: WebhookEndpointReplay.
 */
@Injectable()
export class WebhookEndpointsService {
  constructor(
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly deliveries: EventDeliveriesRepository,
    private readonly events: OutboundEventsRepository,
    private readonly outbound: EventsService,
    private readonly secrets: EndpointSecrets,
    private readonly targets: WebhookTargets,
    private readonly clock: Clock,
    private readonly audit: AuditTrail,
  ) {}

  /** `credential`: the kind of token asking (a merchant's endpoint receives only what it reads). */
  async create(
    scope: ShopScope,
    credential: EndpointCredential,
    dto: CreateWebhookEndpointDto,
  ): Promise<WebhookEndpointWithSecretDto> {
    const enabledEvents = normalEvents(dto.enabledEvents);
    if (credential === 'merchant') assertMerchantMay(enabledEvents, 'requested');
    const url = await this.checkedUrl(dto.url);
    if ((await this.endpoints.count(scope)) >= MAX_ENDPOINTS_PER_SHOP)
      throw new ValidationError(`A shop can have at most ${MAX_ENDPOINTS_PER_SHOP} webhook endpoints`);
    const secret = newSigningSecret();
    const data = {
      _id: new Types.ObjectId(),
      url,
      description: dto.description ?? null,
      enabledEvents,
      createdBy: credential,
      eventScope: credential,
    };
    const stamp = this.audit.begin();
    const event = this.audit.created(scope, stamp, 'webhook_endpoint.create', res(data._id), {
      ...endpointAuditView({ ...data, status: 'enabled' }),
    });
    const created = await this.endpoints.create(
      scope,
      {
        ...data,
        secrets: this.secrets.seal(scope, [{ secret, createdAt: this.clock.now(), expiresAt: null }]),
      },
      stamp,
      event,
    );
    await this.audit.commit(scope, this.endpoints.outbox, stamp, [event], 'all');
    return { ...toEndpointResponse(created), secret };
  }

  async list(scope: ShopScope, page: { offset: number; limit: number }): Promise<WebhookEndpointListDto> {
    const { total, items } = await this.endpoints.page(scope, page);
    return { total, nextOffset: nextOffset(page, total), endpoints: items.map(toEndpointResponse) };
  }

  async get(scope: ShopScope, id: string): Promise<WebhookEndpointDto> {
    return toEndpointResponse(await this.load(scope, id));
  }

  /**
   * A merchant token that sets the URL or the event types makes the endpoint its own (`eventScope`
   * merchant: only what a merchant reads) and is refused (403) when those types include others; a
   * shop token that sets the event types makes it the shop's again. Description and status change
   * nothing about what it receives.
   */
  async update(
    scope: ShopScope,
    credential: EndpointCredential,
    id: string,
    dto: UpdateWebhookEndpointDto,
  ): Promise<WebhookEndpointDto> {
    const current = await this.load(scope, id);
    const set: Record<string, unknown> = {};
    if (dto.enabledEvents !== undefined) set.enabledEvents = normalEvents(dto.enabledEvents);
    if (credential === 'merchant' && (dto.url !== undefined || dto.enabledEvents !== undefined)) {
      assertMerchantMay(
        (set.enabledEvents as string[] | undefined) ?? current.enabledEvents,
        dto.enabledEvents !== undefined ? 'requested' : 'kept',
      );
      set.eventScope = 'merchant';
    }
    if (credential === 'shop' && dto.enabledEvents !== undefined) set.eventScope = 'shop';
    if (dto.url !== undefined) set.url = await this.checkedUrl(dto.url);
    if (dto.description !== undefined) set.description = dto.description;
    if (dto.status === 'enabled')
      Object.assign(set, { status: 'enabled', disabledReason: null, failingSince: null });
    if (dto.status === 'disabled')
      Object.assign(set, { status: 'disabled', disabledReason: 'Disabled by the shop' });
    if (Object.keys(set).length === 0) return toEndpointResponse(current);
    const stamp = this.audit.begin();
    const before = endpointAuditView(current);
    const event = this.audit.changed(
      scope,
      stamp,
      'webhook_endpoint.update',
      res(current._id),
      before,
      endpointAuditView(applySet(before, set) as Partial<WebhookEndpoint>),
    );
    // Widening to the shop's scope holds only for the URL the shop saw (a merchant may have moved it).
    const expect = set.eventScope === 'shop' ? { url: current.url } : {};
    const updated = await this.endpoints.update(scope, current._id, set, stamp, event, expect);
    if (!updated) {
      if (await this.endpoints.findById(scope, current._id))
        throw new ConflictError('The endpoint was changed meanwhile; read it again and repeat the change');
      throw new NotFoundError('Webhook endpoint');
    }
    await this.audit.commit(scope, this.endpoints.outbox, stamp, [event], [updated._id]);
    return toEndpointResponse(updated);
  }

  async remove(scope: ShopScope, id: string): Promise<DeletedWebhookEndpointDto> {
    const current = await this.load(scope, id);
    const pending = await this.audit.intendDelete(
      scope,
      this.audit.begin(),
      'webhook_endpoint.delete',
      res(current._id),
      endpointAuditView(current),
      'webhook_endpoints',
    );
    const deleted = await this.endpoints.delete(scope, current._id);
    await this.audit.finishDelete(scope, pending, deleted);
    if (!deleted) throw new NotFoundError('Webhook endpoint');
    return { id: String(current._id), deleted: true };
  }

  /** A new secret; the old one keeps signing (a second signature) for 24 h. */
  async rotateSecret(
    scope: ShopScope,
    credential: EndpointCredential,
    id: string,
  ): Promise<WebhookEndpointWithSecretDto> {
    const current = await this.load(scope, id);
    if (credential === 'merchant') assertMerchantMayRotate(current);
    const secret = newSigningSecret();
    const now = this.clock.now();
    const rotated = rotateSecrets(this.secrets.reveal(scope, current), secret, now);
    // rotateSecrets puts the new secret first and the one it replaces, now expiring, second
    const previous = rotated[1] ?? null;
    const stamp = this.audit.begin();
    // Dates only: what changed is a secret, which never enters the trail.
    const event = this.audit.changed(
      scope,
      stamp,
      'webhook_endpoint.rotate_secret',
      res(current._id),
      {},
      {},
      {
        before: { secretCreatedAt: current.secrets?.find((x) => !x.expiresAt)?.createdAt ?? null },
        after: { secretCreatedAt: now, previousSecretExpiresAt: previous?.expiresAt ?? null },
      },
    );
    const updated = await this.endpoints.setSecrets(
      scope,
      current._id,
      this.secrets.seal(scope, rotated),
      stamp,
      event,
    );
    if (!updated) throw new NotFoundError('Webhook endpoint');
    await this.audit.commit(scope, this.endpoints.outbox, stamp, [event], [updated._id]);
    return { ...toEndpointResponse(updated), secret };
  }

  /** Sends a `ping` event to this endpoint only (whatever it subscribes to). */
  async test(scope: ShopScope, id: string): Promise<TestEventResultDto> {
    const endpoint = await this.load(scope, id);
    const now = this.clock.now();
    const eventId = eventIdFor(new Types.ObjectId().toHexString());
    const draft = {
      id: eventId,
      type: 'ping' as const,
      createdAt: now,
      object: { endpointId: String(endpoint._id) },
    };
    await this.events.insert(scope, [
      { _id: eventId, type: 'ping', createdAt: now, body: eventBody(scope, draft), fanoutPendingAt: null },
    ]);
    await this.outbound.fanOut(scope, [draft], endpoint);
    return { eventId, deliveryId: String(deliveryId(eventId, endpoint._id)) };
  }

  async listDeliveries(scope: ShopScope, id: string, q: DeliveryListQueryDto): Promise<DeliveryListDto> {
    const endpoint = await this.load(scope, id);
    const createdAt =
      q.since || q.until
        ? { ...(q.since ? { $gte: new Date(q.since) } : {}), ...(q.until ? { $lte: new Date(q.until) } : {}) }
        : undefined;
    const { total, items } = await this.deliveries.page(
      scope,
      endpoint._id,
      { status: q.status, eventType: q.eventType, createdAt },
      q,
    );
    return { total, nextOffset: nextOffset(q, total), deliveries: items.map(toDeliveryResponse) };
  }

  /** Starts a delivery over now (the schedule from the top; same `webhook-id`). */
  async retry(scope: ShopScope, id: string, deliveryKey: string): Promise<DeliveryDto> {
    const endpoint = await this.load(scope, id);
    const did = toObjectId(deliveryKey);
    const delivery = did ? await this.deliveries.findById(scope, did) : null;
    if (!delivery || !delivery.endpointId.equals(endpoint._id)) throw new NotFoundError('Delivery');
    const restarted = await this.deliveries.restart(scope, delivery._id, this.clock.now());
    if (!restarted) throw new NotFoundError('Delivery');
    await this.outbound.enqueue(scope, [restarted]);
    return toDeliveryResponse(restarted);
  }

  async load(scope: ShopScope, id: string): Promise<WebhookEndpoint> {
    const found = await this.endpoints.findById(scope, id);
    if (!found) throw new NotFoundError('Webhook endpoint');
    return found;
  }

  /** The URL as the guard will see it at every attempt: refused here with a 422 saying why. */
  private async checkedUrl(url: string): Promise<string> {
    try {
      return (await assertOutboundUrl(url, this.targets.policy())).toString();
    } catch (err) {
      if (!(err instanceof OutboundHttpError)) throw err;
      throw new ValidationError(`url is not an allowed webhook target: ${err.message}`, {
        fields: { url: [err.message] },
        reason: err.reason,
      });
    }
  }
}

const res = (id: Types.ObjectId) => ({ type: RESOURCE, id });

/** `*` alone stands for everything; otherwise the listed types in catalogue order. */
function normalEvents(list: string[] | undefined): string[] {
  if (!list || list.includes('*')) return ['*'];
  return [...new Set(list)].sort();
}
