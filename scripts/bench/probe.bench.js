// The store probe (issue 11): what a new user sees on the default store. Seeds a demo shop with
// BENCH_PROBE_ORDERS orders (default 2000) through `seed:demo` (the real ingestion path), waits until
// every order is visible in GET /v2/orders, then times BENCH_PROBE_REPEAT (default 10) sequential
// requests of each of six endpoints on the demo shop.
//   targets: seed + visible ≤ 30 s for 2,000 orders; every endpoint p95 ≤ 300 ms
const harness = require('./harness');

const ORDERS = Number(process.env.BENCH_PROBE_ORDERS || 2000);
const REPEAT = Number(process.env.BENCH_PROBE_REPEAT || 10);
// The commission ladder's cost (issue 31): the same seed again in a shop holding 1,000 product rules
// and 200 product-type rules, interleaved with plain seeds BENCH_PROBE_RULE_PAIRS times (default 1;
// 0 skips it). Target: ingestion within 10 % of the plain seed's.
const RULE_PAIRS = Number(process.env.BENCH_PROBE_RULE_PAIRS ?? 1);
const RULES = ['--product-rules', '1000', '--type-rules', '200'];

function pct(samples, p) {
  const s = [...samples].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
}

async function timed(path, token) {
  const t0 = process.hrtime.bigint();
  const res = await fetch(harness.BASE + path, { headers: { 'x-access-token': token } });
  await res.text();
  if (!res.ok) throw new Error(`GET ${path} → ${res.status}`);
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

/** seed:demo until every order is visible: the shop, its token and the seconds it took. */
async function seedVisible(extra = []) {
  const t0 = Date.now();
  const demo = harness.cli('seed:demo', '--orders', String(ORDERS), ...extra);
  // A keep-alive socket the server closed meanwhile (EPIPE): asked again once.
  const auth = () =>
    harness.json('POST', '/v1/authenticate', { apiKey: demo.apiKey, shopDomain: demo.shopDomain });
  const { token } = await auth().catch(auth);
  for (;;) {
    const { data } = await harness.json('GET', '/v2/orders?first=1', undefined, token);
    if (data.totalCount >= ORDERS) break;
    if (Date.now() - t0 > 15 * 60_000)
      throw new Error(`only ${data.totalCount} of ${ORDERS} orders visible after 15 min`);
    await new Promise((r) => setTimeout(r, 200));
  }
  const seconds = (Date.now() - t0) / 1000;
  console.error(`probe: seed:demo ${extra.join(' ') || '(no rules)'} visible after ${seconds.toFixed(1)} s`);
  return { demo, token, seconds };
}

module.exports = async function probe() {
  const { demo, token, seconds: seedSeconds } = await seedVisible();
  const vendorId = demo.vendors[0].vendorId;
  const endpoints = [
    '/v2/orders?first=20',
    `/v1/payouts?vendorId=${vendorId}`,
    '/v1/payouts?status=unpaid',
    `/v1/fulfillments?vendorId=${vendorId}`,
    '/v1/products',
    '/v1/users',
  ];
  const rows = [{ scenario: `seed:demo --orders ${ORDERS} until visible`, seconds: +seedSeconds.toFixed(1) }];
  const verdicts = [
    {
      target: `seed:demo --orders ${ORDERS} visible ≤ 30 s`,
      value: `${seedSeconds.toFixed(1)} s`,
      pass: seedSeconds <= 30,
    },
  ];
  for (const path of endpoints) {
    await timed(path, token); // warm-up
    const samples = [];
    for (let i = 0; i < REPEAT; i++) samples.push(await timed(path, token));
    const p95 = pct(samples, 95);
    rows.push({
      scenario: `GET ${path.replace(vendorId, '{vendorId}')}`,
      p50_ms: +pct(samples, 50).toFixed(1),
      p95_ms: +p95.toFixed(1),
    });
    verdicts.push({
      target: `GET ${path.replace(vendorId, '{vendorId}')} p95 ≤ 300 ms`,
      value: `${p95.toFixed(1)} ms`,
      pass: p95 <= 300,
    });
  }
  if (RULE_PAIRS > 0) {
    const plain = [seedSeconds];
    const ruled = [];
    let ruledShop = null;
    for (let i = 0; i < RULE_PAIRS; i++) {
      ruledShop = await seedVisible(RULES);
      ruled.push(ruledShop.seconds);
      if (i < RULE_PAIRS - 1) plain.push((await seedVisible()).seconds);
    }
    // POST /v1/commissions/preview in the shop holding the rules (issue 31: p95 ≤ 30 ms)
    const body = { vendorId: ruledShop.demo.vendors[0].vendorId, productId: '9000000001', productType: 'Bench Type 1', price: 19.99, quantity: 2, discount: 1.5 };
    const preview = async () => {
      const t0 = process.hrtime.bigint();
      const res = await fetch(harness.BASE + '/v1/commissions/preview', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-access-token': ruledShop.token },
        body: JSON.stringify(body),
      });
      await res.text();
      if (!res.ok) throw new Error(`POST /v1/commissions/preview → ${res.status}`);
      return Number(process.hrtime.bigint() - t0) / 1e6;
    };
    for (let i = 0; i < 5; i++) await preview();
    const previews = [];
    for (let i = 0; i < 50; i++) previews.push(await preview());
    const previewP95 = pct(previews, 95);
    rows.push({ scenario: 'POST /v1/commissions/preview (1,200 rules in the shop) ×50', p50_ms: +pct(previews, 50).toFixed(1), p95_ms: +previewP95.toFixed(1) });
    verdicts.push({ target: 'POST /v1/commissions/preview p95 ≤ 30 ms', value: `${previewP95.toFixed(1)} ms`, pass: previewP95 <= 30 });
    const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const ratio = mean(ruled) / mean(plain);
    rows.push({
      scenario: `seed:demo --orders ${ORDERS} (no rules), runs`,
      seconds: plain.map((x) => +x.toFixed(1)).join(' / '),
    });
    rows.push({
      scenario: `seed:demo --orders ${ORDERS} ${RULES.join(' ')}, runs`,
      seconds: ruled.map((x) => +x.toFixed(1)).join(' / '),
    });
    verdicts.push({
      target: 'ingestion with 1,000 product + 200 product-type rules within 10 % of none',
      value: `${((ratio - 1) * 100).toFixed(1)} %`,
      pass: ratio <= 1.1,
    });
  }
  return { rows, verdicts };
};
