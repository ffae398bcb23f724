// Issue 32 item 5: the seller tax report (GET /v1/reports/seller-tax) for BENCH_TAX_VENDORS vendors
// (default 1,000) × 4 quarters over BENCH_TAX_ROWS line items (default 100,000) of one shop and year:
// p95 ≤ 5 s over BENCH_TAX_REQUESTS (default 5) sequential calls, as JSON and as CSV. Rows are seeded
// straight into the database in the shape ingestion stores them (payouts.bench.js's lineItem, with
// `type` and `inPayouts`): 90 % payable sale rows, 5 % refund rows (negative, dated at the refund), 5 %
// sale rows of unpaid orders (not counted); settings-like figures for tcs, deductions and tax on
// commission. The answer is checked against the seeded rows summed here in integer cents.
//   npm run bench -- seller-tax        (BENCH_TAX_ROWS=20000 BENCH_TAX_VENDORS=200 for a smaller run)
const { MongoClient, ObjectId } = require('mongodb');
const { BASE, benchShop } = require('./harness');
const { lineItem, seedVendors, insertChunked } = require('./payouts.bench');

const ROWS = Number(process.env.BENCH_TAX_ROWS || 100_000);
const VENDORS = Number(process.env.BENCH_TAX_VENDORS || 1_000);
const REQUESTS = Number(process.env.BENCH_TAX_REQUESTS || 5);
const YEAR = 2025;
const YEAR_MS = Date.UTC(YEAR + 1, 0, 1) - Date.UTC(YEAR, 0, 1);

const pct = (samples, p) => {
  const s = [...samples].sort((a, b) => a - b);
  return +s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))].toFixed(1);
};
const cents = (n) => Math.round(n * 100);
const amount = (c) => c / 100;

/** Row i: its vendor, date (spread over the year) and kind; figures on the cent grid. */
function taxRow(shopId, vendors, i) {
  const vendor = vendors[i % VENDORS];
  const kind = i % 20 === 19 ? 'refund' : i % 20 === 18 ? 'unpaid' : 'sale';
  // Half the rows come in pairs, rows i and i + VENDORS: one vendor, one order, the order's date.
  const paired = i % 40 < 20;
  const first = paired ? Math.floor(i / (2 * VENDORS)) * 2 * VENDORS + (i % VENDORS) : i;
  const at = Date.UTC(YEAR, 0, 1) + Math.floor((first / ROWS) * YEAR_MS);
  const orderId = 7_000_000 + first;
  const li = lineItem(shopId, vendor, 30_000_000 + i, at, kind === 'unpaid' ? 'pending' : 'paid');
  const sad = cents(li.salesAfterDiscount);
  const f = {
    salesAfterDiscount: sad,
    commission: cents(li.commission),
    taxOnCommissions: Math.round(cents(li.commission) * 0.18),
    tcs: Math.round(sad * 0.01),
    totalGlobalDeductions: Math.round(sad * 0.02),
    deduction: i % 7 === 0 ? 50 : 0,
  };
  const sign = kind === 'refund' ? -1 : 1;
  const figures = Object.fromEntries(Object.entries(f).map(([k, v]) => [k, amount(sign * v)]));
  return {
    ...li,
    ...figures,
    orderId,
    type: 'sale',
    ...(kind === 'refund'
      ? {
          type: 'refund',
          refundId: String(9_000_000 + i),
          refundLineItemId: String(9_500_000 + i),
          quantity: 0,
        }
      : {}),
    inPayouts: kind !== 'unpaid',
  };
}

/** The expected report, summed from the seeded rows in integer cents (vendor → totals). */
function expected(rows, acc) {
  for (const r of rows) {
    if (!r.inPayouts) continue;
    const v = String(r.vendorId);
    const t = acc.get(v) ?? { consideration: 0, commissions: 0, fees: 0, taxes: 0, orders: new Set() };
    t.consideration += cents(r.salesAfterDiscount);
    t.commissions += cents(r.commission) + cents(r.taxOnCommissions);
    t.fees += cents(r.totalGlobalDeductions) + cents(r.deduction);
    t.taxes += cents(r.tcs);
    if (r.type === 'sale') t.orders.add(r.orderId);
    acc.set(v, t);
  }
}

async function timed(path, token, headers = {}) {
  const t0 = performance.now();
  const res = await fetch(BASE + path, { headers: { 'x-access-token': token, ...headers } });
  const body = await res.text();
  return { ms: performance.now() - t0, status: res.status, body };
}

async function sellerTax() {
  const client = await MongoClient.connect(process.env.MONGODB_URI);
  const db = client.db();
  const items = db.collection('line_items');
  const shop = await benchShop('bench-seller-tax');
  const shopId = new ObjectId(shop.shopId);
  try {
    const vendors = await seedVendors(
      db,
      shopId,
      Array.from({ length: VENDORS }, (_, v) => `tax vendor ${String(v).padStart(4, '0')}`),
    );
    const oracle = new Map();
    const t0 = Date.now();
    await insertChunked(items, ROWS, (i) => {
      const row = taxRow(shopId, vendors, i);
      expected([row], oracle);
      return row;
    });
    const seedSeconds = ((Date.now() - t0) / 1000).toFixed(1);
    const path = `/v1/reports/seller-tax?year=${YEAR}`;
    const rows = [];
    const verdicts = [];
    const formats = [
      ['JSON', {}],
      ['CSV', { accept: 'text/csv' }],
    ];
    // One untimed call first (the store's first read after a bulk insert pays for it), then the two
    // formats interleaved call by call, so both see the same machine and the same store state.
    const warm = await timed(path, shop.token, {});
    const runs = new Map(formats.map(([label]) => [label, { samples: [], bad: 0, last: null }]));
    for (let i = 0; i < REQUESTS; i++) {
      for (const [label, headers] of formats) {
        const r = await timed(path, shop.token, headers);
        const run = runs.get(label);
        run.samples.push(r.ms);
        if (r.status !== 200) run.bad++;
        run.last = r.body;
      }
    }
    for (const [label] of formats) {
      const { samples, bad, last } = runs.get(label);
      if (label === 'JSON' && bad === 0) {
        const report = JSON.parse(last);
        const wrong = report.vendors.filter((v) => {
          const e = oracle.get(v.vendorId);
          return (
            !e ||
            cents(v.totals.consideration) !== e.consideration ||
            cents(v.totals.commissions) !== e.commissions ||
            cents(v.totals.fees) !== e.fees ||
            cents(v.totals.taxes) !== e.taxes ||
            v.totals.numberOfOrders !== e.orders.size
          );
        });
        verdicts.push({
          target: 'seller tax report totals equal the seeded rows (integer cents)',
          value: `${report.vendors.length} vendors, ${wrong.length} wrong`,
          pass: wrong.length === 0 && report.vendors.length === oracle.size,
        });
      }
      const row = {
        scenario: `GET /v1/reports/seller-tax ${label} (${VENDORS} vendors, ${ROWS} rows)`,
        requests: REQUESTS,
        p50_ms: pct(samples, 50),
        p95_ms: pct(samples, 95),
        max_ms: pct(samples, 100),
        bytes: last ? Buffer.byteLength(last) : 0,
        bad,
        seed_s: seedSeconds,
        warm_up_ms: Math.round(warm.ms),
      };
      rows.push(row);
      verdicts.push({
        target: `seller tax report (${label}) p95 ≤ 5 s at ${VENDORS} vendors × 4 quarters over ${ROWS} rows`,
        value: `p50 ${row.p50_ms} ms, p95 ${row.p95_ms} ms`,
        pass: row.p95_ms <= 5000 && bad === 0,
      });
    }
    return { rows, verdicts };
  } finally {
    if (!process.env.BENCH_KEEP)
      for (const name of ['line_items', 'vendors']) await db.collection(name).deleteMany({ shopId });
    await client.close();
  }
}

module.exports = sellerTax;
module.exports.taxRow = taxRow;
