import type { IncomingOrder } from './incoming-order';
import type { LineItem } from './line-item.schema';
import type { SourcedEvent } from '../event-port/event-sink';

/** What `order.received` says of the order itself. */
export type OrderHead = Pick<
  IncomingOrder,
  'orderId' | 'orderName' | 'orderNumber' | 'createdAt' | 'financialStatus' | 'cancelled'
>;

/** The order's head as its stored rows carry it (the events sweeper's finisher re-derives the event). */
export function orderHeadOf(row: LineItem): OrderHead {
  return {
    orderId: row.orderId,
    orderName: row.orderName,
    orderNumber: row.orderNumber,
    createdAt: new Date(row.orderCreatedAt),
    financialStatus: row.financialStatus,
    cancelled: row.cancelled,
  };
}

/** The source key of an order's `order.received` (hashed into its event id). */
export function orderReceivedKey(orderId: number): string {
  return `order.received:${orderId}`;
}

/**
 * `order.received` (DESIGN §11): the order as it first arrived, with the vendors on it (each with
 * its line count; lines of no known vendor are counted under `vendorId: null`). Keyed by the order
 * id: one event per order, whatever payload (create, paid, updated) first brought it. `at` is the
 * time of the insert (its rows' pending-event marker), so the finisher makes the same event.
 */
export function orderReceivedEvent(
  order: OrderHead,
  lines: Array<Partial<LineItem>>,
  at: Date,
): SourcedEvent {
  const vendors = new Map<
    string,
    { vendorId: string | null; vendorName: string | null; lineItemCount: number }
  >();
  for (const l of lines) {
    const key = l.vendorId ? String(l.vendorId) : `name:${l.vendorName ?? ''}`;
    const v = vendors.get(key) ?? {
      vendorId: l.vendorId ? String(l.vendorId) : null,
      vendorName: l.vendorName ?? null,
      lineItemCount: 0,
    };
    v.lineItemCount++;
    vendors.set(key, v);
  }
  return {
    key: orderReceivedKey(order.orderId),
    type: 'order.received',
    createdAt: at,
    object: {
      orderId: String(order.orderId),
      orderName: order.orderName,
      orderNumber: order.orderNumber,
      orderCreatedAt: order.createdAt.toISOString(),
      financialStatus: order.financialStatus,
      cancelled: order.cancelled,
      lineItemCount: lines.length,
      vendors: [...vendors.values()],
    },
  };
}
