// Issue 17's benches. Rows are seeded straight into the database in the shape ingestion stores
// (payouts.bench.js's lineItem, plus `inPayouts` and `type`); the ingestion path is benched elsewhere.
//
// `payouts-list`: the payouts page's first look at BENCH_LIST_ROWS (default 20,000) payout rows in
//   one shop — GET /v1/payouts unfiltered and with `type`, p50/p95 over BENCH_REQUESTS sequential
//   calls (target p95 ≤ 300 ms) — and the query shapes before/after replayed side by side through
//   the driver on the same data (the old shape on the old index, created for the replay only).
// `money`: at BENCH_MONEY_ROWS (default 100,000) payout rows of one vendor — the statement of a
//   BENCH_STATEMENT_ROWS (5,000) row batch ≤ 1 s, the CSV export of every row ≥ 20,000 rows/s with
//   API RSS growth < 50 MB while streaming, and (once the maintained balance's endpoint exists)
//   GET /v1/vendors/{id}/balance p95 ≤ 50 ms.
const { readFileSync } = require('node:fs');
const { MongoClient, ObjectId } = require('mongodb');
const { BASE, benchShop, cli, json, rssMb } = require('./harness');
const { lineItem, seedVendors, insertChunked } = require('./payouts.bench');

const DAY = 24 * 3600 * 1000;
const START = Date.UTC(2025, 0, 1);
const REQUESTS = Number(process.env.BENCH_REQUESTS || 40);

/** CPU seconds (user + system) a process has used, from /proc. */
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const pct = (samples, p) => {
  const s = [...samples].sort((a, b) => a - b);
  return +s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))].toFixed(1);
};

/** A payout row: a sale line of a paid order, a third of them paid by a batch. */
function payoutRow(shopId, vendor, i, at) {
  const li = lineItem(shopId, vendor, i, at, 'paid');
  const paid = i % 3 === 2;
  return {
    ...li,
    type: 'sale',
    inPayouts: true,
    ...(paid
      ? { paid: li.payout, balance: 0, payoutStatus: 'paid', frozen: true, batchId: 'bench-old-batch' }
      : {}),
  };
}

/** Sequential calls (latency, not queueing): p50, p95, max and how many were not 200. */
async function sequential(path, token, headers = {}) {
  let bad = 0;
  const samples = [];
  for (let i = 0; i < REQUESTS; i++) {
    const t0 = performance.now();
    const res = await fetch(BASE + path, { headers: { 'x-access-token': token, ...headers } });
    await res.arrayBuffer();
    samples.push(performance.now() - t0);
    if (res.status !== 200) bad++;
  }
  return {
    requests: REQUESTS,
    p50_ms: pct(samples, 50),
    p95_ms: pct(samples, 95),
    max_ms: pct(samples, 100),
    bad,
  };
}

async function payoutsList(server) {
  const ROWS = Number(process.env.BENCH_LIST_ROWS || 20_000);
  const client = await MongoClient.connect(process.env.MONGODB_URI);
  const db = client.db();
  const items = db.collection('line_items');
  const shop = await benchShop('bench-payouts-list');
  const shopId = new ObjectId(shop.shopId);
  try {
    const vendors = await seedVendors(db, shopId, ['list vendor a', 'list vendor b', 'list vendor c']);
    await insertChunked(items, ROWS, (i) =>
      payoutRow(shopId, vendors[i % 3], 9_000_000 + i, START + Math.floor((i / ROWS) * 300 * DAY)),
    );
    const rows = [];
    for (const [name, path] of [
      ['GET /v1/payouts?limit=50', '/v1/payouts?limit=50'],
      ['GET /v1/payouts (limit 100)', '/v1/payouts'],
      ['GET /v1/payouts?type=sale&limit=50', '/v1/payouts?type=sale&limit=50'],
      ['GET /v1/payouts?status=unpaid&limit=50', '/v1/payouts?status=unpaid&limit=50'],
    ]) {
      const f = await sequential(path, shop.token);
      rows.push({ scenario: `${name} (${ROWS} rows)`, ...f });
    }
    // The shapes replayed through the driver on the same rows: before (six point ranges of the
    // status index, the count after the page) and after (one range, the count beside the page).
    const oldIndex = {
      shopId: 1,
      inPayouts: 1,
      payoutStatus: 1,
      fulfillmentStatus: 1,
      orderCreatedAt: -1,
      _id: -1,
    };
    await items.createIndex(oldIndex, { name: 'bench_old_payouts_shape' });
    const sort = { orderCreatedAt: -1, _id: -1 };
    const before = async () => {
      const where = {
        shopId,
        inPayouts: true,
        payoutStatus: { $in: ['unpaid', 'partial', 'paid'] },
        fulfillmentStatus: { $in: ['fulfilled', 'unfulfilled'] },
      };
      await items.find(where).sort(sort).limit(50).hint(oldIndex).toArray();
      await items.countDocuments(where, { hint: oldIndex });
    };
    const after = async () => {
      const where = { shopId, inPayouts: true };
      await Promise.all([items.find(where).sort(sort).limit(50).toArray(), items.countDocuments(where)]);
    };
    const b = [];
    const a = [];
    for (let i = 0; i < REQUESTS; i++) {
      // interleaved, so load on the shared machine hits both alike
      let t0 = performance.now();
      await before();
      b.push(performance.now() - t0);
      t0 = performance.now();
      await after();
      a.push(performance.now() - t0);
    }
    await items.dropIndex('bench_old_payouts_shape');
    const ratio = +(pct(b, 50) / pct(a, 50)).toFixed(2);
    rows.push({
      scenario: 'driver: before shape (status $in × fulfillment $in; find then count)',
      p50_ms: pct(b, 50),
      p95_ms: pct(b, 95),
    });
    rows.push({
      scenario: 'driver: after shape (one range; find ‖ count)',
      p50_ms: pct(a, 50),
      p95_ms: pct(a, 95),
    });
    rows.push({ scenario: 'driver: before / after (p50)', ratio });
    const http = rows.slice(0, 3);
    return {
      rows,
      verdicts: [
        ...http.map((r) => ({
          target: `${r.scenario.replace(/ \(.*/, '')} p95 ≤ 300 ms at ${ROWS} rows`,
          value: `p50 ${r.p50_ms} ms, p95 ${r.p95_ms} ms`,
          pass: r.p95_ms <= 300 && r.bad === 0,
        })),
      ],
    };
  } finally {
    for (const name of ['line_items', 'vendors']) await db.collection(name).deleteMany({ shopId });
    await client.close();
  }
}

async function money(server) {
  const ROWS = Number(process.env.BENCH_MONEY_ROWS || 100_000);
  const BATCH_ROWS = Number(process.env.BENCH_STATEMENT_ROWS || 5_000);
  const client = await MongoClient.connect(process.env.MONGODB_URI);
  const db = client.db();
  const items = db.collection('line_items');
  const shop = await benchShop('bench-money');
  const shopId = new ObjectId(shop.shopId);
  try {
    const [vendor] = await seedVendors(db, shopId, ['money vendor']);
    const t0 = Date.now();
    // The batch: BATCH_ROWS rows it paid, a completed batch document carrying their total.
    const batchId = new ObjectId();
    let dueCents = 0;
    await insertChunked(items, ROWS, (i) => {
      const row = payoutRow(shopId, vendor, 20_000_000 + i, START + Math.floor((i / ROWS) * 300 * DAY));
      if (i >= BATCH_ROWS) {
        // stored as the API leaves a row: counted into the vendor's due sum by the tally
        const cents = Math.round(row.payout * 100);
        dueCents += cents;
        return {
          ...row,
          paid: 0,
          balance: row.payout,
          payoutStatus: 'unpaid',
          frozen: false,
          batchId: null,
          tally: { v: vendor._id, k: 'due', c: cents },
          tallyDirt: 0,
        };
      }
      return {
        ...row,
        paid: row.payout,
        balance: 0,
        payoutStatus: 'paid',
        frozen: true,
        batchId: String(batchId),
        batchPaidAmount: row.payout,
        tally: { v: null, k: null, c: 0 },
        tallyDirt: 0,
      };
    });
    const total = await items
      .aggregate([
        { $match: { shopId, batchId: String(batchId) } },
        { $group: { _id: null, t: { $sum: '$batchPaidAmount' } } },
      ])
      .toArray();
    const now = new Date();
    await db.collection('payout_batches').insertOne({
      _id: batchId,
      shopId,
      vendorId: vendor._id,
      vendorName: vendor.vendorName,
      periodEnd: '2025-12-31',
      cutoff: new Date('2025-12-31T23:59:59.999Z'),
      status: 'completed',
      lineItemCount: BATCH_ROWS,
      lineItemTotal: Math.round(total[0].t * 100) / 100,
      adjustmentCount: 0,
      adjustmentTotal: 0,
      total: Math.round(total[0].t * 100) / 100,
      runs: 1,
      lastError: null,
      startedAt: now,
      completedAt: now,
      leaseId: null,
      leaseUntil: null,
      createdAt: now,
      updatedAt: now,
    });
    // …applied to the vendor's balance as the engine applies a settled batch (reconcile proves it).
    const batchTotal = Math.round(total[0].t * 100) / 100;
    // (the API's sweeper may already be counting the rows into this document: upsert, not insert)
    await db.collection('vendor_balances').updateOne(
      { shopId, vendorId: vendor._id },
      {
        $set: {
          paidToDateCents: Math.round(batchTotal * 100),
          dueCents,
          pendingCents: 0,
          carriedForward: 0,
          batchesApplied: 1,
          lastBatchId: batchId,
          lastBatch: {
            batchId,
            status: 'completed',
            periodEnd: '2025-12-31',
            total: batchTotal,
            net: batchTotal,
            settledAt: now,
          },
          updatedAt: now,
        },
        $setOnInsert: { createdAt: now },
      },
      { upsert: true },
    );
    const seedSeconds = ((Date.now() - t0) / 1000).toFixed(1);
    const rows = [{ scenario: `seed ${ROWS} rows of one vendor (direct insert)`, seconds: seedSeconds }];

    const stmtPath = `/v1/payouts/batches/${batchId}/statement`;
    const stmt = await sequential(stmtPath, shop.token);
    const check = await json('GET', stmtPath, undefined, shop.token);
    rows.push({ scenario: `statement JSON, ${BATCH_ROWS}-row batch`, ...stmt, rows: check.rows.length });
    const stmtCsv = await sequential(stmtPath, shop.token, { accept: 'text/csv' });
    rows.push({ scenario: `statement CSV, ${BATCH_ROWS}-row batch`, ...stmtCsv });

    // The export: read as it streams, sampling the server's RSS every 50 ms.
    const base = rssMb(server.pid).current;
    let maxRss = base;
    const sampler = setInterval(() => {
      maxRss = Math.max(maxRss, rssMb(server.pid).current);
    }, 50);
    const c0 = cpuSeconds(server.pid);
    const e0 = performance.now();
    const res = await fetch(`${BASE}/v1/payouts?vendorId=${vendor._id}`, {
      headers: { 'x-access-token': shop.token, accept: 'text/csv' },
    });
    let lines = 0;
    const decoder = new TextDecoder();
    for await (const chunk of res.body)
      lines += (decoder.decode(chunk, { stream: true }).match(/\r\n/g) || []).length;
    const seconds = (performance.now() - e0) / 1000;
    const apiCpu = cpuSeconds(server.pid) - c0;
    clearInterval(sampler);
    const exported = lines - 1;
    const rate = Math.round(exported / seconds);
    const growth = +(maxRss - base).toFixed(1);
    rows.push({
      scenario: `CSV export of every row (${ROWS})`,
      rows: exported,
      seconds: +seconds.toFixed(2),
      'rows/s': rate,
      rss_growth_mb: growth,
      api_cpu_s: +apiCpu.toFixed(2),
    });
    // The same rows read through the driver alone, just after, on the same machine load: the floor
    // (the store's own cost: whole raw documents, as the export now reads them, nothing decoded)
    // and the export's read before csv-speed (the ~30-field projection, deserialized).
    const where = {
      shopId,
      inPayouts: true,
      vendorId: vendor._id,
      type: { $in: ['sale', 'refund', null] },
    };
    const sort = { orderCreatedAt: -1, _id: -1 };
    const { MONEY_ROW_PROJECTION } = require('../../dist/line-items/line-item-views');
    for (const [name, options] of [
      ['driver floor: raw documents, none decoded', { sort, batchSize: 100, raw: true }],
      [
        'driver: the read before (projection, deserialized)',
        { sort, batchSize: 500, projection: MONEY_ROW_PROJECTION },
      ],
    ]) {
      const t0 = performance.now();
      let n = 0;
      for await (const _ of items.find(where, options)) n++;
      const s = (performance.now() - t0) / 1000;
      rows.push({ scenario: `${name} (${n})`, seconds: +s.toFixed(2), 'rows/s': Math.round(n / s) });
    }
    const floor = rows[rows.length - 2]['rows/s'];
    rows.push({ scenario: 'CSV export / driver floor (rows/s)', ratio: +(rate / floor).toFixed(2) });

    // The maintained balance. The rows and the balance document were stored as the API leaves them
    // (every row counted by the tally); payouts:reconcile proves the sums against the rows first.
    const t1 = Date.now();
    const proof = cli('payouts:reconcile', '--domain', shop.domain);
    const catchUp = (Date.now() - t1) / 1000;
    rows.push({
      scenario: `payouts:reconcile (proves the maintained sums against ${ROWS} rows)`,
      seconds: +catchUp.toFixed(1),
      rows: ROWS,
    });
    const [oracle] = await items
      .aggregate([
        { $match: { shopId, vendorId: vendor._id, frozen: false, inPayouts: true } },
        { $group: { _id: null, due: { $sum: '$balance' } } },
      ])
      .toArray();
    const balancePath = `/v1/vendors/${vendor._id}/balance`;
    const balance = await sequential(balancePath, shop.token);
    const read = await json('GET', balancePath, undefined, shop.token);
    const exact = Math.round(read.due * 100) === Math.round(oracle.due * 100) && proof.ok === true;
    rows.push({ scenario: `GET /v1/vendors/{id}/balance (${ROWS} rows, due ${read.due})`, ...balance });
    const stmtMax = Math.max(stmt.max_ms, stmtCsv.max_ms);
    return {
      rows,
      verdicts: [
        {
          target: `statement of a ${BATCH_ROWS}-row batch ≤ 1 s (JSON and CSV, slowest of ${REQUESTS} each)`,
          value: `${stmtMax} ms (JSON p50 ${stmt.p50_ms}, CSV p50 ${stmtCsv.p50_ms})`,
          pass: stmtMax <= 1000 && stmt.bad === 0 && stmtCsv.bad === 0 && check.rows.length === BATCH_ROWS,
        },
        {
          target: `CSV export of ${ROWS} rows ≥ 20,000 rows/s`,
          value: `${rate} rows/s (${exported} rows in ${seconds.toFixed(2)} s)`,
          pass: rate >= 20_000 && exported === ROWS,
        },
        { target: 'API RSS growth while streaming < 50 MB', value: `${growth} MB`, pass: growth < 50 },
        ...(balance
          ? [
              {
                target: 'GET /v1/vendors/{id}/balance p95 ≤ 50 ms (due equal to the rows, reconcile ok)',
                value: `${balance.p95_ms} ms (due ${read.due}, rows say ${oracle.due.toFixed(2)}, reconcile ok=${proof.ok})`,
                pass: balance.p95_ms <= 50 && balance.bad === 0 && exact,
              },
            ]
          : []),
      ],
    };
  } finally {
    for (const name of ['line_items', 'vendors', 'payout_batches', 'vendor_balances'])
      await db.collection(name).deleteMany({ shopId });
    await client.close();
  }
}

module.exports = { payoutsList, money };
