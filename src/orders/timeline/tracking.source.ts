import { Injectable } from '@nestjs/common';
import type { ShipmentEvent } from '../../fulfillments/shipment-event.schema';
import { ShipmentEventsRepository } from '../../fulfillments/shipment-events.repository';
import type { LineItem } from '../../line-items/line-item.schema';
import type { TimelineContext, TimelineEntry, TimelineSource } from './timeline-entry';

const STATUS_TEXT: Record<ShipmentEvent['status'], string> = {
  in_transit: 'in transit',
  out_for_delivery: 'out for delivery',
  delivered: 'delivered',
  failed_delivery: 'delivery failed',
};

/**
 * `tracking_updated`: each shipment tracking event (POST /fulfillments/events…) of the caller's lines,
 * at its `happenedAt`. The repository narrows a vendor to its own lines' events in the query; the
 * shop reads every event of the order.
 */
@Injectable()
export class TrackingTimelineSource implements TimelineSource {
  constructor(private readonly events: ShipmentEventsRepository) {}

  async entries(ctx: TimelineContext): Promise<TimelineEntry[]> {
    return trackingEntries(await this.events.forOrder(ctx.scope, ctx.orderId), ctx.lines);
  }
}

/** The entries of the events; `lines` (the caller's rows) name each event's line by SKU or name. */
export function trackingEntries(events: ShipmentEvent[], lines: LineItem[]): TimelineEntry[] {
  const labels = new Map(lines.map((l) => [String(l._id), l.sku || l.name || `line ${l.lineItemId}`]));
  return events.map((e) => {
    const label = labels.get(String(e.lineItemId)) ?? 'A line';
    return {
      type: 'tracking_updated' as const,
      at: e.happenedAt,
      message: `${label}: ${STATUS_TEXT[e.status]}${e.message ? ` (${e.message})` : ''}`,
      data: {
        eventId: String(e._id),
        lineItemId: String(e.lineItemId),
        vendorId: e.vendorId ? String(e.vendorId) : null,
        status: e.status,
        message: e.message ?? null,
      },
    };
  });
}
