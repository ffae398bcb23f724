// Issue 11: the service at a size people evaluate with, on the default store.
//
// Seeds BENCH_SCALE_SHOPS shops (default 10) with BENCH_SCALE_ORDERS orders in all (default 20,000,
// three line items each: 60,000) through the real ingestion path (signed webhooks), plus vendors,
// portal users, products, adjustments and payout batches, then reports:
//   - ingestion orders/s end to end (first webhook → queue drained)                 target ≥ 150/s
//   - a by-SKU recalculation of 1,000 lines, request → job completed                 target < 15 s
//   - POST /v1/lineitems/update with 100 items, p50                                   target < 1.5 s
//   - p50/p95/p99 of every list endpoint at its default page size (and an order with
//     its line items), each against its floor: the same database commands replayed
//     directly through the driver, grouped as the app ran them (parallel where the
//     app ran them in parallel)                          targets: p95 < 300 ms, app/floor ≤ 1.3
//   - the database commands and documents each endpoint costs (round trips)
//   - the API's peak RSS                                                              target < 300 MB
// The floors and the round-trip table come from a second server on BENCH_PORT+1 started with
// DB_COMMAND_CAPTURE_DIR (capture stays off while latencies are measured).
// Then issue 30's vendor-surface targets (vendor-surface.js) on the same data.
// BENCH_SCALE_RULES=on|both seeds commission rules before ingestion (rules.js); `both` reports the
// ingestion of the shops with and without rules side by side (orders/s each, and the issue 31 verdict:
// with rules within 10 % of without). BENCH_SCALE_ONLY_INGESTION=1 stops after the ingestion.
const { mkdtempSync, readdirSync, readFileSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { MongoClient } = require('mongodb');
const { BSON } = require('mongodb');
const { EJSON } = BSON;
const harness = require('./harness');
const { shopifyOrder, sendWebhook, pool, drained } = require('./shopify');
const rules = require('./rules');
const vendorSurface = require('./vendor-surface');

const SHOPS = Number(process.env.BENCH_SCALE_SHOPS || 10);
const ORDERS = Number(process.env.BENCH_SCALE_ORDERS || 20000);
const HOT_LINES = Math.min(Number(process.env.BENCH_SCALE_HOT || 1000), Math.floor(ORDERS / SHOPS));
const REPEAT = Number(process.env.BENCH_SCALE_REPEAT || 50);
const SEND_CONCURRENCY = Number(process.env.BENCH_SEND_CONCURRENCY || 32);
const VENDORS = [
  ['Acme Apparel', 'percentage', 12],
  ['Globex Gadgets', 'flat', 1.5],
  ['Initech Home', 'percentage', 8],
];
const SKUS = [
  ['ACME-TEE-M', 'Acme Apparel', '24.00'],
  ['GLX-BUDS', 'Globex Gadgets', '59.00'],
  ['INI-MUG', 'Initech Home', '14.50'],
];

const progress = (msg) => process.stderr.write(`[scale] ${new Date().toISOString()} ${msg}\n`);

function stats(samples) {
  const s = [...samples].sort((a, b) => a - b);
  const at = (p) => s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
  return { p50: +at(50).toFixed(1), p95: +at(95).toFixed(1), p99: +at(99).toFixed(1) };
}

async function timeIt(fn) {
  const t0 = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

async function call(base, method, path, body, token, headers = {}) {
  const res = await fetch(base + path, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { 'x-access-token': token } : {}), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : undefined;
}

/** Orders of the probe shop (shop 1) whose lines give its first vendor two lines each (vendor-surface.js). */
const TWO_LINE_ORDERS = Number(process.env.BENCH_VENDOR_TWO_LINE_ORDERS || 500);

/**
 * Order `i` of shop `n`: three lines, one per vendor; shop 0's first HOT_LINES orders carry the hot
 * SKU and stay pending (so the payout batches do not freeze them); shop 1's newest TWO_LINE_ORDERS
 * orders carry two lines of the first vendor (a 100-line vendor fulfilment spans at most 50
 * orders), so the size stays 3 lines per order.
 */
function scaleOrder(n, i, perShop, idBase, createdAt) {
  const hot = n === 0 && i < HOT_LINES;
  const twoLine = n === 1 && i >= perShop - TWO_LINE_ORDERS;
  let lines = SKUS;
  if (hot) lines = [['BENCH-HOT', 'Acme Apparel', '24.00'], SKUS[1], SKUS[2]];
  else if (twoLine) lines = [SKUS[0], ['ACME-CAP', 'Acme Apparel', '18.00'], SKUS[1]];
  return shopifyOrder(idBase + n * 1_000_000 + i, i, createdAt, lines, hot ? { financialStatus: 'pending' } : {});
}

/**
 * A GET whose database commands are to be found in a capture: our request id, as answered in
 * `x-request-id` (a caller's own id is only echoed and logged beside ours, never taken as ours, so
 * the captured commands carry ours).
 */
async function requestIdOf(base, path, token) {
  const res = await fetch(base + path, { headers: token ? { 'x-access-token': token } : {} });
  await res.text();
  if (!res.ok) throw new Error(`GET ${path} → ${res.status}`);
  return res.headers.get('x-request-id');
}

/** One shop with vendors, users, products, adjustments and tokens of all three kinds. */
async function setUpShop(base, n) {
  const shop = await harness.benchShop(`scale${n}`);
  const vendors = [];
  for (const [vendorName, commissionType, commissionAmount] of VENDORS) {
    const res = await call(base, 'POST', '/v1/vendors', { vendorName, commissionType, commissionAmount }, shop.token);
    vendors.push(res.vendor);
  }
  for (let u = 0; u < 6; u++) {
    await call(
      base,
      'POST',
      '/v1/users',
      { vendorId: vendors[u % 3]._id, email: `u${u}@shop${n}.example.com`, password: 'S3cure-portal-pass' },
      shop.token,
    );
  }
  const vendorAuth = await call(base, 'POST', '/v2/vendor/authenticate', {
    shopDomain: shop.shopDomain,
    email: `u0@shop${n}.example.com`,
    password: 'S3cure-portal-pass',
  });
  for (let a = 0; a < 20; a++) {
    await call(
      base,
      'POST',
      '/v2/payout-adjustments',
      { vendorId: vendors[a % 3]._id, amount: 5 + a, type: a % 4 ? 'ADDITION' : 'DEDUCTION' },
      shop.merchantToken,
    );
  }
  for (let p = 0; p < 30; p++) {
    await sendWebhook(shop, 'products/create', {
      id: 9_000_000 + n * 1000 + p,
      title: `Product ${p}`,
      vendor: VENDORS[p % 3][0],
      status: 'active',
      created_at: new Date(Date.UTC(2026, 0, 1) + p * 60_000).toISOString(),
      updated_at: new Date(Date.UTC(2026, 0, 1) + p * 60_000).toISOString(),
      variants: [{ id: 8_000_000 + n * 1000 + p, sku: `P-${p}`, price: '10.00' }],
    });
  }
  await rules.storeOrderProducts(shop, VENDORS.map(([name]) => name));
  return { ...shop, vendors, vendorToken: vendorAuth.data.token };
}

/** Replays captured commands: groups that overlapped in the app run in parallel, groups in order. */
function replayGroups(commands) {
  const sorted = [...commands].sort((a, b) => a.t - b.t);
  const groups = [];
  let end = -Infinity;
  for (const c of sorted) {
    if (groups.length && c.t < end) groups[groups.length - 1].push(c);
    else groups.push([c]);
    end = Math.max(end, c.t + c.ms);
  }
  return groups;
}

const STRIP = ['lsid', '$clusterTime', '$db', '$readPreference', 'txnNumber', 'apiVersion', 'apiStrict', 'apiDeprecationErrors'];

function readCapture(dir) {
  const commands = [];
  for (const name of readdirSync(dir)) {
    if (!name.startsWith('commands-')) continue;
    for (const line of readFileSync(join(dir, name), 'utf8').split('\n')) {
      if (!line) continue;
      const rec = JSON.parse(line);
      if (rec.kind === 'command') commands.push(rec);
    }
  }
  return commands;
}

async function scale(server) {
  const base = harness.BASE;
  const mark = (msg) => progress(`${msg} (API RSS ${Math.round(harness.rssMb(server.pid).current)} MB, peak ${Math.round(harness.rssMb(server.pid).peak)} MB)`);
  const t0 = Date.now();
  progress(`setting up ${SHOPS} shops`);
  const shops = [];
  for (let n = 0; n < SHOPS; n++) shops.push(await setUpShop(base, n));
  const seeded = [];
  for (const [n, shop] of shops.entries()) if (rules.withRules(n)) seeded.push(await rules.seedRules(call, base, shop));
  // with rules in play, the order products' types are stored before the first order arrives
  if (rules.MODE !== 'off') await drained('ingestion', 3600_000);
  if (seeded.length) {
    const ms = seeded.reduce((a, x) => a + x.ms, 0);
    const count = seeded.reduce((a, x) => a + x.count, 0);
    mark(`seeded ${count} commission rules in ${seeded.length} shops (${seeded[0].via}): ${(count / (ms / 1000)).toFixed(0)} rules/s`);
  }

  // 1. Ingestion, end to end: every order of every shop as a signed webhook.
  const perShop = Math.floor(ORDERS / SHOPS);
  const idBase = Math.floor(Date.now() / 1000) * 1000;
  const created = (i) => new Date(Date.now() - 90 * 86400_000 + Math.floor((i / perShop) * 89 * 86400_000)).toISOString();
  const work = [];
  for (let n = 0; n < SHOPS; n++) for (let i = 0; i < perShop; i++) work.push([n, i]);
  progress(`ingesting ${work.length} orders (${work.length * 3} line items)`);
  const groups = rules.ingestionGroups();
  const spent = await rules.ingestGroups(work, groups, SEND_CONCURRENCY, async ([n, i]) => {
    await sendWebhook(shops[n], 'orders/create', scaleOrder(n, i, perShop, idBase, created(i)));
  });
  const ingestMs = [...spent.values()].reduce((a, b) => a + b, 0);
  const ordersPerSec = work.length / (ingestMs / 1000);
  mark(`ingested in ${(ingestMs / 1000).toFixed(1)} s: ${ordersPerSec.toFixed(0)} orders/s`);
  const ingestRows = rules.ingestionRows(work, groups, spent);
  if (process.env.BENCH_SCALE_ONLY_INGESTION === '1') {
    return {
      rows: [{ endpoint: `ingestion of ${work.length} orders`, seconds: +(ingestMs / 1000).toFixed(1), 'orders/s': +ordersPerSec.toFixed(1) }, ...ingestRows],
      verdicts: rules.ingestionVerdicts(work, groups, spent),
    };
  }

  // 2. A by-SKU recalculation of the hot SKU's lines after a settings change, until its job completes.
  const s0 = shops[0];
  await call(base, 'PUT', '/v1/shop/settings', { taxOnCommissionRate: 18 }, s0.token);
  const r0 = Date.now();
  const recalc = await call(base, 'POST', '/v1/lineitems/update', { bySku: 'BENCH-HOT', recalculate: true }, s0.token);
  for (;;) {
    const job = await call(base, 'GET', `/v1/jobs/${recalc.jobId}`, undefined, s0.token);
    if (job.state === 'completed') break;
    if (job.state === 'failed') throw new Error(`recalculation job failed: ${JSON.stringify(job.errors)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const recalcMs = Date.now() - r0;
  mark(`by-SKU recalculation of ${recalc.recalculateQueued} lines: ${recalcMs} ms`);

  // 3. 100-item updates on 34 orders of shop 0.
  const pairs = [];
  for (let i = perShop - 1; pairs.length < 100; i--)
    for (let j = 0; j < 3 && pairs.length < 100; j++) pairs.push([idBase + i, (idBase + i) * 10 + j]);
  const updateSamples = [];
  for (let k = 0; k < 20; k++) {
    const items = pairs.map(([orderId, lineItemId]) => ({ orderId, lineItemId, fields: { deduction: (k % 7) + 0.25 } }));
    updateSamples.push(await timeIt(() => call(base, 'POST', '/v1/lineitems/update', { items }, s0.token)));
  }
  const update = stats(updateSamples);

  // 4. Payout batches for every shop (each pays the paid lines up to yesterday and the adjustments).
  const until = new Date(Date.now() - 86400_000).toISOString().slice(0, 10);
  for (const shop of shops) await call(base, 'POST', '/v1/payouts/batches', { until }, shop.token);
  await drained('payouts', 3600_000);
  mark('payout batches done');

  // 5. The lists' database commands: each request once on a capturing server (a second process on
  //    BENCH_PORT+1, so capture stays off where latency is measured).
  const endpoints = [
    ['GET /v1/products', () => '/v1/products', 'token'],
    ['GET /v1/fulfillments', () => '/v1/fulfillments', 'token'],
    ['GET /v1/payouts', () => '/v1/payouts', 'token'],
    ['GET /v1/payouts?vendorId', (s) => `/v1/payouts?vendorId=${s.vendors[0]._id}`, 'token'],
    ['GET /v1/payouts/batches', () => '/v1/payouts/batches', 'token'],
    ['GET /v1/users', () => '/v1/users', 'token'],
    ['GET /v2/orders (shop)', () => '/v2/orders', 'token'],
    ['GET /v2/orders (vendor)', () => '/v2/orders', 'vendorToken'],
    ['GET /v2/vendors', () => '/v2/vendors', 'merchantToken'],
    ['GET /v2/users', () => '/v2/users', 'merchantToken'],
    ['GET /v2/payout-adjustments', () => '/v2/payout-adjustments', 'merchantToken'],
    ['GET /v1/orders/{id}?lineItems=true', (s) => `/v1/orders/${idBase + s.n * 1_000_000 + 7}?lineItems=true`, 'token'],
  ];
  shops.forEach((s, n) => (s.n = n));
  progress('capturing the lists\' database commands on a second server');
  const dir = mkdtempSync(join(tmpdir(), 'scale-capture-'));
  const port2 = harness.PORT + 1;
  const base2 = `http://127.0.0.1:${port2}`;
  const capturing = await harness.startServer(
    { DB_COMMAND_CAPTURE_DIR: dir, DB_COMMAND_CAPTURE_VALUES: 'true', QUEUE_PROCESSORS: 'false' },
    port2,
  );
  const requestIds = new Map();
  const probe = shops[1 % shops.length];
  try {
    for (const [name, path, tokenKind] of endpoints) {
      await call(base2, 'GET', path(probe), undefined, probe[tokenKind]); // warm-up
      requestIds.set(name, await requestIdOf(base2, path(probe), probe[tokenKind]));
    }
  } finally {
    capturing.kill('SIGTERM');
    await new Promise((r) => capturing.once('exit', r));
  }
  const captured = readCapture(dir);
  rmSync(dir, { recursive: true, force: true });

  // 6. Each list at its default page size against its floor — the same commands replayed directly
  //    through the driver, grouped as the app ran them — interleaved request by request, so both
  //    see the same machine (it is shared and noisy).
  const client = new MongoClient(process.env.MONGODB_URI);
  await client.connect();
  const rows = [];
  const verdicts = [];
  try {
    for (const [name, path, tokenKind] of endpoints) {
      const mine = captured.filter((c) => c.op === requestIds.get(name));
      const groups = replayGroups(mine.filter((c) => c.phase !== 'auth' && c.raw));
      const commands = groups.map((g) =>
        g.map((c) => {
          const doc = EJSON.parse(c.raw, { relaxed: false });
          for (const k of STRIP) delete doc[k];
          return { db: c.db, doc };
        }),
      );
      const replay = async () => {
        for (const group of commands) await Promise.all(group.map((c) => client.db(c.db).command(c.doc)));
      };
      const request = () => call(base, 'GET', path(probe), undefined, probe[tokenKind]);
      for (let k = 0; k < 3; k++) {
        await request();
        await replay();
      }
      const appSamples = [];
      const floorSamples = [];
      for (let k = 0; k < REPEAT; k++) {
        appSamples.push(await timeIt(request));
        floorSamples.push(await timeIt(replay));
      }
      const a = stats(appSamples);
      const floor = stats(floorSamples);
      const ratio = +(a.p50 / Math.max(floor.p50, 0.1)).toFixed(2);
      rows.push({
        endpoint: name,
        app_p50_ms: a.p50,
        app_p95_ms: a.p95,
        app_p99_ms: a.p99,
        floor_p50_ms: floor.p50,
        floor_p95_ms: floor.p95,
        'app/floor (p50)': ratio,
        db_commands: mine.filter((c) => c.phase !== 'auth').length,
        auth_commands: mine.filter((c) => c.phase === 'auth').length,
        documents: mine.filter((c) => c.phase !== 'auth').reduce((n, c) => n + c.docs, 0),
      });
      verdicts.push({ target: `${name} p95 < 300 ms`, value: `${a.p95} ms`, pass: a.p95 < 300 });
      verdicts.push({
        target: `${name} app/floor ≤ 1.3`,
        value: `${ratio} (${a.p50} / ${floor.p50} ms)`,
        pass: ratio <= 1.3,
      });
    }
  } finally {
    await client.close();
  }
  // 7. Issue 30's vendor-surface targets on the same data (shop 1's first vendor, signed in as a portal user).
  progress('vendor surface: order detail, counts, dashboards, 100-line fulfilments');
  const vclient = new MongoClient(process.env.MONGODB_URI);
  await vclient.connect();
  try {
    const v = await vendorSurface({
      base,
      call,
      shop: { ...probe, vendorId: probe.vendors[0]._id },
      orderId: idBase + probe.n * 1_000_000 + 7,
      db: vclient.db(),
    });
    rows.push(...v.rows);
    verdicts.push(...v.verdicts);
  } finally {
    await vclient.close();
  }
  const rss = harness.rssMb(server.pid);

  rows.push(
    { endpoint: `ingestion of ${work.length} orders`, seconds: +(ingestMs / 1000).toFixed(1), 'orders/s': +ordersPerSec.toFixed(1) },
    ...ingestRows,
    { endpoint: `by-SKU recalculation (${recalc.recalculateQueued} lines)`, ms: recalcMs },
    { endpoint: 'POST /v1/lineitems/update (100 items)', app_p50_ms: update.p50, app_p95_ms: update.p95 },
    { endpoint: 'API peak RSS', mb: Math.round(rss.peak) },
    { endpoint: 'whole run', seconds: Math.round((Date.now() - t0) / 1000) },
  );
  verdicts.push(
    { target: 'ingestion ≥ 150 orders/s', value: `${ordersPerSec.toFixed(1)} orders/s`, pass: ordersPerSec >= 150 },
    { target: `by-SKU recalculation of ${recalc.recalculateQueued} lines < 15 s`, value: `${recalcMs} ms`, pass: recalcMs < 15000 },
    { target: '100-item update p50 < 1.5 s', value: `${update.p50} ms`, pass: update.p50 < 1500 },
    { target: 'API peak RSS < 300 MB', value: `${Math.round(rss.peak)} MB`, pass: rss.peak < 300 },
  );
  return { rows, verdicts };
}

module.exports = scale;
// The vendor-scale group seeds the same shops and orders faster (vendor-scale.bench.js).
module.exports.setUpShop = setUpShop;
module.exports.call = call;
module.exports.VENDORS = VENDORS;
module.exports.SKUS = SKUS;
module.exports.readCapture = readCapture;
module.exports.scaleOrder = scaleOrder;
module.exports.requestIdOf = requestIdOf;
