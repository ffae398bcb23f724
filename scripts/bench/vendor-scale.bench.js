// Issue 30's vendor-surface targets at the `scale` size, affordably: `npm run bench -- vendor-scale`.
//
// The same data as the scale group (BENCH_SCALE_SHOPS shops, default 10; BENCH_SCALE_ORDERS orders in
// all, default 20,000, three lines each; the same vendors, portal users, adjustments, products, order
// payloads, ids, dates and hot SKU; payout batches up to yesterday), but the orders skip the HTTP
// hop, the inbox and the queue: seed-orders.js hands each payload, in-process, to the call the
// ingestion worker makes for a claimed delivery (WebhookProcessingService.apply), so line items,
// orders, order summaries, balances and events are the documents webhook ingestion stores (only the
// inbox's delivery records are missing). Shops, users, adjustments, products and batches go through
// the API as in the scale group. Then vendor-surface.js's measurements, and the database commands
// each vendor read costs (a capturing second server, as the scale group does for the lists).
// Not done here (the scale group's own targets): ingestion throughput, the by-SKU recalculation,
// the 100-item updates.
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { MongoClient } = require('mongodb');
const harness = require('./harness');
const { drained } = require('./shopify');
const rules = require('./rules');
const scale = require('./scale.bench');
const vendorSurface = require('./vendor-surface');

const SHOPS = Number(process.env.BENCH_SCALE_SHOPS || 10);
const ORDERS = Number(process.env.BENCH_SCALE_ORDERS || 20000);

const progress = (msg) => process.stderr.write(`[vendor-scale] ${new Date().toISOString()} ${msg}\n`);

/** Runs seed-orders.js on the job; resolves with its JSON answer. */
const seedOrders = (job) => harness.runChild('seed-orders.js', job);

/** The vendor reads of vendor-surface.js, each once on a capturing server: database commands per request. */
async function roundTrips(probe, orderId) {
  const reads = [
    ['vendor GET /orders/{id}', `/orders/${orderId}`, 'vendorToken'],
    ['vendor GET /orders/counts', '/orders/counts', 'vendorToken'],
    ['vendor GET /fulfillments/counts', '/fulfillments/counts', 'vendorToken'],
    ['vendor GET /dashboard?range=30d', '/dashboard?range=30d', 'vendorToken'],
    ['shop GET /v2/dashboard?range=30d', '/v2/dashboard?range=30d', 'token'],
  ];
  const dir = mkdtempSync(join(tmpdir(), 'vendor-scale-capture-'));
  // not PORT + 1: the engineers' bench ports are consecutive (3991 + 1 is another's API)
  const port2 = Number(process.env.BENCH_CAPTURE_PORT || harness.PORT + 100);
  const base2 = `http://127.0.0.1:${port2}`;
  const capturing = await harness.startServer(
    { DB_COMMAND_CAPTURE_DIR: dir, DB_COMMAND_CAPTURE_VALUES: 'true', QUEUE_PROCESSORS: 'false' },
    port2,
  );
  const ids = new Map();
  try {
    for (const [name, path, kind] of reads) {
      await scale.call(base2, 'GET', path, undefined, probe[kind]); // warm-up (token, key caches)
      ids.set(name, await scale.requestIdOf(base2, path, probe[kind]));
    }
  } finally {
    capturing.kill('SIGTERM');
    await new Promise((r) => capturing.once('exit', r));
  }
  const captured = scale.readCapture(dir);
  rmSync(dir, { recursive: true, force: true });
  return reads.map(([name]) => {
    const mine = captured.filter((c) => c.op === ids.get(name));
    const work = mine.filter((c) => c.phase !== 'auth');
    return {
      endpoint: `${name}: database commands`,
      db_commands: work.length,
      auth_commands: mine.length - work.length,
      documents: work.reduce((n, c) => n + c.docs, 0),
      commands: work.map((c) => `${c.command}:${c.collection}`).join(' '),
    };
  });
}

/** With BENCH_REUSE=1, what an earlier run of this scenario seeded in this database (else null). */
async function seededBefore() {
  if (!process.env.BENCH_REUSE) return null;
  const client = new MongoClient(process.env.MONGODB_URI);
  await client.connect();
  try {
    return await client
      .db()
      .collection('bench_state')
      .findOne({ _id: 'vendor-scale', shops: SHOPS, orders: ORDERS });
  } finally {
    await client.close();
  }
}

/** Seeds the scale data (shops, products, orders, payout batches); resolves with {shops, idBase, seeded}. */
async function seed(base) {
  progress(`setting up ${SHOPS} shops`);
  const shops = [];
  for (let n = 0; n < SHOPS; n++) shops.push(await scale.setUpShop(base, n));
  for (const [n, shop] of shops.entries())
    if (rules.withRules(n)) await rules.seedRules(scale.call, base, shop);
  await drained('ingestion', 3600_000); // the products (webhooks) before the orders, as in the scale group

  // The scale group's orders, payload for payload (scale.bench.js, step 1).
  const perShop = Math.floor(ORDERS / SHOPS);
  const idBase = Math.floor(Date.now() / 1000) * 1000;
  const created = (i) =>
    new Date(Date.now() - 90 * 86400_000 + Math.floor((i / perShop) * 89 * 86400_000)).toISOString();
  const orders = [];
  for (let n = 0; n < SHOPS; n++) {
    for (let i = 0; i < perShop; i++) orders.push([n, scale.scaleOrder(n, i, perShop, idBase, created(i))]);
  }
  progress(`seeding ${orders.length} orders (${orders.length * 3} line items) in-process`);
  const seeded = await seedOrders({
    shops: shops.map((s) => ({ shopId: s.shopId, vendorIds: s.vendors.map((v) => v._id) })),
    orders,
  });
  progress(`seeded ${seeded.orders} orders in ${(seeded.ms / 1000).toFixed(1)} s`);

  // Payout batches as in the scale group (step 4).
  const until = new Date(Date.now() - 86400_000).toISOString().slice(0, 10);
  for (const shop of shops) await scale.call(base, 'POST', '/v1/payouts/batches', { until }, shop.token);
  await drained('payouts', 3600_000);
  progress('payout batches done');
  const client = new MongoClient(process.env.MONGODB_URI);
  await client.connect();
  try {
    const state = { shops, idBase, seeded };
    await client
      .db()
      .collection('bench_state')
      .replaceOne({ _id: 'vendor-scale' }, { shops: SHOPS, orders: ORDERS, state }, { upsert: true });
  } finally {
    await client.close();
  }
  return { shops, idBase, seeded };
}

/**
 * BENCH_REUSE: an earlier run fulfilled the probe vendor's lines in two-line orders (all 1,000 of
 * them at the default size); cancels those fulfilments through the API (one DELETE per order: it
 * cancels the order's platform fulfilment, both lines), so this run has them to fulfil again.
 */
async function cancelBenchFulfilments(base, probe, db) {
  const { ObjectId } = require('mongodb');
  const rows = await db
    .collection('line_items')
    .find(
      {
        shopId: new ObjectId(String(probe.shopId)),
        vendorId: new ObjectId(String(probe.vendors[0]._id)),
        fulfillmentStatus: 'fulfilled',
        'fulfillment.trackingNumber': /^BENCH/,
      },
      { projection: { _id: 1, orderId: 1 } },
    )
    .toArray();
  const firstPerOrder = new Map();
  for (const r of rows) if (!firstPerOrder.has(r.orderId)) firstPerOrder.set(r.orderId, r._id);
  progress(`BENCH_REUSE: cancelling ${firstPerOrder.size} orders' fulfilments of the last run`);
  for (const id of firstPerOrder.values()) {
    // no body, so no content-type (scale.call sends one, which the body parser refuses empty)
    const res = await fetch(`${base}/fulfillments/${id}`, {
      method: 'DELETE',
      headers: { 'x-access-token': probe.vendorToken },
    });
    if (!res.ok)
      throw new Error(`DELETE /fulfillments/${id} → ${res.status} ${(await res.text()).slice(0, 300)}`);
  }
}

module.exports = async function vendorScale(server) {
  const base = harness.BASE;
  const t0 = Date.now();
  const before = await seededBefore();
  if (before) progress('BENCH_REUSE: the data an earlier run seeded (shops, orders, batches) is reused');
  const { shops, idBase, seeded } = before ? before.state : await seed(base);

  const probe = shops[1 % shops.length];
  probe.n = 1 % shops.length;
  const orderId = idBase + probe.n * 1_000_000 + 7;
  const client = new MongoClient(process.env.MONGODB_URI);
  await client.connect();
  let v;
  try {
    if (before) await cancelBenchFulfilments(base, probe, client.db());
    progress('vendor surface: order detail, counts, dashboards, 100-line fulfilments');
    v = await vendorSurface({
      base,
      call: scale.call,
      shop: { ...probe, vendorId: probe.vendors[0]._id },
      orderId,
      db: client.db(),
    });
  } finally {
    await client.close();
  }
  progress('database commands per vendor read (capturing server)');
  const trips = await roundTrips(probe, orderId);
  const rows = [
    ...v.rows,
    ...trips,
    { endpoint: `seeding ${seeded.orders} orders in-process`, seconds: +(seeded.ms / 1000).toFixed(1) },
    { endpoint: 'API peak RSS', mb: Math.round(harness.rssMb(server.pid).peak) },
    { endpoint: 'whole run', seconds: Math.round((Date.now() - t0) / 1000) },
  ];
  return { rows, verdicts: v.verdicts };
};
