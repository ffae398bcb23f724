import { Types } from 'mongoose';
import { eventIdFor } from '../event-port/fan-out';
import { asReal, OTHER_SHOP, SHOP } from '../../test/fakes/fake';
import { FakeEventRecorder, FakeLineItemEventMarkers, sinkInto } from '../../test/fakes/events.fake';
import { FakeLineItemsRepository, lineItem } from '../../test/fakes/line-items.fake';
import type { LineItem, PendingFulfillmentEvent } from './line-item.schema';
import { LineItemEventMarkers } from './line-item-event-markers.repository';
import { LineItemEventsFinisher } from './line-item-events.finisher';
import { LineItemsRepository } from './line-items.repository';
import { orderReceivedEvent } from './order-events';

describe('LineItemEventsFinisher (pending-event markers of line items)', () => {
  const T0 = new Date('2026-11-20T10:00:00.000Z');
  const BEFORE = new Date(T0.getTime() + 120_000); // the sweeper's grace period has passed
  const acme = new Types.ObjectId();
  let lines: FakeLineItemsRepository;
  let recorder: FakeEventRecorder;
  let finisher: LineItemEventsFinisher;

  beforeEach(() => {
    lines = new FakeLineItemsRepository();
    recorder = new FakeEventRecorder();
    finisher = new LineItemEventsFinisher(
      sinkInto(recorder),
      asReal<LineItemEventMarkers>(new FakeLineItemEventMarkers(lines)),
      asReal<LineItemsRepository>(lines),
    );
  });

  const sale = (orderId: number, lineItemId: number, extra: Partial<LineItem> = {}) =>
    lines.add(lineItem({ orderId, lineItemId, vendorId: acme, vendorName: 'acme', ...extra }))[0];

  it('a new order whose rows carry the marker becomes exactly one order.received — the id and time the request would have used — and the marker goes', async () => {
    const a = sale(1001, 1, { eventPendingAt: T0 });
    const b = sale(1001, 2, { eventPendingAt: T0, vendorId: null, vendorName: 'nobody' });
    const unmarked = sale(1002, 1);
    const refund = sale(1001, 1, {
      type: 'refund',
      refundId: 'r1',
      refundLineItemId: 'rl1',
      eventPendingAt: T0,
    });

    expect(await finisher.orders(BEFORE, 500)).toBe(2);

    const request = orderReceivedEvent(
      {
        orderId: 1001,
        orderName: '#1001',
        orderNumber: 1001,
        createdAt: a.orderCreatedAt,
        financialStatus: 'paid',
        cancelled: false,
      },
      [a, b],
      T0,
    );
    expect([...recorder.stored.values()]).toEqual([
      {
        id: eventIdFor('order.received:1001'),
        shopId: SHOP.shopId,
        type: 'order.received',
        createdAt: T0,
        object: request.object,
      },
    ]);
    expect(request.object).toMatchObject({
      lineItemCount: 2,
      vendors: [
        { vendorId: String(acme), vendorName: 'acme', lineItemCount: 1 },
        { vendorId: null, vendorName: 'nobody', lineItemCount: 1 },
      ],
    });
    expect(lines.get(a._id).eventPendingAt).toBeUndefined();
    expect(lines.get(b._id).eventPendingAt).toBeUndefined();
    expect(lines.get(unmarked._id).eventPendingAt).toBeUndefined();
    // a refund row's marker is refund.recorded's (RefundEvents), not this finisher's
    expect(lines.get(refund._id).eventPendingAt).toEqual(T0);

    // nothing left: the next sweep records nothing
    expect(await finisher.orders(BEFORE, 500)).toBe(0);
    expect(recorder.calls).toHaveLength(1);
  });

  it('orders whose event the request stored (and left the marker to the sweep): markers cleared in one write, nothing recorded again', async () => {
    const a = sale(1101, 1, { eventPendingAt: T0 });
    const b = sale(1101, 2, { eventPendingAt: T0 });
    const c = sale(1102, 1, { eventPendingAt: new Date(T0.getTime() + 1_000) });
    const lost = sale(1103, 1, { eventPendingAt: T0 }); // its request died before recording
    const sink = sinkInto(recorder);
    for (const [orderId, rows] of [
      [1101, [a, b]],
      [1102, [c]],
    ] as const) {
      const head = { orderId, orderName: `#${orderId}`, orderNumber: orderId, createdAt: T0 };
      const at = rows[0].eventPendingAt!;
      expect(
        await sink.emit(SHOP, [
          orderReceivedEvent({ ...head, financialStatus: 'paid', cancelled: false }, [...rows], at),
        ]),
      ).toBe(true);
    }
    const before = recorder.calls.length;
    const clears = jest.spyOn(FakeLineItemEventMarkers.prototype, 'clearRecordedSales');

    expect(await finisher.orders(BEFORE, 500)).toBe(4);

    // one clearing write for the shop's stored orders; only the lost order is recorded
    expect(clears).toHaveBeenCalledTimes(1);
    expect(clears.mock.calls[0][1].map(String).sort()).toEqual([a._id, b._id, c._id].map(String).sort());
    expect(recorder.calls.slice(before)).toEqual([[eventIdFor('order.received:1103')]]);
    for (const row of [a, b, c, lost]) expect(lines.get(row._id).eventPendingAt).toBeUndefined();
    expect(recorder.ofType('order.received')).toHaveLength(3);
    clears.mockRestore();
  });

  it('a marker of another shop is not cleared by an event id of this shop', async () => {
    const ours = sale(1201, 1, { eventPendingAt: T0 });
    const theirs = sale(1201, 1, { eventPendingAt: T0, shopId: new Types.ObjectId(OTHER_SHOP.shopId) });
    // only this shop's order.received of order 1201 is stored
    const head = { orderId: 1201, orderName: '#1201', orderNumber: 1201, createdAt: T0 };
    await sinkInto(recorder).emit(SHOP, [
      orderReceivedEvent({ ...head, financialStatus: 'paid', cancelled: false }, [ours], T0),
    ]);
    const before = recorder.calls.length;
    await finisher.orders(BEFORE, 500);
    // the other shop's order is re-derived and recorded in its own scope, not taken as done
    expect(recorder.calls.slice(before)).toEqual([[eventIdFor('order.received:1201')]]);
    expect(lines.get(ours._id).eventPendingAt).toBeUndefined();
    expect(lines.get(theirs._id).eventPendingAt).toBeUndefined();
  });

  it('unmarked rows, and a marker still within the grace period (its request may be recording it), emit nothing', async () => {
    sale(2001, 1);
    const fresh = sale(2002, 1, { eventPendingAt: BEFORE });
    expect(await finisher.orders(BEFORE, 500)).toBe(0);
    expect(recorder.calls).toHaveLength(0);
    expect(lines.get(fresh._id).eventPendingAt).toEqual(BEFORE);
  });

  it('each shop records its own orders in its own scope', async () => {
    sale(3001, 1, { eventPendingAt: T0 });
    sale(3002, 1, { eventPendingAt: T0, shopId: new Types.ObjectId(OTHER_SHOP.shopId) });
    expect(await finisher.orders(BEFORE, 500)).toBe(2);
    expect([...recorder.stored.values()].map((e) => e.shopId).sort()).toEqual(
      [SHOP.shopId, OTHER_SHOP.shopId].sort(),
    );
  });

  it('a record that fails leaves the marker for the next sweep, which records the event once', async () => {
    const a = sale(4001, 1, { eventPendingAt: T0 });
    recorder.failing = true;
    await finisher.orders(BEFORE, 500);
    expect(recorder.stored.size).toBe(0);
    expect(lines.get(a._id).eventPendingAt).toEqual(T0);
    recorder.failing = false;
    await finisher.orders(BEFORE, 500);
    expect(recorder.ofType('order.received').map((e) => e.id)).toEqual([eventIdFor('order.received:4001')]);
    expect(lines.get(a._id).eventPendingAt).toBeUndefined();
  });

  it('a platform fulfillment event pending on a line becomes the event its marker names, with the line as it is now', async () => {
    const pending: PendingFulfillmentEvent = {
      at: T0,
      key: 'fulfillment:x:f1:2026-11-20T09:59:00.000Z',
      type: 'fulfillment.updated',
    };
    const line = sale(5001, 1, {
      fulfillmentStatus: 'fulfilled',
      fulfillment: {
        status: 'success',
        trackingCompany: 'UPS',
        trackingNumber: '1Z',
        trackingUrl: null,
        shipmentStatus: 'in_transit',
        platformFulfillmentId: 'f1',
        createdAt: T0,
        deliveredAt: null,
      },
      fulfillmentEventPending: pending,
    });
    sale(5001, 2); // no pending event

    expect(await finisher.fulfillments(BEFORE, 500)).toBe(1);
    const [event] = [...recorder.stored.values()];
    expect(event).toMatchObject({ id: eventIdFor(pending.key), type: 'fulfillment.updated', createdAt: T0 });
    expect(event.object).toMatchObject({
      _id: String(line._id),
      fulfillmentStatus: 'fulfilled',
      fulfillment: { trackingNumber: '1Z', shipmentStatus: 'in_transit' },
    });
    expect(lines.get(line._id).fulfillmentEventPending).toBeUndefined();
    expect(await finisher.fulfillments(BEFORE, 500)).toBe(0);
  });
});
