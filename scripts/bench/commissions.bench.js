// Issue 3: SKU commission upload and the full SKU list.
// Targets:
//   POST /v1/commissions/sku with 500 elements                        p50 < 250 ms
//   GET /v1/commissions/sku with BENCH_SKUS (default 50,000) stored    p50 < 1.5 s, server RSS < 300 MB
// Uploads are timed three ways (500 new SKUs; the same 500 with every value changed; the same 500
// unchanged). The 50,000 stored SKUs are seeded straight into the database (uploading them would
// only repeat the upload figure), and removed afterwards unless BENCH_KEEP=1.
const { MongoClient, ObjectId } = require('mongodb');
const { BASE, benchShop, json, rssMb, timeSequential } = require('./harness');

const STORED = Number(process.env.BENCH_SKUS || 50_000);
const UPLOADS = Number(process.env.BENCH_SKU_UPLOADS || 10);
const LISTS = Number(process.env.BENCH_SKU_LISTS || 5);
const INSERT_CHUNK = 5000;

const elements = (prefix, rate) =>
  Array.from({ length: 500 }, (_, i) => ({
    sku: `${prefix}-${String(i).padStart(4, '0')}`,
    commissionType: i % 3 === 0 ? 'flat' : 'percentage',
    commissionRate: rate + (i % 7),
    costOfGoods: Math.round((5 + (i % 50) * 0.37) * 100) / 100,
  }));

/** Highest current RSS of the server while `fn` runs (sampled every 25 ms), in MB. */
async function sampleRss(pid, fn) {
  let max = rssMb(pid).current;
  const timer = setInterval(() => {
    max = Math.max(max, rssMb(pid).current);
  }, 25);
  try {
    const result = await fn();
    return { result, maxRss: Math.round(Math.max(max, rssMb(pid).current)) };
  } finally {
    clearInterval(timer);
  }
}

module.exports = async function commissions(server) {
  const shop = await benchShop('bench-commissions');
  const shopId = new ObjectId(shop.shopId);
  const upload = async (skus) => {
    const res = await json('POST', '/v1/commissions/sku', { skus }, shop.token);
    if (!res.success) throw new Error(`upload reported errors: ${JSON.stringify(res.errors.slice(0, 3))}`);
    return res;
  };
  const list = async () => {
    const res = await fetch(`${BASE}/v1/commissions/sku`, { headers: { 'x-access-token': shop.token } });
    if (!res.ok) throw new Error(`GET /v1/commissions/sku → ${res.status}`);
    return res.arrayBuffer();
  };

  const client = await MongoClient.connect(
    process.env.MONGODB_URI || 'mongodb://127.0.0.1:27017/marketplace',
  );
  const skus = client.db().collection('sku_commissions');
  try {
    const created = await timeSequential(UPLOADS, (i) => upload(elements(`NEW${i}`, 5)));
    const changed = await timeSequential(UPLOADS, (i) => upload(elements('NEW0', 10 + i)));
    const unchanged = await timeSequential(UPLOADS, () => upload(elements('NEW0', 10 + UPLOADS - 1)));

    const have = UPLOADS * 500;
    const now = new Date();
    for (let i = have; i < STORED; i += INSERT_CHUNK) {
      const docs = [];
      for (let j = i; j < Math.min(STORED, i + INSERT_CHUNK); j++) {
        docs.push({
          shopId,
          sku: `SEED-${String(j).padStart(6, '0')}`,
          commissionType: j % 3 === 0 ? 'flat' : 'percentage',
          commissionAmount: j % 20,
          costOfGoods: j % 5 === 0 ? null : Math.round((3 + (j % 90) * 0.41) * 100) / 100,
          createdAt: now,
          updatedAt: now,
        });
      }
      await skus.insertMany(docs, { ordered: false });
    }
    const count = JSON.parse(Buffer.from(await list()).toString('utf8')).skus.length;
    if (count !== STORED)
      throw new Error(`GET /v1/commissions/sku returned ${count} SKUs, expected ${STORED}`);

    const sequential = await sampleRss(server.pid, () => timeSequential(LISTS, list));
    const concurrent = await sampleRss(server.pid, () =>
      timeSequential(1, () => Promise.all([list(), list(), list(), list()])),
    );
    const peak = Math.max(sequential.maxRss, concurrent.maxRss);

    const row = (scenario, t, extra = {}) => ({
      scenario,
      n: t.n,
      p50_ms: t.p50_ms,
      p99_ms: t.p99_ms,
      max_ms: t.max_ms,
      ...extra,
    });
    return {
      rows: [
        row('POST /v1/commissions/sku: 500 new SKUs', created),
        row('POST /v1/commissions/sku: 500 SKUs, every value changed', changed),
        row('POST /v1/commissions/sku: 500 SKUs, unchanged', unchanged),
        row(`GET /v1/commissions/sku (${STORED} SKUs)`, sequential.result, { rss_mb: sequential.maxRss }),
        row(`GET /v1/commissions/sku (${STORED} SKUs) x4 concurrent`, concurrent.result, {
          rss_mb: concurrent.maxRss,
        }),
      ],
      verdicts: [
        {
          target: '500-element upload (new SKUs) p50 < 250 ms',
          value: `${created.p50_ms} ms`,
          pass: created.p50_ms < 250,
        },
        {
          target: '500-element upload (changed SKUs) p50 < 250 ms',
          value: `${changed.p50_ms} ms`,
          pass: changed.p50_ms < 250,
        },
        {
          target: `GET /v1/commissions/sku with ${STORED} SKUs p50 < 1.5 s`,
          value: `${sequential.result.p50_ms} ms`,
          pass: sequential.result.p50_ms < 1500,
        },
        {
          target: 'server RSS while listing < 300 MB',
          value: `${peak} MB (VmHWM ${Math.round(rssMb(server.pid).peak)} MB)`,
          pass: peak < 300,
        },
      ],
    };
  } finally {
    if (process.env.BENCH_KEEP !== '1') {
      // In slices of 10,000 (chosen for FerretDB, which refused to delete ~32,000 documents in one
      // command; kept as it was).
      for (let i = 0; i < STORED; i += 10_000) {
        const range = {
          $gte: `SEED-${String(i).padStart(6, '0')}`,
          $lt: `SEED-${String(i + 10_000).padStart(6, '0')}`,
        };
        await skus.deleteMany({ shopId, sku: range });
      }
      await skus.deleteMany({ shopId });
    }
    await client.close();
  }
};
