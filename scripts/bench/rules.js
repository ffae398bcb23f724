// Commission rules for the scale group (issue 31): `BENCH_SCALE_RULES=on` seeds every shop with
// BENCH_SCALE_PRODUCT_RULES product rules (default 1,000) and BENCH_SCALE_TYPE_RULES product-type
// rules (default 200) through POST /v1/commissions/rules before ingestion; `both` seeds only the
// odd-numbered shops and the scale group times ingestion of the two halves separately, interleaved,
// so one run compares ingestion with and without rules; `off` (default) seeds none.
// BENCH_RULES_SEED=db (default) writes the rules straight into commission_rules, shaped exactly as
// POST /v1/commissions/rules stores them (a few seconds for 10 shops); `api` posts each one (the
// real write path: about 18 rules/s at concurrency 8 on the shared 2-core dev machine, so 12,000
// rules take ~11 minutes).
//
// The bench orders' lines name products 1000, 1001 and 1002 (shopify.js). Those products are stored
// with product types `Bench Type 0..2`, and the rules are shaped so each ladder step is exercised:
//   product 1000: a shop-wide product rule in force           → the product rule applies
//   product 1001: a product rule limited to another vendor    → falls through to its type's rule
//   product 1002: a product rule starting in the future       → falls through to its type's rule
// The other rules target products and types no line has (what a catalogue's rules mostly are):
// alternately shop-wide and limited to one of the shop's vendors, some in closed windows.
const { MongoClient, ObjectId } = require('mongodb');
const { sendWebhook, pool, drained } = require('./shopify');

const MODE = (process.env.BENCH_SCALE_RULES || 'off').toLowerCase();
if (!['off', 'on', 'both'].includes(MODE)) throw new Error(`BENCH_SCALE_RULES must be off, on or both (got ${MODE})`);
const PRODUCT_RULES = Number(process.env.BENCH_SCALE_PRODUCT_RULES || 1000);
const TYPE_RULES = Number(process.env.BENCH_SCALE_TYPE_RULES || 200);
const SEED_CONCURRENCY = Number(process.env.BENCH_RULES_CONCURRENCY || 8);
const SEED = (process.env.BENCH_RULES_SEED || 'db').toLowerCase();
if (!['db', 'api'].includes(SEED)) throw new Error(`BENCH_RULES_SEED must be db or api (got ${SEED})`);
const ORDER_PRODUCTS = [1000, 1001, 1002];
const typeOf = (k) => `Bench Type ${k}`;

/** Whether shop number `n` gets rules in this run. */
function withRules(n) {
  return MODE === 'on' || (MODE === 'both' && n % 2 === 1);
}

/** The bench orders' products, stored with a product type (every shop when rules are in play, for a fair comparison). */
async function storeOrderProducts(shop, vendorNames) {
  if (MODE === 'off') return;
  for (const [j, id] of ORDER_PRODUCTS.entries()) {
    await sendWebhook(shop, 'products/create', {
      id,
      title: `Order product ${j}`,
      vendor: vendorNames[j % vendorNames.length],
      product_type: typeOf(j),
      status: 'active',
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
      variants: [{ id: 2000 + j, sku: `ORDER-P-${j}`, price: '10.00' }],
    });
  }
}

function ruleBodies(vendorIds) {
  const yearAgo = new Date(Date.now() - 365 * 86400_000).toISOString();
  const future = new Date(Date.now() + 365 * 86400_000).toISOString();
  const bodies = [];
  for (let k = 0; k < PRODUCT_RULES; k++) {
    const body = { level: 'product', productId: String(1000 + k), commissionType: 'percentage', commissionAmount: 5 + (k % 20) };
    if (k === 0) Object.assign(body, { validFrom: yearAgo, commissionAmount: 15 });
    else if (k === 1) Object.assign(body, { vendorId: vendorIds[2] }); // the lines of 1001 are another vendor's
    else if (k === 2) Object.assign(body, { validFrom: future });
    else if (k % 2) Object.assign(body, { vendorId: vendorIds[k % vendorIds.length] });
    if (k > 2 && k % 5 === 0) Object.assign(body, { validFrom: yearAgo, validTo: future });
    if (k > 2 && k % 7 === 0) Object.assign(body, { commissionType: 'percentage_plus_flat', flatAmount: 0.25, maximum: 50 });
    bodies.push(body);
  }
  for (let k = 0; k < TYPE_RULES; k++) {
    const body = { level: 'productType', productType: typeOf(k), commissionType: k % 3 ? 'percentage' : 'flat', commissionAmount: 1 + (k % 9) };
    if (k >= 3 && k % 2) Object.assign(body, { vendorId: vendorIds[k % vendorIds.length] });
    bodies.push(body);
  }
  return bodies;
}

/** A body as the API stores it (commission-rules.repository.ts `create`). */
function storedRule(shopId, body, at) {
  const productType = body.productType === undefined ? null : body.productType.trim();
  return {
    _id: new ObjectId(),
    level: body.level,
    productId: body.productId ?? null,
    productType,
    productTypeKey: productType === null ? null : productType.toLowerCase(),
    vendorId: body.vendorId ? new ObjectId(body.vendorId) : null,
    commissionType: body.commissionType,
    commissionAmount: body.commissionAmount,
    flatAmount: body.flatAmount ?? null,
    minimum: body.minimum ?? null,
    maximum: body.maximum ?? null,
    validFrom: body.validFrom ? new Date(body.validFrom) : null,
    validTo: body.validTo ? new Date(body.validTo) : null,
    shopId: new ObjectId(shopId),
    createdAt: at,
    updatedAt: at,
  };
}

/** Seeds the shop's rules (BENCH_RULES_SEED); returns how many and how long it took. */
async function seedRules(call, base, shop) {
  const bodies = ruleBodies(shop.vendors.map((v) => v._id));
  const t0 = Date.now();
  if (SEED === 'api') {
    await pool(bodies, SEED_CONCURRENCY, (body) => call(base, 'POST', '/v1/commissions/rules', body, shop.token));
  } else {
    const client = new MongoClient(process.env.MONGODB_URI);
    try {
      await client.connect();
      const at = new Date();
      await client.db().collection('commission_rules').insertMany(bodies.map((b) => storedRule(shop.shopId, b, at)));
      // past the rules API: the shop's rules stamp moves on as a rule write's does (cached rules retire)
      await client.db().collection('shops').updateOne({ _id: new ObjectId(shop.shopId) }, { $inc: { rulesVersion: 1 } });
    } finally {
      await client.close();
    }
  }
  return { count: bodies.length, ms: Date.now() - t0, via: SEED };
}

/** The shops whose ingestion is timed apart: [label, (shop number) => in the group]. */
function ingestionGroups() {
  const rulesLabel = `with ${PRODUCT_RULES} + ${TYPE_RULES} rules`;
  if (MODE === 'both') return [['without rules', (n) => !withRules(n)], [rulesLabel, (n) => withRules(n)]];
  return [[MODE === 'on' ? rulesLabel : 'all', () => true]];
}

/**
 * Ingests `work` ([shop, i] pairs) with `send`, timing each group of shops on its own: with two
 * groups the orders go in four interleaved rounds (a quarter of each group per round), so both see
 * the same machine and about the same database size. Returns the ms spent per group label.
 */
async function ingestGroups(work, groups, concurrency, send) {
  const rounds = groups.length > 1 ? 4 : 1;
  const spent = new Map(groups.map(([label]) => [label, 0]));
  for (let r = 0; r < rounds; r++) {
    for (const [label, inGroup] of groups) {
      const part = work.filter(([n, i]) => inGroup(n) && i % rounds === r);
      const t = Date.now();
      await pool(part, concurrency, send);
      await drained('ingestion', 3 * 3600_000);
      spent.set(label, spent.get(label) + Date.now() - t);
    }
  }
  return spent;
}

/** One row per group when there are two (the comparison); none otherwise. */
function ingestionRows(work, groups, spent) {
  if (groups.length < 2) return [];
  return groups.map(([label, inGroup]) => {
    const orders = work.filter(([n]) => inGroup(n)).length;
    const s = spent.get(label) / 1000;
    return { endpoint: `ingestion, shops ${label} (${orders} orders)`, seconds: +s.toFixed(1), 'orders/s': +(orders / s).toFixed(1) };
  });
}

/** Issue 31: per-order ingestion time of the shops with rules within 10 % of the shops without. */
function ingestionVerdicts(work, groups, spent) {
  if (groups.length < 2) return [];
  const perOrder = groups.map(([label, inGroup]) => spent.get(label) / work.filter(([n]) => inGroup(n)).length);
  const [without, withRules] = perOrder;
  const change = ((withRules - without) / without) * 100;
  return [
    {
      target: 'scale ingestion with rules within 10 % of without (per order)',
      value: `${change >= 0 ? '+' : ''}${change.toFixed(1)} %`,
      pass: change <= 10,
    },
  ];
}

module.exports = {
  ingestionVerdicts,
  MODE,
  PRODUCT_RULES,
  TYPE_RULES,
  withRules,
  storeOrderProducts,
  seedRules,
  ingestionGroups,
  ingestGroups,
  ingestionRows,
};
