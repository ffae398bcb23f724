import { Types } from 'mongoose';
import { fromAudit } from '../event-port/event-catalogue';
import { eventIdFor } from '../event-port/fan-out';
import type { IncomingOrder } from './incoming-order';
import { orderReceivedEvent } from './order-events';

describe('order.received', () => {
  const order = {
    orderId: 5549201834154,
    orderName: '#1001',
    orderNumber: 1001,
    createdAt: new Date('2026-11-20T10:00:00Z'),
    financialStatus: 'paid',
    cancelled: false,
  } as IncomingOrder;
  const a = new Types.ObjectId();

  it('names every vendor once with its line count, unknown vendors by name, keyed by the order', () => {
    const e = orderReceivedEvent(
      order,
      [
        { vendorId: a, vendorName: 'acme' },
        { vendorId: a, vendorName: 'acme' },
        { vendorId: null, vendorName: 'nobody' },
      ],
      new Date('2026-11-20T10:00:01Z'),
    );
    expect(e.type).toBe('order.received');
    expect(e.object).toEqual({
      orderId: '5549201834154',
      orderName: '#1001',
      orderNumber: 1001,
      orderCreatedAt: '2026-11-20T10:00:00.000Z',
      financialStatus: 'paid',
      cancelled: false,
      lineItemCount: 3,
      vendors: [
        { vendorId: String(a), vendorName: 'acme', lineItemCount: 2 },
        { vendorId: null, vendorName: 'nobody', lineItemCount: 1 },
      ],
    });
    // the same order always makes the same event id; another order another
    const again = orderReceivedEvent(order, [], new Date());
    expect(eventIdFor(again.key)).toBe(eventIdFor(e.key));
    expect(eventIdFor(orderReceivedEvent({ ...order, orderId: 1 }, [], new Date()).key)).not.toBe(
      eventIdFor(e.key),
    );
  });

  it('hand-written line figures and fulfillments ride on their audit records', () => {
    expect(fromAudit({ action: 'line_item.update', after: {} })).toBe('line_items.updated');
    expect(fromAudit({ action: 'line_item.fulfill', after: {} })).toBe('fulfillment.created');
  });
});
