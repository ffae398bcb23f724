import { Injectable } from '@nestjs/common';
import { Types } from 'mongoose';
import { Clock } from '../common/clock/clock';
import { NotFoundError, ValidationError } from '../common/errors';
import { assertOutboundUrl, OutboundHttpError } from '../common/http/outbound/outbound-http';
import { nextOffset } from '../common/pagination';
import { toObjectId, type ShopScope } from '../common/tenancy';
import type { DeliveryDto, DeliveryListDto, DeliveryListQueryDto } from './dto/event.dto';
import type {
  CreateWebhookEndpointDto,
  DeletedWebhookEndpointDto,
  ReplayResultDto,
  TestEventResultDto,
  UpdateWebhookEndpointDto,
  WebhookEndpointDto,
  WebhookEndpointListDto,
  WebhookEndpointWithSecretDto,
} from './dto/webhook-endpoint.dto';
import { EndpointSecrets } from './endpoint-secrets';
import { EventDeliveriesRepository } from './event-deliveries.repository';
import { EventType } from '../event-port/event-catalogue';
import { toDeliveryResponse, toEndpointResponse } from './event.mapper';
import { eventBody, EventsService } from './events.service';
import { deliveryId, eventIdFor, subscribes } from '../event-port/fan-out';
import { OutboundEventsRepository } from './outbound-events.repository';
import { newSigningSecret, rotateSecrets } from './webhook-signing';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';
import type { WebhookEndpoint } from './webhook-endpoint.schema';
import { WebhookTargets } from './webhook-targets';

export const MAX_ENDPOINTS_PER_SHOP = 16;
/** One replay re-sends at most this many events (the answer says when more matched). */
export const REPLAY_MAX = 10_000;

/** The shop's webhook endpoints (v1 shop token, V2 merchant token): one resource, two generations. */
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
  ) {}

  async create(scope: ShopScope, dto: CreateWebhookEndpointDto): Promise<WebhookEndpointWithSecretDto> {
    const url = await this.checkedUrl(dto.url);
    if ((await this.endpoints.count(scope)) >= MAX_ENDPOINTS_PER_SHOP)
      throw new ValidationError(`A shop can have at most ${MAX_ENDPOINTS_PER_SHOP} webhook endpoints`);
    const secret = newSigningSecret();
    const created = await this.endpoints.create(scope, {
      _id: new Types.ObjectId(),
      url,
      description: dto.description ?? null,
      enabledEvents: normalEvents(dto.enabledEvents),
      secrets: this.secrets.seal(scope, [{ secret, createdAt: this.clock.now(), expiresAt: null }]),
    });
    return { ...toEndpointResponse(created), secret };
  }

  async list(scope: ShopScope, page: { offset: number; limit: number }): Promise<WebhookEndpointListDto> {
    const { total, items } = await this.endpoints.page(scope, page);
    return { total, nextOffset: nextOffset(page, total), endpoints: items.map(toEndpointResponse) };
  }

  async get(scope: ShopScope, id: string): Promise<WebhookEndpointDto> {
    return toEndpointResponse(await this.load(scope, id));
  }

  async update(scope: ShopScope, id: string, dto: UpdateWebhookEndpointDto): Promise<WebhookEndpointDto> {
    const current = await this.load(scope, id);
    const set: Record<string, unknown> = {};
    if (dto.url !== undefined) set.url = await this.checkedUrl(dto.url);
    if (dto.description !== undefined) set.description = dto.description;
    if (dto.enabledEvents !== undefined) set.enabledEvents = normalEvents(dto.enabledEvents);
    if (dto.status === 'enabled')
      Object.assign(set, { status: 'enabled', disabledReason: null, failingSince: null });
    if (dto.status === 'disabled')
      Object.assign(set, { status: 'disabled', disabledReason: 'Disabled by the shop' });
    if (Object.keys(set).length === 0) return toEndpointResponse(current);
    const updated = await this.endpoints.update(scope, current._id, set);
    if (!updated) throw new NotFoundError('Webhook endpoint');
    return toEndpointResponse(updated);
  }

  async remove(scope: ShopScope, id: string): Promise<DeletedWebhookEndpointDto> {
    const current = await this.load(scope, id);
    if (!(await this.endpoints.delete(scope, current._id))) throw new NotFoundError('Webhook endpoint');
    return { id: String(current._id), deleted: true };
  }

  /** A new secret; the old one keeps signing (a second signature) for 24 h. */
  async rotateSecret(scope: ShopScope, id: string): Promise<WebhookEndpointWithSecretDto> {
    const current = await this.load(scope, id);
    const secret = newSigningSecret();
    const rotated = rotateSecrets(this.secrets.reveal(scope, current), secret, this.clock.now());
    const updated = await this.endpoints.setSecrets(scope, current._id, this.secrets.seal(scope, rotated));
    if (!updated) throw new NotFoundError('Webhook endpoint');
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

  /** Re-sends every event since `since` (within the 30 days kept) that the endpoint subscribes to. */
  async replay(scope: ShopScope, id: string, since: string): Promise<ReplayResultDto> {
    const endpoint = await this.load(scope, id);
    const at = Date.parse(since);
    if (Number.isNaN(at))
      throw new ValidationError('since must be an ISO 8601 date-time', {
        fields: { since: ['must be an ISO 8601 date-time'] },
      });
    const window = this.outbound.window(new Date(at).toISOString());
    const found = await this.events.since(scope, window.$gte, REPLAY_MAX + 1);
    const events = found
      .slice(0, REPLAY_MAX)
      .filter((e) => subscribes({ ...endpoint, status: 'enabled' }, e.type as EventType));
    const rows = events.map((e) => ({
      _id: deliveryId(e._id, endpoint._id),
      endpointId: endpoint._id,
      eventId: e._id,
      eventType: e.type,
    }));
    const now = this.clock.now();
    await this.deliveries.insert(scope, rows, now);
    await this.deliveries.restartMany(
      scope,
      rows.map((r) => r._id),
      now,
    );
    await this.outbound.enqueue(scope, rows);
    return { replayed: rows.length, truncated: found.length > REPLAY_MAX };
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

  private async load(scope: ShopScope, id: string): Promise<WebhookEndpoint> {
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

/** `*` alone stands for everything; otherwise the listed types in catalogue order. */
function normalEvents(list: string[] | undefined): string[] {
  if (!list || list.includes('*')) return ['*'];
  return [...new Set(list)].sort();
}
