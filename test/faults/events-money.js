'use strict';
// (g) Order and money events through real kill -9 crashes in the crash window (issue 19 §3): the
// API dies by its own SIGKILL (FAULT_CRASH_POINT, src/common/faults/crash-point.ts) right after a
// change and before its event is recorded — three times: the 10th new order of a burst (rows
// written, `order.received` not), the 5th refund cut of a burst of refunds (refund rows written,
// `refund.recorded` not), and the payout batch right after it settled (`payout_batch.paid` not).
// Each time it restarts (with the next crash point, the last time with none); the retried webhooks
// and the resumed batch find their change done, so only the pending-event markers and the events
// sweeper's finishers can bring the events. After the last restart: every order has exactly one
// `order.received`, every refund row is in exactly one `refund.recorded`, every settled batch has
// its `payout_batch.*` (lost=0, duplicated=0), and no webhook-id arrived with two bodies.
const { randomBytes } = require('node:crypto');
const mongoose = require('mongoose');
const { json, shop, order, deliverUntilAcked, pool, until, log } = require('./harness');
const { receiver } = require('./events');

/** Resolves with the signal once the child has exited (its own SIGKILL at the crash point). */
function crashed(child, timeoutMs = 90_000) {
  return new Promise((ok, fail) => {
    if (child.exitCode !== null || child.signalCode) return ok(child.signalCode);
    const t = setTimeout(() => fail(new Error('the API did not reach its crash point')), timeoutMs);
    child.once('exit', (_code, signal) => {
      clearTimeout(t);
      ok(signal);
    });
  });
}

async function moneyEventsScenario(stack, report) {
  const name = `evmoney${randomBytes(2).toString('hex')}`;
  const env = {
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    WEBHOOK_RETRY_SCHEDULE: '0,1,2,5,10,30',
    INBOX_REDRIVE_AFTER_SECONDS: '5', // also the events sweeper's grace period before a finisher acts
    SWEEP_EVERY_SECONDS: '2',
  };
  const signals = [];
  const pendingAtCrash = {};
  let api = await stack.api(name, { ...env, FAULT_CRASH_POINT: 'after-change:order.received@10' });
  const { base, port } = api;
  const s = await shop(stack, name, base);
  const h = { 'x-access-token': s.token };
  const vendor = await json(
    'POST',
    `${base}/v1/vendors`,
    { vendorName: 'Fault Vendor', commissionType: 'percentage', commissionAmount: 10 },
    h,
  );
  if (vendor.status !== 200) throw new Error(`vendor: ${vendor.status} ${JSON.stringify(vendor.body)}`);
  const r = await receiver();
  r.open(); // answers 200 at once
  const types = ['order.received', 'refund.recorded', 'payout_batch.paid', 'payout_batch.carried_forward'];
  const ep = await json('POST', `${base}/v1/webhook-endpoints`, { url: r.url, enabledEvents: types }, h);
  if (ep.status !== 200) throw new Error(`endpoint: ${ep.status} ${JSON.stringify(ep.body)}`);

  const conn = await stack.db(name);
  const db = conn.db;
  const sid = new mongoose.Types.ObjectId(s.shopId);
  const lines = db.collection('line_items');
  const deadline = Date.now() + 200_000;
  /** Waits for the crash, counts what is pending, restarts the API (with the next crash point). */
  const crashAndRestart = async (what, next) => {
    signals.push(await crashed(api.child));
    pendingAtCrash[what] =
      what === 'payout_batch'
        ? await db
            .collection('payout_batches')
            .countDocuments({ shopId: sid, eventPendingAt: { $exists: true } })
        : await lines.countDocuments({
            shopId: sid,
            type: what === 'order.received' ? 'sale' : 'refund',
            eventPendingAt: { $exists: true },
          });
    log(`the API killed itself (${signals.at(-1)}) after a change, before its ${what} event; restarting`);
    api = await stack.api(name, { ...env, PORT: port, ...(next ? { FAULT_CRASH_POINT: next } : {}) });
  };

  // 1. 30 new orders of 2 lines; the 10th one's event is cut off by the crash
  const orders = Array.from({ length: 30 }, () => order(2));
  const sendingOrders = pool(
    6,
    orders.map((o) => () => deliverUntilAcked(base, s, 'orders/create', o, deadline)),
  );
  await crashAndRestart('order.received', 'after-change:refund.recorded@5');
  await sendingOrders;
  await until(
    'every order ingested',
    async () => (await lines.countDocuments({ shopId: sid, type: 'sale' })) === 60,
    90_000,
  );

  // 2. one unit of the first line of 15 orders refunded; the 5th cut's event is cut off
  const refunds = orders.slice(0, 15).map((o) => ({
    id: o.id * 10 + 8,
    order_id: o.id,
    created_at: new Date().toISOString(),
    processed_at: new Date().toISOString(),
    transactions: [],
    order_adjustments: [],
    refund_line_items: [{ id: o.id * 10 + 9, line_item_id: o.line_items[0].id, quantity: 1 }],
  }));
  const sendingRefunds = pool(
    6,
    refunds.map((x) => () => deliverUntilAcked(base, s, 'refunds/create', x, deadline)),
  );
  await crashAndRestart('refund.recorded', 'after-change:payout_batch');
  await sendingRefunds;
  await until(
    'every refund row recorded',
    async () => (await lines.countDocuments({ shopId: sid, type: 'refund' })) === 15,
    90_000,
  );

  // 3. the vendor's batch: the process dies right after the write that settles it
  const today = new Date().toISOString().slice(0, 10);
  const trigger = await json('POST', `${base}/v1/payouts/batches`, { until: today }, h);
  if (trigger.status !== 202) throw new Error(`batch: ${trigger.status} ${JSON.stringify(trigger.body)}`);
  await crashAndRestart('payout_batch', null);

  // after the last restart: every source has its event at the receiver
  const saleOrders = new Set(orders.map((o) => String(o.id)));
  const refundRows = (
    await lines.find({ shopId: sid, type: 'refund' }, { projection: { _id: 1 } }).toArray()
  ).map((x) => String(x._id));
  const batches = await db
    .collection('payout_batches')
    .find({ shopId: sid, status: { $in: ['completed', 'carried_forward'] } })
    .toArray();
  const received = () => {
    const byType = new Map(types.map((t) => [t, new Map()])); // type → event id → body
    for (const [id, bodies] of r.bodies) {
      const b = JSON.parse([...bodies][0]);
      byType.get(b.type)?.set(id, b);
    }
    return byType;
  };
  const missing = () => {
    const got = received();
    const ordersSeen = new Set([...got.get('order.received').values()].map((b) => b.data.object.orderId));
    const rowsSeen = new Set(
      [...got.get('refund.recorded').values()].flatMap((b) => b.data.object.refundRows.map((x) => x._id)),
    );
    const batchesSeen = new Set(
      [...got.get('payout_batch.paid').values(), ...got.get('payout_batch.carried_forward').values()].map(
        (b) => b.data.object._id,
      ),
    );
    return {
      orders: [...saleOrders].filter((o) => !ordersSeen.has(o)).length,
      refundRows: refundRows.filter((x) => !rowsSeen.has(x)).length,
      batches: batches.filter((b) => !batchesSeen.has(String(b._id))).length,
    };
  };
  const lostOf = (m) => m.orders + m.refundRows + m.batches;
  const drainMs = await until('every event received', () => lostOf(missing()) === 0, 90_000, 500).catch(
    () => null,
  );
  const got = received();
  // exactly once in our records: one event per order, each refund row in one event
  const perOrder = new Map();
  for (const b of got.get('order.received').values())
    perOrder.set(b.data.object.orderId, (perOrder.get(b.data.object.orderId) ?? 0) + 1);
  const perRow = new Map();
  for (const b of got.get('refund.recorded').values())
    for (const x of b.data.object.refundRows) perRow.set(x._id, (perRow.get(x._id) ?? 0) + 1);
  const duplicated =
    [...perOrder.values()].filter((n) => n > 1).length + [...perRow.values()].filter((n) => n > 1).length;
  const twoBodies = [...r.bodies.values()].filter((set) => set.size > 1).length;
  // the sweeper clears the markers of recorded events (the requests leave them to it)
  await until(
    'every pending-event marker cleared',
    async () =>
      (await lines.countDocuments({ shopId: sid, eventPendingAt: { $exists: true } })) +
        (await db.collection('payout_batches').countDocuments({ shopId: sid, eventPendingAt: { $exists: true } })) ===
      0,
    60_000,
    1000,
  ).catch(() => null);
  const stillPending =
    (await lines.countDocuments({ shopId: sid, eventPendingAt: { $exists: true } })) +
    (await db
      .collection('payout_batches')
      .countDocuments({ shopId: sid, eventPendingAt: { $exists: true } }));
  const lost = lostOf(missing());
  await conn.close();
  await r.close();
  const killed = signals.filter((x) => x === 'SIGKILL').length;
  report(
    '(g) API kill -9 in the crash window of order.received, refund.recorded, payout_batch.paid',
    {
      lost,
      missing: missing(),
      duplicated,
      twoBodies,
      kills: `${killed}/3`,
      pendingAtCrash,
      orders: `${perOrder.size}/${saleOrders.size}`,
      refundRows: `${perRow.size}/${refundRows.length}`,
      batches: batches.length,
      stillPending,
      drainedS: drainMs === null ? 'timeout' : (drainMs / 1000).toFixed(1),
    },
    lost === 0 &&
      duplicated === 0 &&
      twoBodies === 0 &&
      killed === 3 &&
      batches.length === 1 &&
      pendingAtCrash['order.received'] > 0 &&
      pendingAtCrash['refund.recorded'] > 0 &&
      pendingAtCrash.payout_batch > 0 &&
      stillPending === 0 &&
      drainMs !== null,
  );
}

module.exports = { moneyEventsScenario };
