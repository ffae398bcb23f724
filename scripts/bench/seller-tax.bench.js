// Issue 32 item 5: the seller tax report (GET /v1/reports/seller-tax) for BENCH_TAX_VENDORS vendors
// (default 1,000) × 4 quarters over BENCH_TAX_ROWS line items (default 100,000) of one shop and year:
// p95 ≤ 5 s over BENCH_TAX_REQUESTS (default 5) sequential calls, as JSON and as CSV. Rows are seeded
// straight into the database in the shape ingestion stores them (payouts.bench.js's lineItem, with
// `type` and `inPayouts`): 90 % payable sale rows, 5 % refund rows (negative, dated at the refund), 5 %
// sale rows of unpaid orders (not counted); settings-like figures for tcs, deductions and tax on
// commission. The rows are marked for the tally as ingestion stores them, and counted by the tally
// in a child process (settle-tally.js), which marks each vendor's quarters for the report's
// refresh. Then: the first report (it recomputes all VENDORS × 4 marked quarters from the rows: what
// a report costs when no refresher has run since the whole year changed), the steady state
// (BENCH_TAX_REQUESTS calls, JSON and CSV; the target), and a report after BENCH_TAX_CHANGED rows
// (default 1,000) changed and were counted (it recomputes only their quarters). Every answer is
// checked against the seeded rows summed here in integer cents.
//   npm run bench -- seller-tax        (BENCH_TAX_ROWS=20000 BENCH_TAX_VENDORS=200 for a smaller run)
const { MongoClient, ObjectId } = require('mongodb');
const { BASE, benchShop, runChild } = require('./harness');
const { lineItem, seedVendors, insertChunked } = require('./payouts.bench');

const ROWS = Number(process.env.BENCH_TAX_ROWS || 100_000);
const VENDORS = Number(process.env.BENCH_TAX_VENDORS || 1_000);
const REQUESTS = Number(process.env.BENCH_TAX_REQUESTS || 5);
const CHANGED = Number(process.env.BENCH_TAX_CHANGED || 1_000);
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
    tallyDirt: 1, // as ingestion stores a new row of a vendor: marked for the tally
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

/** Counts the seeded rows through the tally (settle-tally.js, in-process on dist/): {vendors, ms}. */
const settleTally = (shopId, vendorIds) =>
  runChild('settle-tally.js', { shopId: String(shopId), vendorIds: vendorIds.map(String) });

/** The report's vendors that differ from the oracle (integer cents and order counts). */
function wrongVendors(report, oracle) {
  return report.vendors.filter((v) => {
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
    const settled = await settleTally(
      shopId,
      vendors.map((v) => v._id),
    );
    const path = `/v1/reports/seller-tax?year=${YEAR}`;
    const rows = [];
    const verdicts = [];
    const formats = [
      ['JSON', {}],
      ['CSV', { accept: 'text/csv' }],
    ];
    const checked = (label, r) => {
      const report = r.status === 200 ? JSON.parse(r.body) : { vendors: [] };
      const wrong = wrongVendors(report, oracle);
      verdicts.push({
        target: `seller tax report totals equal the seeded rows (integer cents), ${label}`,
        value: `${report.vendors.length} vendors, ${wrong.length} wrong`,
        pass: r.status === 200 && wrong.length === 0 && report.vendors.length === oracle.size,
      });
    };
    // The first report recomputes every marked quarter (VENDORS × 4) from the rows.
    const first = await timed(path, shop.token, {});
    checked('first report', first);
    rows.push({
      scenario: `first report after ${ROWS} rows counted: recomputes ${VENDORS} × 4 quarters (JSON)`,
      requests: 1,
      p50_ms: +first.ms.toFixed(1),
      p95_ms: +first.ms.toFixed(1),
      max_ms: +first.ms.toFixed(1),
      bytes: Buffer.byteLength(first.body),
      bad: first.status === 200 ? 0 : 1,
      seed_s: seedSeconds,
      tally_s: (settled.ms / 1000).toFixed(1),
    });
    // One untimed call more, then the two formats interleaved call by call (same machine, same state).
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
      if (label === 'JSON' && bad === 0) checked('steady state', { status: 200, body: last });
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
    // CHANGED payable sale rows change by one cent each (as a writer does: the figure and the mark),
    // the tally counts them, and the next report recomputes only their vendors' quarters.
    const changedIds = [];
    for (
      let i = 0;
      changedIds.length < CHANGED && i < ROWS;
      i += Math.max(1, Math.floor(ROWS / CHANGED) - 1)
    ) {
      const row = taxRow(shopId, vendors, i);
      if (!row.inPayouts || row.type !== 'sale') continue;
      changedIds.push(row.lineItemId);
      oracle.get(String(row.vendorId)).consideration += 1;
    }
    await items.updateMany(
      { shopId, lineItemId: { $in: changedIds } },
      { $inc: { salesAfterDiscount: 0.01, tallyDirt: 1 } },
    );
    const touched = await items.distinct('vendorId', { shopId, lineItemId: { $in: changedIds } });
    await settleTally(shopId, touched);
    const after = await timed(path, shop.token, {});
    checked(`after ${changedIds.length} rows changed`, after);
    rows.push({
      scenario: `report after ${changedIds.length} rows of ${touched.length} vendors changed (JSON)`,
      requests: 1,
      p50_ms: +after.ms.toFixed(1),
      p95_ms: +after.ms.toFixed(1),
      max_ms: +after.ms.toFixed(1),
      bytes: Buffer.byteLength(after.body),
      bad: after.status === 200 ? 0 : 1,
    });
    return { rows, verdicts };
  } finally {
    if (!process.env.BENCH_KEEP)
      for (const name of ['line_items', 'vendors', 'vendor_balances', 'seller_tax_years'])
        await db.collection(name).deleteMany({ shopId });
    await client.close();
  }
}

module.exports = sellerTax;
module.exports.taxRow = taxRow;
