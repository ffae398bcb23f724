import { Injectable, OnModuleInit } from '@nestjs/common';
import type { Types } from 'mongoose';
import { shopScope } from '../common/tenancy';
import { EventSink } from '../event-port/event-sink';
import { byMarker, byShop } from '../event-port/pending-event-marker';
import type { LineItem } from './line-item.schema';
import { LineItemEventMarkers } from './line-item-event-markers.repository';
import { LineItemsRepository } from './line-items.repository';
import { orderHeadOf, orderReceivedEvent, orderReceivedKey } from './order-events';
import { fulfillmentEvent } from './platform-fulfillments.service';

/**
 * The events sweeper's finishers of line items' pending events (DESIGN §11): `order.received` of
 * sale rows whose insert a crash left unreported, and platform `fulfillment.created|updated`.
 * Each event is re-derived from the stored rows with the key and time of the original, so an event
 * the request did record before dying is stored once; the marker is cleared once it is recorded.
 */
@Injectable()
export class LineItemEventsFinisher implements OnModuleInit {
  constructor(
    private readonly sink: EventSink,
    private readonly markers: LineItemEventMarkers,
    private readonly lineItems: LineItemsRepository,
  ) {}

  onModuleInit(): void {
    this.sink.finisher({ name: 'order.received', finish: (before, limit) => this.orders(before, limit) });
    this.sink.finisher({ name: 'fulfillment', finish: (before, limit) => this.fulfillments(before, limit) });
  }

  /**
   * Every order with a marked sale row older than `before`. The request records the event and
   * leaves the marker to this sweep: the orders whose event is stored get their rows' markers
   * cleared in one write per shop; the others (a crash or a failed record) get their
   * `order.received` re-derived from their marked rows and recorded, then cleared.
   */
  async orders(before: Date, limit: number): Promise<number> {
    const marked = await this.markers.pending('sale', before, limit);
    for (const [shopId, found] of byShop(marked)) {
      const scope = shopScope(shopId);
      const orderIds = [...new Set(found.map((r) => r.orderId))];
      const stored = await this.sink.recorded(scope, orderIds.map(orderReceivedKey));
      const recorded = found.filter((r) => stored.has(orderReceivedKey(r.orderId)));
      await this.markers.clearRecordedSales(scope, ids(recorded), before);
      const missing = orderIds.filter((id) => !stored.has(orderReceivedKey(id)));
      if (missing.length === 0) continue;
      const rows = (await this.lineItems.findForOrders(scope, missing)).filter(
        (l) => l.type !== 'refund' && l.eventPendingAt && l.eventPendingAt < before,
      );
      const groups = [...byMarker(rows, (l) => l.eventPendingAt)].flatMap(([at, group]) =>
        [...byOrder(group).values()].map((own) => ({ at: new Date(at), own })),
      );
      const events = groups.map(({ at, own }) => orderReceivedEvent(orderHeadOf(own[0]), own, at));
      if (!(await this.sink.emit(scope, events))) continue;
      for (const { at, own } of groups) await this.markers.clear(scope, ids(own), at);
    }
    return marked.length;
  }

  /** Lines whose platform fulfillment event is pending: the event its marker names, the line as it is now. */
  async fulfillments(before: Date, limit: number): Promise<number> {
    const marked = await this.markers.pendingFulfillments(before, limit);
    for (const [shopId, rows] of byShop(marked)) {
      const scope = shopScope(shopId);
      const events = rows.map((l) => fulfillmentEvent(l, l.fulfillmentEventPending!));
      if (!(await this.sink.emit(scope, events))) continue;
      for (const [at, group] of byMarker(rows, (l) => l.fulfillmentEventPending?.at))
        await this.markers.clearFulfillment(scope, ids(group), new Date(at));
    }
    return marked.length;
  }
}

function byOrder(rows: LineItem[]): Map<number, LineItem[]> {
  const out = new Map<number, LineItem[]>();
  for (const r of rows) out.set(r.orderId, [...(out.get(r.orderId) ?? []), r]);
  return out;
}

function ids(rows: Array<Pick<LineItem, '_id'>>): Types.ObjectId[] {
  return rows.map((r) => r._id);
}
