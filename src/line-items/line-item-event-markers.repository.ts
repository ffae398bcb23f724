import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { ShopScope } from '../common/tenancy';
import { TenantRepository } from '../database/tenant-repository';
import { clearMarker, clearMarkersBefore, markedBefore } from '../event-port/pending-event-marker';
import { LineItem } from './line-item.schema';

/** A row whose insert-time event (order.received, refund.recorded) is pending. */
export type MarkedRow = Pick<LineItem, 'shopId' | 'orderId'> & { _id: Types.ObjectId; eventPendingAt: Date };

const FULFILLMENT_MARKER = 'fulfillmentEventPending.at';

/**
 * The pending-event markers of line items (events/pending-event-marker.ts): the events sweeper's
 * cross-shop scans (served by `{type, eventPendingAt}` and `{fulfillmentEventPending.at}`) and the
 * clearing of a marker once its event is recorded. Apart from LineItemsRepository so that file
 * stays about the figures.
 */
@Injectable()
export class LineItemEventMarkers extends TenantRepository<LineItem> {
  constructor(@InjectModel(LineItem.name) model: Model<LineItem>) {
    super(model);
  }

  /** Rows of one type (sale: order.received; refund: refund.recorded) whose marker is older than `before`. */
  pending(type: 'sale' | 'refund', before: Date, limit: number): Promise<MarkedRow[]> {
    return markedBefore<MarkedRow>(this.model as unknown as Model<MarkedRow>, `${type} rows`, {
      eq: { type },
      before,
      limit,
      projection: { _id: 1, shopId: 1, orderId: 1, eventPendingAt: 1 },
    });
  }

  /** Rows whose platform fulfillment event is pending since before `before` (whole rows: the event's object). */
  pendingFulfillments(before: Date, limit: number): Promise<LineItem[]> {
    return markedBefore<LineItem>(this.model, 'platform fulfillments', {
      field: FULFILLMENT_MARKER,
      before,
      limit,
    });
  }

  /** Clears the insert-time marker of these rows where it still holds `at`. */
  clear(scope: ShopScope, ids: Types.ObjectId[], at: Date): Promise<number> {
    return clearMarker(this.model, (f) => this.scoped(scope, f), ids, at);
  }

  /**
   * Clears the insert-time marker of these sale rows where it is older than `before` (their
   * `order.received` is stored). A sale row is marked once, at its insert; refund rows keep theirs
   * to `clear` (a refund row's marker is cleared by the request that recorded its event).
   */
  clearRecordedSales(scope: ShopScope, ids: Types.ObjectId[], before: Date): Promise<number> {
    return clearMarkersBefore(this.model, (f) => this.scoped(scope, { ...f, type: 'sale' }), ids, before);
  }

  /** Clears the fulfillment event marker of these rows where it still holds `at` (not a newer version's). */
  clearFulfillment(scope: ShopScope, ids: Types.ObjectId[], at: Date): Promise<number> {
    return clearMarker(this.model, (f) => this.scoped(scope, f), ids, at, { field: FULFILLMENT_MARKER });
  }
}
