// Issue 5: payouts and fulfillments lists over a large line item collection, and the payout engine.
// Targets (with BENCH_LINE_ITEMS line items, default 300,000; list p99 over BENCH_REQUESTS sequential calls):
//   GET /v1/payouts?vendorId=…&limit=100                  p99 < 100 ms
//   GET /v1/fulfillments?vendorId=…&start=…&end=…        p99 < 100 ms
//   a payout batch over BENCH_BATCH_LINE_ITEMS (default 10,000) line items completes within 10 s
// Line items are seeded straight into the database (the ingestion path is benchmarked elsewhere);
// the bench shops' documents are removed afterwards unless BENCH_KEEP=1. Smaller runs:
// BENCH_LINE_ITEMS=20000 BENCH_BATCH_LINE_ITEMS=1000 npm run bench -- payouts
const { MongoClient, ObjectId } = require('mongodb');
const { BASE, benchShop, json, load, timeSequential } = require('./harness');

const TOTAL = Number(process.env.BENCH_LINE_ITEMS || 300_000);
const BATCH = Number(process.env.BENCH_BATCH_LINE_ITEMS || 10_000);
/** Stop waiting for the batch after this long (it keeps running in the server). */
const BATCH_TIMEOUT_S = Number(process.env.BENCH_BATCH_TIMEOUT_S || 600);
const VENDORS = 20;
const DAY = 24 * 3600 * 1000;
const START = Date.UTC(2025, 0, 1);
const INSERT_CHUNK = 5000;

const address = (i) => ({
  first_name: 'Jane',
  last_name: `Doe ${i % 997}`,
  address1: `${i % 500} Main St`,
  city: 'Springfield',
  zip: '12345',
  province: 'IL',
  country: 'United States',
  phone: '+1 555 0100',
});

/** A calculated line item as ingestion stores it (figures consistent: balance = payout − paid). */
function lineItem(shopId, vendor, i, at, financialStatus = 'paid') {
  const price = 10 + (i % 90) + (i % 7) / 100;
  const commission = Math.round(price * 10) / 100;
  const payout = Math.round((price - commission) * 100) / 100;
  return {
    shopId,
    orderId: 5_000_000 + i,
    lineItemId: 50_000_000 + i,
    vendorId: vendor._id,
    vendorName: vendor.vendorName,
    orderName: `#${10000 + i}`,
    orderNumber: 10000 + i,
    orderCreatedAt: new Date(at),
    financialStatus,
    cancelled: false,
    shippingAddress: address(i),
    billingAddress: address(i + 1),
    name: `Product ${i % 1000} - Size ${['S', 'M', 'L'][i % 3]}`,
    variantTitle: `Size ${['S', 'M', 'L'][i % 3]}`,
    sku: `SKU-${i % 1000}`,
    productId: 700_000 + (i % 1000),
    variantId: 800_000 + (i % 3000),
    price,
    quantity: 1,
    sales: price,
    discount: 0,
    salesAfterDiscount: price,
    tax: 0,
    shipping: 0,
    commission,
    commissionPlan: 'vendor:percentage:10',
    costOfItem: 0,
    taxOnCommissions: 0,
    tcs: 0,
    totalGlobalDeductions: 0,
    deduction: 0,
    payout,
    paid: 0,
    balance: payout,
    payoutStatus: 'unpaid',
    frozen: false,
    batchId: null,
    batchPaidAmount: null,
    paidAt: null,
    fulfillmentStatus: i % 3 === 0 ? 'fulfilled' : 'unfulfilled',
    fulfillment:
      i % 3 === 0
        ? {
            status: 'success',
            trackingCompany: 'UPS',
            trackingNumber: `1Z${i}`,
            trackingUrl: `https://ups.example/1Z${i}`,
            shipmentStatus: i % 2 ? 'in_transit' : 'delivered',
            platformFulfillmentId: `local-${i}`,
            createdAt: new Date(at + DAY),
          }
        : null,
    fulfillmentLock: null,
    fulfillmentLockedAt: null,
    createdAt: new Date(at),
    updatedAt: new Date(at),
  };
}

async function seedVendors(db, shopId, names) {
  const vendors = names.map((vendorName) => ({
    _id: new ObjectId(),
    shopId,
    vendorName,
    commissionType: 'percentage',
    commissionAmount: 10,
    active: true,
    address: {},
    profile: [],
    createdAt: new Date(),
    updatedAt: new Date(),
  }));
  await db.collection('vendors').insertMany(vendors);
  return vendors;
}

async function insertChunked(col, count, make) {
  for (let i = 0; i < count; i += INSERT_CHUNK) {
    const docs = [];
    for (let j = i; j < Math.min(count, i + INSERT_CHUNK); j++) docs.push(make(j));
    await col.insertMany(docs, { ordered: false });
  }
}

module.exports = async function payouts(server) {
  const client = await MongoClient.connect(process.env.MONGODB_URI);
  const db = client.db();
  const items = db.collection('line_items');
  const shop = await benchShop('bench-payouts');
  const batchShop = await benchShop('bench-payout-batch');
  const shopId = new ObjectId(shop.shopId);
  const batchShopId = new ObjectId(batchShop.shopId);
  try {
    // 1. TOTAL line items over 20 vendors and a year, 90% on paid orders.
    const vendors = await seedVendors(
      db,
      shopId,
      Array.from({ length: VENDORS }, (_, v) => `bench vendor ${v}`),
    );
    const t0 = Date.now();
    await insertChunked(items, TOTAL, (i) =>
      lineItem(
        shopId,
        vendors[i % VENDORS],
        i,
        START + Math.floor((i / TOTAL) * 365 * DAY),
        i % 10 === 9 ? 'pending' : 'paid',
      ),
    );
    // 2. A vendor of another shop with BATCH payable line items.
    const [batchVendor] = await seedVendors(db, batchShopId, ['bench batch vendor']);
    await insertChunked(items, BATCH, (i) =>
      lineItem(batchShopId, batchVendor, TOTAL + i, START + Math.floor((i / BATCH) * 300 * DAY)),
    );
    const seedSeconds = ((Date.now() - t0) / 1000).toFixed(1);

    const vendorId = String(vendors[3]._id);
    const headers = { 'x-access-token': shop.token };
    // p99 of the list calls: sequential requests by default (one at a time: latency, not queueing on a
    // slow backend); BENCH_LOAD=1 measures under autocannon load instead.
    const list = async (name, path) => {
      if (process.env.BENCH_LOAD === '1') {
        const connections = Number(process.env.BENCH_CONNECTIONS || 4);
        return load(name, { connections, path, headers }, server.pid);
      }
      let bad = 0;
      const n = Number(process.env.BENCH_REQUESTS || 50);
      const figures = await timeSequential(n, async () => {
        const res = await fetch(`${BASE}${path}`, { headers });
        await res.arrayBuffer();
        if (res.status !== 200) bad++;
      });
      return {
        scenario: name,
        requests: figures.n,
        p50_ms: figures.p50_ms,
        p99_ms: figures.p99_ms,
        max_ms: figures.max_ms,
        non2xx_or_errors: bad,
      };
    };
    const payoutsRow = await list(
      `GET /v1/payouts?vendorId=…&limit=100 (${TOTAL} line items)`,
      `/v1/payouts?vendorId=${vendorId}&limit=100`,
    );
    const fulfillmentsRow = await list(
      `GET /v1/fulfillments?vendorId=…&start=…&end=… (${TOTAL} line items)`,
      `/v1/fulfillments?vendorId=${vendorId}&start=2025-03-01&end=2025-03-31`,
    );

    // 3. One batch over the BATCH line items: trigger, then poll until it completes.
    const until = new Date().toISOString().slice(0, 10);
    const b0 = Date.now();
    const queued = await json(
      'POST',
      '/v1/payouts/batches',
      { vendorId: String(batchVendor._id), until },
      batchShop.token,
    );
    const batchId = queued.batchIds[0];
    let batch;
    for (;;) {
      batch = await json('GET', `/v1/payouts/batches/${batchId}`, undefined, batchShop.token);
      if (batch.status === 'completed' || batch.status === 'failed') break;
      if (Date.now() - b0 > BATCH_TIMEOUT_S * 1000) break; // reported as a miss with its status
      await new Promise((r) => setTimeout(r, 100));
    }
    const batchSeconds = (Date.now() - b0) / 1000;
    const batchRow = {
      scenario: `payout batch over ${BATCH} line items (${TOTAL + BATCH} in the collection)`,
      status: batch.status,
      line_items_paid: batch.lineItemCount,
      total: batch.total,
      seconds: +batchSeconds.toFixed(2),
      seed_s: +seedSeconds,
    };
    return {
      rows: [payoutsRow, fulfillmentsRow, batchRow],
      verdicts: [
        {
          target: 'GET /v1/payouts?vendorId&limit=100 p99 < 100 ms',
          value: `${payoutsRow.p99_ms} ms`,
          pass: payoutsRow.requests > 0 && payoutsRow.p99_ms < 100 && payoutsRow.non2xx_or_errors === 0,
        },
        {
          target: 'GET /v1/fulfillments?vendorId&start&end p99 < 100 ms',
          value: `${fulfillmentsRow.p99_ms} ms`,
          pass:
            fulfillmentsRow.requests > 0 &&
            fulfillmentsRow.p99_ms < 100 &&
            fulfillmentsRow.non2xx_or_errors === 0,
        },
        {
          target: `payout batch over ${BATCH} line items completes < 10 s`,
          value: `${batchSeconds.toFixed(2)} s, ${batch.status}, ${batch.lineItemCount} paid`,
          pass: batchSeconds < 10 && batch.status === 'completed' && batch.lineItemCount === BATCH,
        },
      ],
    };
  } finally {
    if (process.env.BENCH_KEEP !== '1') {
      for (const id of [shopId, batchShopId]) {
        for (const name of ['line_items', 'vendors', 'payout_batches', 'payout_adjustments']) {
          await db.collection(name).deleteMany({ shopId: id });
        }
      }
    }
    await client.close();
  }
};

// The seeding helpers, for the money benches (money.bench.js).
module.exports.lineItem = lineItem;
module.exports.seedVendors = seedVendors;
module.exports.insertChunked = insertChunked;
