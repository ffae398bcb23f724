// Issue 4: the store data flow at volume. Seeds BENCH_ORDERS orders (default 100000, 3 line items
// each) through signed webhooks, then measures:
//   - ingestion orders/s end to end (first webhook sent → every order's line items queryable)  target ≥ 200/s
//   - a by-SKU recalculation of BENCH_HOT_LINES line items (default 10000), request → queue drained  target ≤ 10 s
//   - POST /v1/lineitems/update with 100 items, p50                                              target < 300 ms
//   - GET /v2/orders?first=20 under load, p99                                                    target < 50 ms
//   - the server's peak RSS                                                                      target < 400 MB
//
// In `npm run bench` it runs against the built server. Standalone, against a server you started:
//   BENCH_PORT=4104 BENCH_SERVER_PID=<pid> BENCH_CLI_TS=1 MONGODB_URI=… QUEUE_PREFIX=… node scripts/bench/dataflow.bench.js
const { execFileSync } = require('node:child_process');
const harness = require('./harness');
const { drained, pool, sendWebhook, shopifyOrder } = require('./shopify');

const N = Number(process.env.BENCH_ORDERS || 100000);
const HOT = Math.min(Number(process.env.BENCH_HOT_LINES || 10000), N);
const SEND_CONCURRENCY = Number(process.env.BENCH_SEND_CONCURRENCY || 32);

function cli(...args) {
  if (!process.env.BENCH_CLI_TS) return harness.cli(...args);
  const out = execFileSync('npx', ['ts-node', '--transpile-only', 'src/cli/main.ts', ...args], {
    env: process.env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return JSON.parse(out.trim().split('\n').pop());
}

const progress = (msg) => process.stderr.write(`[dataflow] ${new Date().toISOString()} ${msg}\n`);

async function http(method, path, body, headers = {}) {
  const res = await fetch(harness.BASE + path, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : undefined;
}

/** Order i: 3 lines over the seeded vendors; every (N / HOT)-th order carries the hot SKU. */
function order(i, base, hotEvery) {
  const id = base + i;
  const created = new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();
  const skus = [
    i % hotEvery === 0 && Math.floor(i / hotEvery) < HOT
      ? ['BENCH-HOT', 'Acme Apparel', '24.00']
      : ['ACME-TEE-M', 'Acme Apparel', '24.00'],
    ['GLX-BUDS', 'Globex Gadgets', '59.00'],
    ['INI-MUG', 'Initech Home', '14.50'],
  ];
  return shopifyOrder(id, i, created, skus);
}

module.exports = async function dataflow(server) {
  progress(`seeding a shop, then ${N} orders`);
  const shop = cli('seed:demo', '--orders', '0');
  const { token } = await http('POST', '/v1/authenticate', {
    apiKey: shop.apiKey,
    shopDomain: shop.shopDomain,
  });
  const auth = { 'x-access-token': token };
  const base = Math.floor(Date.now() / 1000) * 1000;
  const hotEvery = Math.max(1, Math.floor(N / HOT));

  // 1. Ingestion, end to end.
  const t0 = Date.now();
  await pool(
    Array.from({ length: N }, (_, i) => i),
    SEND_CONCURRENCY,
    async (i) => {
      await sendWebhook(shop, 'orders/create', order(i, base, hotEvery));
    },
  );
  const accepted = Date.now() - t0;
  progress(`${N} webhooks accepted in ${accepted} ms; waiting for the ingestion queue`);
  await drained('ingestion', 24 * 3600 * 1000);
  const last = await http('GET', `/v1/orders/${base + N - 1}?lineItems=true`, undefined, auth);
  if (last.orders.length !== 3) throw new Error('last order not fully ingested');
  const ingestMs = Date.now() - t0;
  const ordersPerSec = N / (ingestMs / 1000);

  progress(`ingested ${N} orders in ${ingestMs} ms`);

  // 2. By-SKU recalculation of the hot SKU's line items, after a settings change so every figure moves.
  await http('PUT', '/v1/shop/settings', { taxOnCommissionRate: 18 }, auth);
  const r0 = Date.now();
  const recalc = await http('POST', '/v1/lineitems/update', { bySku: 'BENCH-HOT', recalculate: true }, auth);
  const queuedMs = Date.now() - r0;
  await drained('recalculation', 3600 * 1000);
  const recalcMs = Date.now() - r0;

  progress(`by-SKU recalculation of ${recalc.recalculateQueued} line items: ${recalcMs} ms`);

  // 3. 100-item updates (fields on 100 line items of 34 orders).
  const pairs = [];
  for (let i = N - 1; pairs.length < 100 && i >= 0; i--)
    for (let j = 0; j < 3 && pairs.length < 100; j++) pairs.push([base + i, (base + i) * 10 + j]);
  const updates = await harness.timeSequential(Number(process.env.BENCH_UPDATE_RUNS || 20), (k) =>
    http(
      'POST',
      '/v1/lineitems/update',
      {
        items: pairs.map(([orderId, lineItemId]) => ({
          orderId,
          lineItemId,
          fields: { deduction: (k % 7) + 0.25 },
        })),
      },
      auth,
    ),
  );

  progress(`100-item updates: p50 ${updates.p50_ms} ms`);

  // 4. Order list under load.
  const list = await harness.load(
    'GET /v2/orders?first=20 (shop token)',
    { path: '/v2/orders?first=20', headers: auth, connections: 4, duration: 10 },
    server.pid,
  );
  const peak = Math.round(harness.rssMb(server.pid).peak);

  return {
    rows: [
      {
        scenario: `ingest ${N} orders (${N * 3} line items) via webhooks`,
        accepted_s: +(accepted / 1000).toFixed(1),
        total_s: +(ingestMs / 1000).toFixed(1),
        'orders/s': +ordersPerSec.toFixed(1),
      },
      {
        scenario: `by-SKU recalculation of ${recalc.recalculateQueued} line items`,
        response_ms: queuedMs,
        total_s: +(recalcMs / 1000).toFixed(2),
      },
      { scenario: 'POST /v1/lineitems/update, 100 items', ...updates },
      list,
    ],
    verdicts: [
      {
        target: 'ingestion >= 200 orders/s end to end',
        value: `${ordersPerSec.toFixed(1)} orders/s (${N} orders)`,
        pass: ordersPerSec >= 200,
      },
      {
        target: `by-SKU recalculation of ${HOT} line items <= 10 s`,
        value: `${(recalcMs / 1000).toFixed(2)} s`,
        pass: recalcMs <= 10000 && recalc.recalculateQueued === HOT,
      },
      {
        target: '100-item lineitems/update p50 < 300 ms',
        value: `${updates.p50_ms} ms`,
        pass: updates.p50_ms < 300,
      },
      {
        target: 'GET /v2/orders?first=20 p99 < 50 ms',
        value: list.requests > 0 ? `${list.p99_ms} ms (${list.requests} requests)` : 'no request completed',
        pass: list.requests > 0 && list.non2xx_or_errors === 0 && list.p99_ms < 50,
      },
      { target: 'peak RSS < 400 MB', value: `${peak} MB`, pass: peak < 400 },
    ],
  };
};

if (require.main === module) {
  const pid = Number(process.env.BENCH_SERVER_PID);
  if (!pid) {
    console.error('standalone: set BENCH_SERVER_PID (and BENCH_PORT) of a running server');
    process.exit(2);
  }
  module
    .exports({ pid })
    .then(({ rows, verdicts }) => {
      console.table(rows);
      for (const v of verdicts) console.log(`${v.pass ? 'PASS' : 'MISS'}  ${v.target}: ${v.value}`);
    })
    .catch((err) => {
      console.error(err);
      process.exit(1);
    });
}
