#!/usr/bin/env node
// Soak test (`npm run soak`, not part of CI): the built API under mixed load for a while — lists
// (v1 offset lists, V2 cursor orders, the webhook inbox), signed order webhooks and writes (line item
// figures, shop settings, vendors) — printing the server's RSS, p50/p99 and errors every 30 s, and a
// summary at the end. The server runs its queue processors, so webhooks are also processed.
//   SOAK_DURATION  seconds (default 600)     SOAK_CONNECTIONS  requests in flight (default 12)
//   SOAK_PORT      API port (default 3995)   MONGODB_URI / REDIS_URL  as for the app (a fresh
//   database `marketplace_test_soak_<ts>` is used on that server and dropped afterwards)
'use strict';
const { spawn, execFileSync } = require('node:child_process');
const { createHmac, randomBytes } = require('node:crypto');
const { readFileSync } = require('node:fs');

const DURATION_S = Number(process.env.SOAK_DURATION || 600);
const CONNECTIONS = Number(process.env.SOAK_CONNECTIONS || 12);
const PORT = Number(process.env.SOAK_PORT || 3995);
const BASE = `http://127.0.0.1:${PORT}`;
const REPORT_EVERY_MS = 30_000;
const RUN = `${Date.now()}`;
const baseUri = process.env.MONGODB_URI || 'mongodb://127.0.0.1:27017/marketplace';
const env = {
  ...process.env,
  MONGODB_URI: `${baseUri.replace(/\/[^/]*$/, '')}/marketplace_test_soak_${RUN}`,
  QUEUE_PREFIX: `soak-${RUN}`,
  PORT: String(PORT),
  HOST: '127.0.0.1',
  METRICS_PORT: '0',
  LOG_LEVEL: process.env.SOAK_LOG_LEVEL || 'warn',
  // A load generator sends far more than the per-credential limit (100/min by default) on one token.
  RATE_LIMIT_SHOP_PER_MINUTE: '10000000',
  RATE_LIMIT_MERCHANT_PER_MINUTE: '10000000',
  RATE_LIMIT_VENDOR_PER_MINUTE: '10000000',
  RATE_LIMIT_SIGN_IN_PER_ADDRESS: '10000000',
  SIGN_IN_FAILURES_PER_ADDRESS: '10000000',
  SIGN_IN_FAILURES_PER_ADDRESS_PER_DAY: '10000000',
  SIGN_IN_FAILURES_PER_ACCOUNT_PER_HOUR: '10000000',
};

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const pct = (sorted, p) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : 0;

function rssMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number((status.match(/VmRSS:\s+(\d+)/) || [0, 0])[1]) / 1024;
}

function cli(...args) {
  return JSON.parse(execFileSync('node', ['dist/cli/main.js', ...args], { env, encoding: 'utf8' }).trim());
}

async function call(method, path, { body, token, headers = {}, raw } = {}) {
  const started = performance.now();
  try {
    const res = await fetch(BASE + path, {
      method,
      headers: {
        ...(body !== undefined || raw !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(token ? { 'x-access-token': token } : {}),
        ...headers,
      },
      body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await res.text();
    return { status: res.status, ms: performance.now() - started, body: text };
  } catch (err) {
    return { status: 0, ms: performance.now() - started, body: String(err) };
  }
}

let seq = 0;
function order(vendor) {
  const id = (Date.now() % 1e9) * 1000 + (seq++ % 1000);
  const at = new Date(Date.now() - 3600_000).toISOString();
  return {
    id,
    name: `#S${id}`,
    order_number: id % 1e6,
    created_at: at,
    updated_at: at,
    financial_status: 'paid',
    line_items: [1, 2, 3].map((i) => ({
      id: id * 10 + i,
      sku: `SOAK-${i}`,
      vendor,
      price: `${10 + i}.00`,
      quantity: i,
    })),
  };
}

async function main() {
  const server = spawn('node', ['dist/main.js'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  let stopping = false;
  server.on('exit', (code) => {
    if (!stopping) {
      console.error(`[soak] the server exited (${code})`);
      process.exit(1);
    }
  });
  for (let i = 0; ; i++) {
    if ((await call('GET', '/health')).status === 200) break;
    if (i > 150) throw new Error('server did not start');
    await sleep(200);
  }
  const domain = `soak-${randomBytes(4).toString('hex')}.myshopify.com`;
  const shop = cli('shop:create', '--domain', domain);
  const token = JSON.parse(
    (await call('POST', '/v1/authenticate', { body: { apiKey: shop.apiKey, shopDomain: domain } })).body,
  ).token;
  const vendorRes = await call('POST', '/v1/vendors', {
    token,
    body: { vendorName: 'Soak Vendor', commissionType: 'percentage', commissionAmount: 10 },
  });
  if (vendorRes.status !== 200) throw new Error(`vendor: ${vendorRes.status} ${vendorRes.body}`);
  const known = []; // {orderId, lineItemId} of ingested orders, for writes

  const webhook = async () => {
    const o = order('soak vendor');
    const raw = JSON.stringify(o);
    const res = await call('POST', '/webhooks/shopify', {
      raw,
      headers: {
        'x-shopify-topic': 'orders/create',
        'x-shopify-shop-domain': domain,
        'x-shopify-webhook-id': `soak-${o.id}`,
        'x-shopify-hmac-sha256': createHmac('sha256', shop.webhookSecret).update(raw).digest('base64'),
      },
    });
    if (res.status === 200) known.push({ orderId: o.id, lineItemId: o.line_items[0].id });
    if (known.length > 500) known.shift();
    return res;
  };
  const pick = () => known[Math.floor(Math.random() * known.length)];
  // [weight, name, request]
  const ops = [
    [25, 'webhook', webhook],
    [15, 'GET /v2/orders', () => call('GET', '/v2/orders?first=20', { token })],
    [10, 'GET /v1/payouts', () => call('GET', '/v1/payouts?limit=50', { token })],
    [10, 'GET /v1/webhooks/deliveries', () => call('GET', '/v1/webhooks/deliveries?limit=50', { token })],
    [8, 'GET /v1/commissions/vendor', () => call('GET', '/v1/commissions/vendor', { token })],
    [
      8,
      'GET /v1/orders/{id}',
      () =>
        known.length ? call('GET', `/v1/orders/${pick().orderId}?lineItems=true`, { token }) : webhook(),
    ],
    [
      10,
      'POST /v1/lineitems/update',
      () => {
        if (!known.length) return webhook();
        const k = pick();
        return call('POST', '/v1/lineitems/update', {
          token,
          body: { items: [{ ...k, fields: { deduction: Math.round(Math.random() * 500) / 100 } }] },
        });
      },
    ],
    [
      4,
      'PUT /v1/shop/settings',
      () =>
        call('PUT', '/v1/shop/settings', { token, body: { tcsRate: Math.round(Math.random() * 100) / 100 } }),
    ],
    [
      5,
      'POST /v1/vendors',
      () =>
        call('POST', '/v1/vendors', {
          token,
          body: {
            vendorName: `soak ${randomBytes(4).toString('hex')}`,
            commissionType: 'flat',
            commissionAmount: 1,
          },
        }),
    ],
    [5, 'GET /health/ready', () => call('GET', '/health/ready')],
  ];
  const totalWeight = ops.reduce((s, o) => s + o[0], 0);
  const choose = () => {
    let r = Math.random() * totalWeight;
    for (const op of ops) if ((r -= op[0]) < 0) return op;
    return ops[0];
  };

  const all = [];
  let window = [];
  const errors = {};
  const rss = { start: rssMb(server.pid), peak: 0, end: 0 };
  rss.peak = rss.start;
  const started = Date.now();
  const endAt = started + DURATION_S * 1000;
  console.log(`[soak] ${DURATION_S} s, ${CONNECTIONS} in flight, RSS at start ${rss.start.toFixed(1)} MB`);
  const reporter = setInterval(() => {
    const r = rssMb(server.pid);
    rss.peak = Math.max(rss.peak, r);
    const w = window.map((x) => x.ms).sort((a, b) => a - b);
    const werr = window.filter((x) => x.status === 0 || x.status >= 500).length;
    console.log(
      `[soak] t=${Math.round((Date.now() - started) / 1000)}s rss=${r.toFixed(1)}MB requests=${w.length} ` +
        `rps=${(w.length / (REPORT_EVERY_MS / 1000)).toFixed(1)} p50=${pct(w, 50).toFixed(1)}ms p99=${pct(w, 99).toFixed(1)}ms errors=${werr}`,
    );
    window = [];
  }, REPORT_EVERY_MS);
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (Date.now() < endAt) {
        const [, name, run] = choose();
        const res = await run();
        const rec = { name, status: res.status, ms: res.ms };
        all.push(rec);
        window.push(rec);
        if (res.status === 0 || res.status >= 500)
          errors[`${name} ${res.status}`] = (errors[`${name} ${res.status}`] ?? 0) + 1;
      }
    }),
  );
  clearInterval(reporter);
  rss.end = rssMb(server.pid);
  rss.peak = Math.max(rss.peak, rss.end);
  const lat = all.map((x) => x.ms).sort((a, b) => a - b);
  const byOp = {};
  for (const x of all) (byOp[x.name] ??= []).push(x.ms);
  const deliveries = JSON.parse(
    (await call('GET', '/v1/webhooks/deliveries?limit=1&state=received', { token })).body,
  );
  console.log(
    `[soak] done: ${all.length} requests in ${DURATION_S} s (${(all.length / DURATION_S).toFixed(1)}/s)`,
  );
  console.log(`[soak] latency p50=${pct(lat, 50).toFixed(1)}ms p99=${pct(lat, 99).toFixed(1)}ms`);
  for (const [name, xs] of Object.entries(byOp)) {
    xs.sort((a, b) => a - b);
    console.log(
      `[soak]   ${name.padEnd(28)} n=${String(xs.length).padStart(6)} p50=${pct(xs, 50).toFixed(1)}ms p99=${pct(xs, 99).toFixed(1)}ms`,
    );
  }
  console.log(
    `[soak] errors (5xx or no answer): ${JSON.stringify(errors)} (${Object.values(errors).reduce((s, n) => s + n, 0)})`,
  );
  console.log(`[soak] 4xx: ${all.filter((x) => x.status >= 400 && x.status < 500).length}`);
  console.log(
    `[soak] RSS start=${rss.start.toFixed(1)}MB peak=${rss.peak.toFixed(1)}MB end=${rss.end.toFixed(1)}MB`,
  );
  console.log(`[soak] deliveries still waiting at the end: ${deliveries.total}`);
  stopping = true;
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  try {
    execFileSync('node', ['scripts/drop-database.js', env.MONGODB_URI], { stdio: 'ignore' });
  } catch {
    // best effort
  }
  process.exit(Object.keys(errors).length ? 1 : 0);
}

main().catch((err) => {
  console.error(`[soak] ${err.stack ?? err}`);
  process.exit(1);
});
