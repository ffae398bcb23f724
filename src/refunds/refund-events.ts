import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { OperationContexts } from '../common/context/operation-context';
import { crashPoint } from '../common/faults/crash-point';
import { sumAmounts } from '../common/money';
import { type ShopScope, shopScope } from '../common/tenancy';
import { EventSink, type SourcedEvent } from '../event-port/event-sink';
import { byMarker, byShop } from '../event-port/pending-event-marker';
import { LineItemEventMarkers } from '../line-items/line-item-event-markers.repository';
import type { LineItem } from '../line-items/line-item.schema';
import { LineItemsRepository } from '../line-items/line-items.repository';
import { toLineItemResponse } from '../line-items/line-item.mapper';

/**
 * `refund.recorded` (DESIGN §11): one event per vendor of an order whose refund rows were just cut,
 * with those rows as GET /v1/orders/{id}/lineitems shows them (negative figures: what is clawed
 * back) and their payout total. Keyed by the order, the vendor and the refund lines, so the same
 * rows never make two events. The rows of one cut carry the same pending-event marker (the cut's
 * time) from their insert until the events are recorded: the rows an event reports are those of
 * one marker, which the events sweeper's finisher (here too) finds again after a crash.
 */
@Injectable()
export class RefundEvents implements OnModuleInit {
  private readonly logger = new Logger('RefundEvents');

  constructor(
    private readonly sink: EventSink,
    private readonly lineItems: LineItemsRepository,
    private readonly markers: LineItemEventMarkers,
  ) {}

  onModuleInit(): void {
    this.sink.finisher({ name: 'refund.recorded', finish: (before, limit) => this.finish(before, limit) });
  }

  /** After the rows cut at `at` are inserted. Never throws: the rows are recorded whatever happens to their events. */
  async recorded(scope: ShopScope, orderId: number, at: Date): Promise<void> {
    try {
      const rows = (await this.lineItems.findForOrders(scope, [orderId])).filter(
        (l) => l.type === 'refund' && l.eventPendingAt?.getTime() === at.getTime(),
      );
      crashPoint('after-change:refund.recorded');
      if (!(await this.sink.emit(scope, refundRecordedEvents(orderId, rows, at)))) return;
      await OperationContexts.phase('events', () =>
        this.markers.clear(
          scope,
          rows.map((r) => r._id),
          at,
        ),
      );
    } catch (err) {
      this.logger.error({ err: (err as Error)?.message, orderId }, 'Refund events not emitted');
    }
  }

  /** The events sweeper: refund rows whose marker is older than `before`, their cut's events. */
  async finish(before: Date, limit: number): Promise<number> {
    const marked = await this.markers.pending('refund', before, limit);
    for (const [shopId, found] of byShop(marked)) {
      const scope = shopScope(shopId);
      const orderIds = [...new Set(found.map((r) => r.orderId))];
      const rows = (await this.lineItems.findForOrders(scope, orderIds)).filter(
        (l) => l.type === 'refund' && l.eventPendingAt && l.eventPendingAt < before,
      );
      const cuts: Array<{ at: Date; own: LineItem[] }> = [];
      for (const orderId of orderIds) {
        for (const [at, own] of byMarker(
          rows.filter((l) => l.orderId === orderId),
          (l) => l.eventPendingAt,
        ))
          cuts.push({ at: new Date(at), own });
      }
      const events = cuts.flatMap(({ at, own }) => refundRecordedEvents(own[0].orderId, own, at));
      if (!(await this.sink.emit(scope, events))) continue;
      for (const { at, own } of cuts)
        await this.markers.clear(
          scope,
          own.map((r) => r._id),
          at,
        );
    }
    return marked.length;
  }
}

/** The `refund.recorded` events of one cut's rows (rows of no vendor report nothing). */
export function refundRecordedEvents(orderId: number, cut: LineItem[], at: Date): SourcedEvent[] {
  const byVendor = new Map<string, LineItem[]>();
  for (const r of cut) {
    if (!r.vendorId) continue;
    byVendor.set(String(r.vendorId), [...(byVendor.get(String(r.vendorId)) ?? []), r]);
  }
  const events: SourcedEvent[] = [];
  for (const [vendorId, own] of byVendor) {
    const lines = own.map((r) => `${String(r.refundId)}:${String(r.refundLineItemId)}`).sort();
    events.push({
      key: `refund.recorded:${orderId}:${vendorId}:${lines.join(',')}`,
      type: 'refund.recorded',
      createdAt: at,
      object: {
        orderId: String(orderId),
        vendorId,
        refundIds: [...new Set(own.map((r) => String(r.refundId)))],
        payout: sumAmounts(own.map((r) => r.payout)),
        refundRows: own.map(toLineItemResponse),
      },
    });
  }
  return events;
}
