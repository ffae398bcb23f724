import { getConnectionToken } from '@nestjs/mongoose';
import { Connection, Types } from 'mongoose';
import { EventSink } from '../../src/event-port/event-sink';
import { EventsSweeper } from '../../src/events/events-sweeper.service';
import { eventIdFor } from '../../src/event-port/fan-out';
import { startApp, TestApp } from '../support/app';
import { createShop, TestShop } from '../support/factory';
import { listenForEvents, Receiver } from '../support/receiver';
import { amount, day, payoutOf, refundScenario, share } from '../support/refund-scenario';
import { shopifyRefund } from '../support/refunds';
import { eventually, shopifyFulfillment } from '../support/webhooks';

/**
 * Money and order events survive the crash window between a change and its event (issue 19 §3):
 * the change's own write marks its event pending; when the process "dies" before recording it
 * (here: the sink refuses that one call, as a kill -9 would leave it — the change done, no event),
 * the events sweeper's finisher records it from the stored source once the grace period passed:
 * the receiver gets it exactly once, verified with `standardwebhooks`, under the id the request
 * would have used. Figures to the cent against the BigInt-cents oracle of the refund scenario.
 */
describe('durable order and money events: pending-event markers and the sweeper (e2e)', () => {
  let t: TestApp;
  let db: NonNullable<Connection['db']>;
  let stranger: TestShop;
  const receivers: Receiver[] = [];
  const saved = { ...process.env };
  const GRACE_MS = 10 * 60_000; // past INBOX_REDRIVE_AFTER_SECONDS (the sweeper's grace period)

  const listen = (shop: TestShop) => listenForEvents(t, shop, receivers);

  /**
   * Runs `change` while the sink refuses to record events of `type` (the crash window), then
   * restores it — once the refused event was attempted when `queued` (its job runs after the answer).
   */
  const losing = async <T>(type: string, change: () => Promise<T>, queued = false): Promise<T> => {
    const sink = t.app.get(EventSink, { strict: false });
    const record = sink.emit.bind(sink);
    let refused = 0;
    const spy = jest.spyOn(sink, 'emit').mockImplementation(async (scope, events) => {
      if (!events.some((e) => e.type === type)) return record(scope, events);
      refused++;
      return false;
    });
    try {
      const out = await change();
      if (queued) await eventually(async () => expect(refused).toBe(1), 15000);
      return out;
    } finally {
      spy.mockRestore();
    }
  };

  /**
   * The sweeper after the grace period (the clock moves on; a fresh marker is left to its request),
   * sweeping again until a sweep finds nothing: the suite's database holds the other suites' marked
   * rows too (sale rows keep theirs until a sweeper clears them), oldest first, and one sweep stops
   * after 10,000.
   */
  const sweepLater = async () => {
    t.clock.advance(GRACE_MS);
    const sweeper = t.app.get(EventsSweeper, { strict: false });
    const first = await sweeper.sweep();
    for (let i = 0, r = first; i < 20 && r.finished > 0; i++) r = await sweeper.sweep();
    return first;
  };

  const settle = () => new Promise((ok) => setTimeout(ok, 400));

  /** The order's stored rows, read like the app does (shop and order: the unique index's prefix). */
  const rowsOf = (shop: TestShop, orderId: number) =>
    db
      .collection('line_items')
      .find({ shopId: new Types.ObjectId(shop.shopId), orderId })
      .toArray();
  const markedRows = async (shop: TestShop, orderId: number) =>
    (await rowsOf(shop, orderId)).filter((r) => r.eventPendingAt !== undefined).length;

  beforeAll(async () => {
    process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';
    process.env.WEBHOOK_RETRY_SCHEDULE = '0,0.3,0.3,0.3';
    process.env.QUEUE_PREFIX = `${saved.QUEUE_PREFIX ?? 'mp-test'}-evd-${process.pid}`;
    t = await startApp();
    db = t.app.get<Connection>(getConnectionToken()).db!;
    stranger = await createShop(t, 'evd-stranger');
  });

  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    await t?.close();
    process.env = saved;
  });

  it('order.received, payout_batch.paid, refund.recorded (and its balance.negative) lost by the request reach the receiver once from the sweeper', async () => {
    const s = await refundScenario(t, 'evd-money');
    const hooks = await listen(s.shop);
    const foreign = await listen(stranger);
    const vendorId = s.vendors[0]._id;
    const sweeper = t.app.get(EventsSweeper, { strict: false });

    // order.received: the rows are written with their marker, the event is not recorded
    const o = await s.order([{ price: '50.00', quantity: 2 }], day(-10));
    await losing('order.received', () => s.send('orders/create', o));
    const rows = await rowsOf(s.shop, o.id);
    expect(rows).toHaveLength(1);
    const marker = rows[0].eventPendingAt as Date;
    expect(marker).toBeInstanceOf(Date);
    await sweeper.sweep(); // within the grace period: the marker is its request's
    await settle();
    expect(hooks.of('order.received')).toHaveLength(0);
    await sweepLater();
    const [received] = await hooks.arrived('order.received');
    expect(received.id).toBe(eventIdFor(`order.received:${o.id}`));
    expect(received.createdAt).toBe(marker.toISOString());
    expect(received.data.object).toMatchObject({
      orderId: String(o.id),
      lineItemCount: 1,
      vendors: [{ vendorId, lineItemCount: 1 }],
    });
    expect((await db.collection('line_items').findOne({ _id: rows[0]._id }))?.eventPendingAt).toBeUndefined();

    // payout_batch.paid: the settling write marks it, the event is not recorded
    const batch = await losing('payout_batch.paid', () => s.batch(day(-8)));
    const sale = payoutOf('50.00', 2, 10); // 90.00
    expect(batch).toMatchObject({ status: 'completed', total: amount(sale) });
    await settle();
    expect(hooks.of('payout_batch.paid')).toHaveLength(0);
    await sweepLater();
    const [paid] = await hooks.arrived('payout_batch.paid');
    expect(paid.id).toBe(eventIdFor(`payout_batch.paid:${batch._id}`));
    const stored = await t.api.get(`/v1/payouts/batches/${batch._id}`, { token: s.shop.token });
    expect(paid.data.object).toEqual({ ...stored.body, transfer: undefined });

    // refund.recorded: the refund rows carry the marker; the finisher's event runs the balance
    // watcher too: the refund after the payout leaves the vendor owing −45.00 → balance.negative
    await losing('refund.recorded', () =>
      s.send(
        'refunds/create',
        shopifyRefund({
          orderId: o.id,
          processedAt: day(-4),
          lines: [{ lineItemId: o.line_items[0].id, quantity: 1 }],
        }),
      ),
    );
    await settle();
    expect(hooks.of('refund.recorded')).toHaveLength(0);
    expect(hooks.of('balance.negative')).toHaveLength(0);
    const report = await sweepLater();
    expect(report.finished).toBeGreaterThanOrEqual(1);
    const clawback = share(sale, 1, 2); // −45.00
    const [refund] = await hooks.arrived('refund.recorded');
    expect(refund.data.object).toMatchObject({ orderId: String(o.id), vendorId, payout: amount(clawback) });
    expect(refund.data.object.refundRows).toHaveLength(1);
    expect(refund.data.object.refundRows[0]).toMatchObject({
      type: 'refund',
      refundedQuantity: 1,
      payout: amount(clawback),
      sales: -50,
    });
    const [negative] = await hooks.arrived('balance.negative');
    expect(negative.data.object).toMatchObject({ vendorId, due: amount(clawback) });

    // nothing is pending any more: a further sweep sends nothing; every webhook-id arrived once
    await sweepLater();
    await settle();
    const ids = hooks.r.received.map((x) => x.headers['webhook-id']);
    expect(new Set(ids).size).toBe(ids.length);
    // the four above, and the paid batch's two documents (its commission invoice and payout
    // statement: document.issued, DESIGN §14), each once
    expect(hooks.of('document.issued')).toHaveLength(2);
    expect(ids).toHaveLength(6);
    expect(await markedRows(s.shop, o.id)).toBe(0);
    expect(foreign.r.received).toHaveLength(0);
    // the events are listed for their own shop only
    expect((await t.api.get(`/v1/events/${refund.id}`, { token: s.shop.token })).status).toBe(200);
    expect((await t.api.get(`/v1/events/${refund.id}`, { token: stranger.token })).status).toBe(404);
  });

  it('a request that recorded its event but died before clearing the marker: the sweeper records nothing new', async () => {
    const s = await refundScenario(t, 'evd-cleared');
    const hooks = await listen(s.shop);
    const o = await s.order([{ price: '20.00', quantity: 1 }], day(-3));
    await s.send('orders/create', o);
    const [received] = await hooks.arrived('order.received');
    const batch = await s.batch(day(-1));
    const [paid] = await hooks.arrived('payout_batch.paid');
    // the markers as the request left them before its clearing write
    await db
      .collection('line_items')
      .updateMany(
        { shopId: new Types.ObjectId(s.shop.shopId), orderId: o.id },
        { $set: { eventPendingAt: new Date(received.createdAt) } },
      );
    const b = await db.collection('payout_batches').findOne({ _id: new Types.ObjectId(batch._id as string) });
    await db
      .collection('payout_batches')
      .updateOne({ _id: b!._id }, { $set: { eventPendingAt: b!.completedAt } });
    const report = await sweepLater();
    expect(report.finished).toBeGreaterThanOrEqual(2);
    await settle();
    expect(hooks.r.withId(received.id)).toHaveLength(1);
    expect(hooks.r.withId(paid.id)).toHaveLength(1);
    expect(hooks.of('order.received')).toHaveLength(1);
    expect((await db.collection('payout_batches').findOne({ _id: b!._id }))?.eventPendingAt).toBeUndefined();
    expect(await markedRows(s.shop, o.id)).toBe(0);
  });

  it('a platform fulfillment and a recalculation job whose events were lost: the sweeper records them from the line and the job', async () => {
    const s = await refundScenario(t, 'evd-lines');
    const hooks = await listen(s.shop);
    const o = await s.order([{ price: '40.00', quantity: 1 }], day(-2));
    await s.send('orders/create', o);
    await hooks.arrived('order.received');

    const f = shopifyFulfillment({
      orderId: o.id,
      lineItemIds: [o.line_items[0].id],
      shipmentStatus: 'in_transit',
    });
    await losing('fulfillment.created', () => s.send('fulfillments/create', f));
    const [row] = await rowsOf(s.shop, o.id);
    expect(row.fulfillmentEventPending).toMatchObject({ type: 'fulfillment.created' });
    const res = await losing(
      'line_items.recalculated',
      async () => {
        const r = await t.api.post(
          '/v1/lineitems/update',
          {
            items: [
              {
                lineItemId: o.line_items[0].id,
                orderId: o.id,
                fields: { deduction: 1.5 },
                recalculate: true,
              },
            ],
          },
          { token: s.shop.token },
        );
        expect(r.status).toBe(200);
        return r;
      },
      true,
    );
    await settle();
    expect(hooks.of('fulfillment.created')).toHaveLength(0);
    expect(hooks.of('line_items.recalculated')).toHaveLength(0);

    await sweepLater();
    const [fulfilled] = await hooks.arrived('fulfillment.created');
    expect(fulfilled.id).toBe(eventIdFor(row.fulfillmentEventPending.key));
    expect(fulfilled.data.object).toMatchObject({
      _id: String(row._id),
      fulfillmentStatus: 'fulfilled',
      fulfillment: { shipmentStatus: 'in_transit', trackingCompany: 'UPS' },
    });
    const [recalculated] = await hooks.arrived('line_items.recalculated');
    expect(recalculated.id).toBe(eventIdFor(`line_items.recalculated:${res.body.jobId}`));
    const job = await t.api.get(`/v1/jobs/${res.body.jobId}`, { token: s.shop.token });
    expect(recalculated.data.object).toEqual(job.body);
    const [after] = await rowsOf(s.shop, o.id);
    expect(after.fulfillmentEventPending).toBeUndefined();
    const stored = await db.collection('jobs').findOne({ _id: new Types.ObjectId(res.body.jobId as string) });
    expect(stored?.eventPendingAt).toBeUndefined();
  });

  it('a transfer confirmed paid whose transfer.paid was lost: the sweeper records it from the transfer', async () => {
    const s = await refundScenario(t, 'evd-transfer');
    const hooks = await listen(s.shop);
    await s.send('orders/create', await s.order([{ price: '30.00', quantity: 1 }], day(-2)));
    const batch = await s.batch(day(-1));
    const created = await eventually(async () => {
      const b = await t.api.get(`/v1/payouts/batches/${batch._id}`, { token: s.shop.token });
      expect(b.body.transfer?.state).toBe('awaiting_reference');
      return b.body.transfer;
    });
    const paid = await losing('transfer.paid', () =>
      t.api.post(
        `/v1/payouts/transfers/${created.id}/confirm`,
        { reference: 'BANK-1' },
        { token: s.shop.token },
      ),
    );
    expect(paid.body).toMatchObject({ state: 'paid', amount: amount(payoutOf('30.00', 1, 10)) });
    await settle();
    expect(hooks.of('transfer.paid')).toHaveLength(0);
    await sweepLater();
    const [event] = await hooks.arrived('transfer.paid');
    expect(event.id).toBe(eventIdFor(`transfer.paid:${created.id}:${paid.body.history.length}`));
    expect(event.data.object).toEqual(
      (await t.api.get(`/v1/payouts/transfers/${created.id}`, { token: s.shop.token })).body,
    );
    const stored = await db
      .collection('transfers')
      .findOne({ _id: new Types.ObjectId(created.id as string) });
    expect(stored?.eventPendingAt).toBeUndefined();
  });
});
