import type { Types } from 'mongoose';
import type { ShopScope } from '../../src/common/tenancy';
import type { EventType } from '../../src/event-port/event-catalogue';
import { EventSink, type EventRecorder } from '../../src/event-port/event-sink';
import type { LineItem } from '../../src/line-items/line-item.schema';
import type {
  LineItemEventMarkers,
  MarkedRow,
} from '../../src/line-items/line-item-event-markers.repository';
import type { FakeLineItemsRepository } from './line-items.fake';

export interface RecordedEvent {
  id: string;
  shopId: string;
  type: EventType;
  createdAt: Date;
  object: Record<string, unknown>;
}

/**
 * The events collection in memory behind a real EventSink: stored once per id (a second copy is
 * refused like the `_id` index refuses it), `failing` makes every record throw (the store gone).
 */
export class FakeEventRecorder implements EventRecorder {
  readonly stored = new Map<string, RecordedEvent>();
  /** Every record call's event ids, in order (a repeat shows up here, not in `stored`). */
  readonly calls: string[][] = [];
  failing = false;

  /** The endpoints each record call was handed (undefined: it was to read them itself). */
  readonly endpointsGiven: Array<Array<Record<string, unknown>> | undefined> = [];

  async record(
    scope: ShopScope,
    drafts: Array<{ id: string; type: EventType; createdAt: Date; object: Record<string, unknown> }>,
    _durability?: 'sweeper',
    endpoints?: Array<Record<string, unknown>>,
  ): Promise<void> {
    this.calls.push(drafts.map((d) => d.id));
    this.endpointsGiven.push(endpoints);
    if (this.failing) throw new Error('the events store is unavailable');
    for (const d of drafts) if (!this.stored.has(d.id)) this.stored.set(d.id, { ...d, shopId: scope.shopId });
  }

  async storedIds(scope: ShopScope, ids: string[]): Promise<Set<string>> {
    if (this.failing) throw new Error('the events store is unavailable');
    return new Set(ids.filter((id) => this.stored.get(id)?.shopId === scope.shopId));
  }

  ofType(type: EventType): RecordedEvent[] {
    return [...this.stored.values()].filter((e) => e.type === type);
  }
}

/** A real EventSink recording into a fake recorder. */
export function sinkInto(recorder: FakeEventRecorder): EventSink {
  const sink = new EventSink();
  sink.register(recorder);
  return sink;
}

const pendingBefore = (at: Date | undefined | null, before: Date) => !!at && new Date(at) < before;

/** LineItemEventMarkers over the fake line_items collection (every shop: the scans are system queries). */
export class FakeLineItemEventMarkers implements Pick<
  LineItemEventMarkers,
  'pending' | 'pendingFulfillments' | 'clear' | 'clearFulfillment' | 'clearRecordedSales'
> {
  constructor(private readonly lines: FakeLineItemsRepository) {}

  async pending(type: 'sale' | 'refund', before: Date, limit: number): Promise<MarkedRow[]> {
    return this.lines.docs
      .filter((l) => (l.type ?? 'sale') === type && pendingBefore(l.eventPendingAt, before))
      .sort((a, b) => a.eventPendingAt!.getTime() - b.eventPendingAt!.getTime())
      .slice(0, limit)
      .map((l) => ({ _id: l._id, shopId: l.shopId, orderId: l.orderId, eventPendingAt: l.eventPendingAt! }));
  }

  async pendingFulfillments(before: Date, limit: number): Promise<LineItem[]> {
    return this.lines.docs
      .filter((l) => pendingBefore(l.fulfillmentEventPending?.at, before))
      .slice(0, limit)
      .map((l) => ({ ...l }));
  }

  async clear(scope: ShopScope, ids: Types.ObjectId[], at: Date): Promise<number> {
    let n = 0;
    for (const l of this.own(scope, ids))
      if (l.eventPendingAt?.getTime() === at.getTime()) {
        delete l.eventPendingAt;
        n++;
      }
    return n;
  }

  async clearRecordedSales(scope: ShopScope, ids: Types.ObjectId[], before: Date): Promise<number> {
    let n = 0;
    for (const l of this.own(scope, ids))
      if ((l.type ?? 'sale') === 'sale' && pendingBefore(l.eventPendingAt, before)) {
        delete l.eventPendingAt;
        n++;
      }
    return n;
  }

  async clearFulfillment(scope: ShopScope, ids: Types.ObjectId[], at: Date): Promise<number> {
    let n = 0;
    for (const l of this.own(scope, ids))
      if (l.fulfillmentEventPending && new Date(l.fulfillmentEventPending.at).getTime() === at.getTime()) {
        delete l.fulfillmentEventPending;
        n++;
      }
    return n;
  }

  private own(scope: ShopScope, ids: Types.ObjectId[]): LineItem[] {
    return this.lines.docs.filter(
      (l) => String(l.shopId) === scope.shopId && ids.some((id) => id.equals(l._id)),
    );
  }
}
