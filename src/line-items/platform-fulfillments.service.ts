import { Injectable, Optional } from '@nestjs/common';
import { EventSink, type SourcedEvent } from '../event-port/event-sink';
import { toLineItemResponse } from './line-item.mapper';
import { Clock } from '../common/clock/clock';
import { OperationContexts } from '../common/context/operation-context';
import type { ShopScope } from '../common/tenancy';
import { ConcurrentLineItemChange } from './concurrent-line-item-change';
import type { IncomingFulfillment } from './incoming-order';
import type { LineItem, LineItemFulfillment, PendingFulfillmentEvent } from './line-item.schema';
import { LineItemEventMarkers } from './line-item-event-markers.repository';
import { LineItemsRepository } from './line-items.repository';
import { OrderSummaryRefresher } from './order-summary.refresher';

/** Fulfillments the store platform reports (webhooks), as opposed to those created through POST /v1/fulfillments. */
@Injectable()
export class PlatformFulfillmentsService {
  constructor(
    private readonly lineItems: LineItemsRepository,
    private readonly summaries: OrderSummaryRefresher,
    private readonly clock: Clock,
    private readonly markers: LineItemEventMarkers,
    @Optional() private readonly events?: EventSink,
  ) {}

  /**
   * fulfillments/create|update: records the platform fulfillment (tracking, shipment status) on the
   * line items it covers. The order must have been ingested first; until then the job retries.
   */
  async apply(scope: ShopScope, f: IncomingFulfillment): Promise<number> {
    const lines = (await this.lineItems.findForOrders(scope, [f.orderId])).filter((l) => l.type !== 'refund');
    if (lines.length === 0) {
      throw new ConcurrentLineItemChange(`order ${f.orderId} has not been ingested yet`);
    }
    const covered = new Set(f.lineItemIds);
    const targets = covered.size > 0 ? lines.filter((l) => covered.has(l.lineItemId)) : lines;
    const fulfilled = f.status === 'success';
    const now = this.clock.now();
    // fulfillment.created|updated per line (DESIGN §11): keyed by the platform's fulfillment and its
    // version, so a redelivered webhook adds nothing; pending on the line in the same write.
    const writes = targets.map((l) => {
      const pending: PendingFulfillmentEvent = {
        at: now,
        key: `fulfillment:${String(l._id)}:${f.fulfillmentId}:${f.updatedAt?.toISOString() ?? `${f.status}/${f.shipmentStatus}`}`,
        type: l.fulfillment ? 'fulfillment.updated' : 'fulfillment.created',
      };
      return {
        line: l,
        id: l._id,
        guard: {},
        set: {
          fulfillment: toFulfillment(f, l.fulfillment, now),
          fulfillmentStatus: fulfilled ? 'fulfilled' : 'unfulfilled',
          fulfillmentEventPending: pending,
        },
      };
    });
    await this.lineItems.applyGuardedSets(scope, writes);
    await this.summaries.refresh(scope, [f.orderId]);
    const events = writes.map(({ line, set }) =>
      fulfillmentEvent({ ...line, ...set, updatedAt: now } as LineItem, set.fulfillmentEventPending),
    );
    if (this.events && (await this.events.emit(scope, events)))
      await OperationContexts.phase('events', () =>
        this.markers.clearFulfillment(
          scope,
          writes.map((w) => w.id),
          now,
        ),
      );
    return targets.length;
  }
}

/** A line's platform fulfillment event, as its pending marker names it (the request and the finisher). */
export function fulfillmentEvent(line: LineItem, pending: PendingFulfillmentEvent): SourcedEvent {
  return {
    key: pending.key,
    type: pending.type,
    createdAt: new Date(pending.at),
    object: { ...toLineItemResponse(line) },
  };
}

/** A platform fulfillment as stored on a line item; the first creation and delivery times are kept. */
export function toFulfillment(
  f: IncomingFulfillment,
  prev: LineItemFulfillment | null,
  now: Date,
): LineItemFulfillment {
  const delivered = f.shipmentStatus === 'delivered';
  return {
    status: f.status,
    trackingCompany: f.trackingCompany,
    trackingNumber: f.trackingNumber,
    trackingUrl: f.trackingUrl,
    shipmentStatus: f.shipmentStatus,
    platformFulfillmentId: f.fulfillmentId,
    createdAt: prev?.createdAt ?? f.createdAt ?? f.updatedAt ?? now,
    deliveredAt: delivered ? (prev?.deliveredAt ?? f.updatedAt ?? now) : null,
  };
}
