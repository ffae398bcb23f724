import type { DeliveryDto, EventDto } from './dto/event.dto';
import type { WebhookEndpointDto } from './dto/webhook-endpoint.dto';
import type { EventDelivery } from './event-delivery.schema';
import type { OutboundEvent } from './outbound-event.schema';
import type { WebhookEndpoint } from '../event-port/webhook-endpoint.schema';

const iso = (d: Date | string | null | undefined): string | null => (d ? new Date(d).toISOString() : null);

export function toEndpointResponse(e: WebhookEndpoint): WebhookEndpointDto {
  return {
    id: String(e._id),
    url: e.url,
    description: e.description ?? null,
    enabledEvents: e.enabledEvents,
    status: e.status,
    disabledReason: e.disabledReason ?? null,
    eventScope: e.eventScope ?? 'shop',
    createdBy: e.createdBy ?? null,
    createdAt: iso(e.createdAt)!,
    updatedAt: iso(e.updatedAt ?? e.createdAt)!,
  };
}

/** The stored body is the event (exactly what endpoints receive). */
export function toEventResponse(e: OutboundEvent): EventDto {
  return JSON.parse(e.body) as EventDto;
}

export function toDeliveryResponse(d: EventDelivery): DeliveryDto {
  return {
    id: String(d._id),
    endpointId: String(d.endpointId),
    eventId: d.eventId,
    eventType: d.eventType,
    status: d.status,
    attemptCount: d.attemptCount ?? 0,
    nextAttemptAt: d.status === 'pending' ? iso(d.nextAttemptAt) : null,
    attempts: (d.attempts ?? []).map((a) => ({
      at: iso(a.at)!,
      statusCode: a.statusCode ?? null,
      durationMs: a.durationMs,
      error: a.error ?? null,
      response: a.response ?? null,
    })),
    createdAt: iso(d.createdAt)!,
    updatedAt: iso(d.updatedAt ?? d.createdAt)!,
  };
}
