// Issue 30's targets on the `scale` bench's data (20,000 orders / 60,000 lines over 10 shops): the
// vendor's order detail, counts and dashboard, the shop's dashboard, and a 100-line vendor
// fulfilment (local adapter). Called by scale.bench.js once its shops are ingested and paid out.
//   targets: GET /orders/{id} p95 ≤ 50 ms; GET /orders/counts and /fulfillments/counts p95 ≤ 100 ms;
//            GET /dashboard?range=30d and /v2/dashboard?range=30d p95 ≤ 200 ms;
//            POST /fulfillments with 100 lines p50 ≤ 1.5 s
const { ObjectId } = require('mongodb');

const REPEAT = Number(process.env.BENCH_VENDOR_REPEAT || 50);
const FULFIL_SAMPLES = Number(process.env.BENCH_VENDOR_FULFIL_SAMPLES || 10);

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

/**
 * @param {object} o
 * @param {string} o.base          the API's address
 * @param {Function} o.call        (base, method, path, body, token) → parsed body; throws on non-2xx
 * @param {object} o.shop          a scale shop: {shopId, token, vendorToken, vendors}
 * @param {number} o.orderId       a platform order id of the shop with a line of the signed-in vendor
 * @param {import('mongodb').Db} o.db the bench database (to pick unfulfilled lines of the vendor)
 */
module.exports = async function vendorSurface({ base, call, shop, orderId, db }) {
  const rows = [];
  const verdicts = [];
  const reads = [
    ['vendor GET /orders/{id}', `/orders/${orderId}`, shop.vendorToken, 50],
    ['vendor GET /orders/counts', '/orders/counts', shop.vendorToken, 100],
    ['vendor GET /fulfillments/counts', '/fulfillments/counts', shop.vendorToken, 100],
    ['vendor GET /dashboard?range=30d', '/dashboard?range=30d', shop.vendorToken, 200],
    ['shop GET /v2/dashboard?range=30d', '/v2/dashboard?range=30d', shop.token, 200],
  ];
  for (const [name, path, token, target] of reads) {
    for (let k = 0; k < 3; k++) await call(base, 'GET', path, undefined, token); // warm-up
    const samples = [];
    for (let k = 0; k < REPEAT; k++) samples.push(await timeIt(() => call(base, 'GET', path, undefined, token)));
    const s = stats(samples);
    rows.push({ endpoint: name, app_p50_ms: s.p50, app_p95_ms: s.p95, app_p99_ms: s.p99 });
    verdicts.push({ target: `${name} p95 ≤ ${target} ms`, value: `${s.p95} ms`, pass: s.p95 <= target });
  }

  // 100 of the signed-in vendor's unfulfilled sale lines per call, from at most 50 orders (the
  // request's limit): the orders where the vendor has two lines (scale.bench.js scaleOrder).
  const vendorId = new ObjectId(String(shop.vendorId));
  const open = await db
    .collection('line_items')
    .find(
      { shopId: new ObjectId(String(shop.shopId)), vendorId, type: 'sale', fulfillmentStatus: 'unfulfilled' },
      { projection: { _id: 1, orderId: 1 } },
    )
    .toArray();
  const byOrder = new Map();
  for (const l of open) byOrder.set(l.orderId, [...(byOrder.get(l.orderId) || []), l]);
  const lines = [...byOrder.values()]
    .filter((ls) => ls.length === 2)
    .flat()
    .slice(0, 100 * FULFIL_SAMPLES);
  const samples = [];
  let fulfilled = 0;
  for (let k = 0; k + 100 <= lines.length; k += 100) {
    const lineItemIds = lines.slice(k, k + 100).map((l) => String(l._id));
    const body = { lineItemIds, trackingNumber: `BENCH${k}`, shippingCarrier: 'UPS', trackingUrl: 'https://ups.example/t' };
    let answer;
    samples.push(await timeIt(async () => (answer = await call(base, 'POST', '/fulfillments', body, shop.vendorToken))));
    fulfilled += answer.data.fulfillments.filter((f) => f.type === 'success').length;
  }
  if (!samples.length) throw new Error(`only ${lines.length} unfulfilled lines of the vendor in two-line orders: need 100`);
  const f = stats(samples);
  rows.push({ endpoint: `vendor POST /fulfillments (100 lines, local adapter) ×${samples.length}`, app_p50_ms: f.p50, app_p95_ms: f.p95, fulfilled });
  verdicts.push({ target: 'POST /fulfillments with 100 lines p50 ≤ 1.5 s', value: `${f.p50} ms (${fulfilled} lines fulfilled)`, pass: f.p50 <= 1500 });
  return { rows, verdicts };
};
