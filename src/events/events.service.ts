import { InjectQueue } from '@nestjs/bull';
import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import type { Queue } from 'bull';
import type { Types } from 'mongoose';
import { AuditRelays } from '../audit/audit-relays';
import type { AuditRecord } from '../audit/audit-record';
import { Clock } from '../common/clock/clock';
import { NotFoundError } from '../common/errors';
import { nextOffset } from '../common/pagination';
import { shopScope, type ShopScope } from '../common/tenancy';
import { addJob, jobEntry, Jobs, Queues } from '../queues/jobs';
import type { EventDto, EventListDto, EventListQueryDto } from './dto/event.dto';
import { EventDeliveriesRepository, NewDelivery } from './event-deliveries.repository';
import { type EventType, fromAudit } from '../event-port/event-catalogue';
import { toEventResponse } from './event.mapper';
import { EventObjects } from './event-objects';
import { EventSink } from '../event-port/event-sink';
import { deliveryId, eventIdFor, matchingEndpoints } from '../event-port/fan-out';
import { OutboundEventsRepository } from './outbound-events.repository';
import type { OutboundEvent } from './outbound-event.schema';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';
import type { WebhookEndpoint } from '../event-port/webhook-endpoint.schema';

/** Events older than this are not listed (GET /v1/events, replay): the retention of the catalogue. */
export const EVENT_WINDOW_MS = 30 * 24 * 3600 * 1000;

/** What a delivery job names. */
export type QueuedDelivery = {
  _id: Types.ObjectId | string;
  endpointId: Types.ObjectId | string;
  eventId: string;
};

/** An event to record: its deterministic id, type, time and `data.object`. */
export interface EventDraft {
  id: string;
  type: EventType;
  createdAt: Date;
  object: Record<string, unknown>;
}

/**
 * Records outbound events and fans them out. How durable the recording is depends on the source:
 * `outbox` — the event is derived from an audit record still in its document's outbox (which is
 * emptied only after this returns, else the repair job calls again), so nothing more is needed;
 * `sweeper` — any other source: the event is stored with `fanoutPendingAt` and the sweeper
 * finishes a fan-out a crash interrupted. Every step is idempotent (deterministic ids).
 */
@Injectable()
export class EventsService implements OnModuleInit {
  private readonly logger = new Logger('Events');

  constructor(
    private readonly events: OutboundEventsRepository,
    private readonly deliveries: EventDeliveriesRepository,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly objects: EventObjects,
    private readonly relays: AuditRelays,
    private readonly clock: Clock,
    private readonly sink: EventSink,
    @InjectQueue(Queues.Events) private readonly queue: Queue,
  ) {}

  onModuleInit(): void {
    this.relays.register({ relayed: (records) => this.fromAudit(records) });
    this.sink.register(this);
  }

  /** The outbound events of audit records leaving their outboxes (AuditRelays). */
  async fromAudit(records: AuditRecord[]): Promise<void> {
    const typedByShop = new Map<string, Array<{ type: EventType; record: AuditRecord }>>();
    for (const r of records) {
      const type = fromAudit(r);
      if (!type) continue;
      const shopId = String(r.shopId);
      typedByShop.set(shopId, [...(typedByShop.get(shopId) ?? []), { type, record: r }]);
    }
    const byShop = new Map<string, EventDraft[]>();
    for (const [shopId, typed] of typedByShop) {
      // One read for all the line items of a shop's records (a 100-line fulfillment: 1, not 100).
      const objects = await this.objects.renderAll(shopScope(shopId), typed);
      byShop.set(
        shopId,
        typed.map(({ type, record }, i) => ({
          id: eventIdFor(String(record._id)),
          type,
          createdAt: new Date(record.at),
          object: objects[i],
        })),
      );
    }
    for (const [shopId, drafts] of byShop) {
      await this.record(shopScope(shopId), drafts, 'outbox');
      // the watchers (balance.negative) see these too: an adjustment moves a vendor's due
      await this.sink.notify(
        shopScope(shopId),
        drafts.map((d) => ({ key: d.id, type: d.type, createdAt: d.createdAt, object: d.object })),
      );
    }
  }

  async record(
    scope: ShopScope,
    drafts: EventDraft[],
    durability: 'outbox' | 'sweeper',
    known?: Array<Record<string, unknown>>,
  ): Promise<void> {
    if (drafts.length === 0) return;
    // The endpoints first: an event no endpoint subscribes to is stored without a pending fan-out,
    // so recording it is two commands (this read and the insert) instead of four. An endpoint
    // created after this read gets only later events (as it would a moment later).
    // `known`: read by the caller in its own combined read (event-port/endpoint-reads.repository.ts), just before.
    const endpoints = known ? (known as unknown as WebhookEndpoint[]) : await this.endpoints.all(scope);
    const targeted = drafts.some((d) => matchingEndpoints(endpoints, d.type).length > 0);
    const pendingAt = durability === 'sweeper' && targeted ? this.clock.now() : null;
    await this.events.insert(
      scope,
      drafts.map((d) => ({
        _id: d.id,
        type: d.type,
        createdAt: d.createdAt,
        body: eventBody(scope, d),
        fanoutPendingAt: pendingAt,
      })),
    );
    if (!targeted) return;
    await this.deliverTo(scope, drafts, endpoints);
    if (pendingAt)
      await this.events.markFannedOut(
        scope,
        drafts.map((d) => d.id),
      );
  }

  /** One delivery per event and matching endpoint, each queued for its first attempt. */
  async fanOut(
    scope: ShopScope,
    events: Array<Pick<EventDraft, 'id' | 'type'>>,
    only?: WebhookEndpoint,
  ): Promise<NewDelivery[]> {
    return this.deliverTo(scope, events, only ? [only] : await this.endpoints.all(scope), !!only);
  }

  /** The deliveries of these events to the endpoints among `endpoints` that subscribe to each. */
  private async deliverTo(
    scope: ShopScope,
    events: Array<Pick<EventDraft, 'id' | 'type'>>,
    endpoints: WebhookEndpoint[],
    everyOne = false,
  ): Promise<NewDelivery[]> {
    if (endpoints.length === 0) return [];
    const rows: NewDelivery[] = [];
    for (const e of events) {
      for (const endpoint of everyOne ? endpoints : matchingEndpoints(endpoints, e.type)) {
        rows.push({
          _id: deliveryId(e.id, endpoint._id),
          endpointId: endpoint._id,
          eventId: e.id,
          eventType: e.type,
        });
      }
    }
    await this.deliveries.insert(scope, rows, this.clock.now());
    await this.enqueue(scope, rows);
    return rows;
  }

  /** Queues first attempts; a lost job is re-driven by the sweeper (the delivery is durable). */
  async enqueue(scope: ShopScope, deliveries: QueuedDelivery[], delayMs = 0): Promise<void> {
    if (deliveries.length === 0) return;
    const data = (d: QueuedDelivery) => ({
      shopId: scope.shopId,
      deliveryId: String(d._id),
      endpointId: String(d.endpointId),
      eventId: d.eventId,
    });
    try {
      if (deliveries.length === 1)
        await addJob(this.queue, Jobs.DeliverEvent, data(deliveries[0]), jobOpts(delayMs));
      else
        await this.queue.addBulk(
          deliveries.map((d) => jobEntry(Jobs.DeliverEvent, data(d), jobOpts(delayMs))),
        );
    } catch (err) {
      this.logger.warn(
        { err: (err as Error)?.message, count: deliveries.length },
        'Deliveries not queued; the sweeper re-drives them',
      );
    }
  }

  /** Finishes the fan-out of an event a crash interrupted (sweeper). */
  async finishFanOut(scope: ShopScope, eventId: string): Promise<void> {
    const [event] = await this.events.findMany(scope, [eventId]);
    if (!event) return;
    await this.fanOut(scope, [{ id: event._id, type: event.type as EventType }]);
    await this.events.markFannedOut(scope, [eventId]);
  }

  async list(scope: ShopScope, q: EventListQueryDto): Promise<EventListDto> {
    const { total, items } = await this.events.page(
      scope,
      { type: q.type, createdAt: this.window(q.since, q.until) },
      q,
    );
    return { total, nextOffset: nextOffset(q, total), events: items.map(toEventResponse) };
  }

  async get(scope: ShopScope, id: string): Promise<EventDto> {
    const event = await this.events.findById(scope, id);
    if (!event || event.createdAt.getTime() < this.clock.now().getTime() - EVENT_WINDOW_MS)
      throw new NotFoundError('Event');
    return toEventResponse(event);
  }

  /** Which of these event ids are stored (EventRecorder: finishers clear the markers of those). */
  storedIds(scope: ShopScope, ids: string[]): Promise<Set<string>> {
    return this.events.storedIds(scope, ids);
  }

  /** The stored events (their exact bodies) of deliveries. */
  storedMany(scope: ShopScope, ids: string[]): Promise<OutboundEvent[]> {
    return this.events.findMany(scope, ids);
  }

  /** `since`/`until` clamped to the 30-day window. */
  window(since?: string, until?: string): { $gte: Date; $lte?: Date } {
    const floor = this.clock.now().getTime() - EVENT_WINDOW_MS;
    const from = since ? Math.max(floor, Date.parse(since)) : floor;
    return until ? { $gte: new Date(from), $lte: new Date(until) } : { $gte: new Date(from) };
  }
}

function jobOpts(delayMs: number) {
  return {
    removeOnComplete: true,
    removeOnFail: 1000,
    attempts: 1,
    ...(delayMs > 0 ? { delay: Math.ceil(delayMs) } : {}),
  };
}

/** The JSON body of an event (Standard Webhooks payload), fixed once stored. */
export function eventBody(scope: ShopScope, d: EventDraft): string {
  return JSON.stringify({
    id: d.id,
    type: d.type,
    createdAt: d.createdAt.toISOString(),
    shopId: scope.shopId,
    apiVersion: 'v1',
    data: { object: d.object },
  });
}
