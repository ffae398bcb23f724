// Issue 32's document benches (`npm run bench -- documents`).
//
// - The statement PDF of a BENCH_STATEMENT_ROWS (default 5,000) row batch through the API
//   (`GET /v1/payouts/batches/{id}/statement?format=pdf`), read as it streams while the API's RSS is
//   sampled every 50 ms: targets ≤ 3 s and RSS growth < 100 MB. Three runs (the first is cold).
// - A commission invoice of 100 orders rendered from its snapshot (the documents PDF route's whole
//   work besides one point read), BENCH_REQUESTS (default 40) sequential renders: target p95 ≤ 300 ms.
//   In this process, from dist/, as the route calls it: the documents store that feeds the route is
//   merged separately; once it is, the same figure through HTTP is GET /v1/documents/{id}/pdf.
// BENCH_DOCUMENTS=statement or =invoice runs only that part (default: both).
const { MongoClient, ObjectId } = require('mongodb');
const { BASE, benchShop, rssMb } = require('./harness');
const { lineItem, seedVendors, insertChunked } = require('./payouts.bench');

const DAY = 24 * 3600 * 1000;
const START = Date.UTC(2025, 0, 1);
const REQUESTS = Number(process.env.BENCH_REQUESTS || 40);

const pct = (samples, p) => {
  const s = [...samples].sort((a, b) => a - b);
  return +s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))].toFixed(1);
};

async function statementPdf(server, rows, verdicts) {
  const BATCH_ROWS = Number(process.env.BENCH_STATEMENT_ROWS || 5_000);
  const client = await MongoClient.connect(process.env.MONGODB_URI);
  const db = client.db();
  const shop = await benchShop('bench-docs');
  const shopId = new ObjectId(shop.shopId);
  try {
    const [vendor] = await seedVendors(db, shopId, ['documents vendor']);
    const batchId = new ObjectId();
    let totalCents = 0;
    await insertChunked(db.collection('line_items'), BATCH_ROWS, (i) => {
      const li = lineItem(shopId, vendor, 30_000_000 + i, START + Math.floor((i / BATCH_ROWS) * 300 * DAY));
      totalCents += Math.round(li.payout * 100);
      return {
        ...li,
        type: 'sale',
        inPayouts: true,
        paid: li.payout,
        balance: 0,
        payoutStatus: 'paid',
        frozen: true,
        batchId: String(batchId),
        batchPaidAmount: li.payout,
        tally: { v: null, k: null, c: 0 },
        tallyDirt: 0,
      };
    });
    const now = new Date();
    const total = totalCents / 100;
    await db.collection('payout_batches').insertOne({
      _id: batchId,
      shopId,
      vendorId: vendor._id,
      vendorName: vendor.vendorName,
      periodEnd: '2025-12-31',
      cutoff: new Date('2025-12-31T23:59:59.999Z'),
      status: 'completed',
      lineItemCount: BATCH_ROWS,
      lineItemTotal: total,
      adjustmentCount: 0,
      adjustmentTotal: 0,
      total,
      runs: 1,
      lastError: null,
      startedAt: now,
      completedAt: now,
      leaseId: null,
      leaseUntil: null,
      createdAt: now,
      updatedAt: now,
    });
    for (let run = 1; run <= 3; run++) {
      const base = rssMb(server.pid).current;
      let maxRss = base;
      const sampler = setInterval(() => {
        maxRss = Math.max(maxRss, rssMb(server.pid).current);
      }, 50);
      const t0 = performance.now();
      const res = await fetch(`${BASE}/v1/payouts/batches/${batchId}/statement?format=pdf`, {
        headers: { 'x-access-token': shop.token },
      });
      let bytes = 0;
      let head = '';
      for await (const chunk of res.body) {
        if (!head) head = Buffer.from(chunk).subarray(0, 5).toString();
        bytes += chunk.length;
      }
      const seconds = (performance.now() - t0) / 1000;
      clearInterval(sampler);
      maxRss = Math.max(maxRss, rssMb(server.pid).current);
      const growth = +(maxRss - base).toFixed(1);
      rows.push({
        scenario: `statement PDF, ${BATCH_ROWS}-row batch (run ${run})`,
        status: res.status,
        kb: Math.round(bytes / 1024),
        seconds: +seconds.toFixed(2),
        rss_growth_mb: growth,
      });
      if (run === 3) {
        verdicts.push({
          target: `statement PDF of ${BATCH_ROWS} rows ≤ 3 s, API RSS growth < 100 MB`,
          value: `${seconds.toFixed(2)} s, +${growth} MB (runs: ${rows
            .slice(-3)
            .map((r) => `${r.seconds} s/+${r.rss_growth_mb} MB`)
            .join(', ')})`,
          pass:
            res.status === 200 &&
            head === '%PDF-' &&
            rows.slice(-3).every((r) => r.seconds <= 3 && r.rss_growth_mb < 100),
        });
      }
    }
  } finally {
    await db.collection('line_items').deleteMany({ shopId });
    await db.collection('payout_batches').deleteMany({ shopId });
    await db.collection('vendors').deleteMany({ shopId });
    await client.close();
  }
}

async function invoiceRender(rows, verdicts) {
  const { renderDocumentPdf } = require('../../dist/documents/pdf/document.renderer');
  const party = (legalName, vatId) => ({
    legalName,
    address: {
      line1: '1 Quay Street',
      line2: null,
      city: 'Hamburg',
      postalCode: '20457',
      region: null,
      country: 'DE',
    },
    vatId,
    taxId: null,
    businessRegistrationNumber: null,
  });
  const lines = Array.from({ length: 100 }, (_, i) => ({
    orderId: String(5549201834154 + i),
    orderName: `#${1000 + i}`,
    orderDate: new Date(START + i * DAY).toISOString(),
    description: `Commission on order #${1000 + i}`,
    net: (12 + i / 100).toFixed(2),
    tax: '2.28',
    total: (14.28 + i / 100).toFixed(2),
  }));
  const snapshot = {
    type: 'commission_invoice',
    number: 'INV-2026-000042',
    issuedAt: '2026-11-30T12:00:00.000Z',
    currency: 'EUR',
    issuer: party('Harbour Market GmbH', 'DE123456789'),
    recipient: party('Acme Apparel SARL', 'FR40303265045'),
    mentions: [],
    batchId: '6742c1d2e3f4a5b6c7d8e9f0',
    period: { from: '2026-11-01T00:00:00.000Z', to: '2026-11-30' },
    lines,
    totals: { net: '1249.50', tax: '228.00', total: '1477.50' },
    corrects: [],
  };
  await renderDocumentPdf(snapshot); // fonts decoded once per process, as the API does at its first render
  const samples = [];
  for (let i = 0; i < REQUESTS; i++) {
    const t0 = performance.now();
    await renderDocumentPdf(snapshot);
    samples.push(performance.now() - t0);
  }
  rows.push({
    scenario: `commission invoice of 100 orders, render (${REQUESTS} sequential)`,
    p50_ms: pct(samples, 50),
    p95_ms: pct(samples, 95),
    max_ms: pct(samples, 100),
  });
  verdicts.push({
    target: 'invoice of 100 orders p95 ≤ 300 ms',
    value: `p50 ${pct(samples, 50)} ms, p95 ${pct(samples, 95)} ms`,
    pass: pct(samples, 95) <= 300,
  });
}

module.exports = async function documents(server) {
  const rows = [];
  const verdicts = [];
  const only = process.env.BENCH_DOCUMENTS || 'both';
  if (only !== 'invoice') await statementPdf(server, rows, verdicts);
  if (only !== 'statement') await invoiceRender(rows, verdicts);
  return { rows, verdicts };
};
