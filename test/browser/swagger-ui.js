'use strict';
/**
 * Swagger UI as a new user meets it (scripts/browser.sh; a step of scripts/test.sh). Against the
 * built server on its own port, with demo data seeded through the real ingestion path:
 *
 * 1. Debian's Chromium, driven by playwright-core, opens /docs/v1 and /docs/v2, authorises with a
 *    shop token (and a merchant token for the merchant scheme), and executes GET /v1/products,
 *    GET /v2/orders and GET /v2/vendors with the inputs Swagger UI pre-fills, each answering 200
 *    with data. Screenshots go to .data/reports/swagger-ui-*.png.
 * 2. Every GET operation of both documents is called as Swagger UI would call it from its
 *    defaults (each parameter's default, else its example), with a token of a kind the operation
 *    accepts: none may answer 400 or 422, and one without path parameters must answer 200.
 *
 * Env: BASE (the server), SHOP_TOKEN, MERCHANT_TOKEN, VENDOR_TOKEN, CHROMIUM.
 */
const { writeFileSync } = require('node:fs');
const { chromium } = require('playwright-core');

const BASE = process.env.BASE;
const TOKENS = {
  shopToken: process.env.SHOP_TOKEN,
  merchantToken: process.env.MERCHANT_TOKEN,
  vendorToken: process.env.VENDOR_TOKEN,
};
const REPORTS = '.data/reports';
const problems = [];

/**
 * Authorises exactly `schemes`, logging out of any other first: the schemes share the
 * `x-access-token` header, and Swagger UI sends every authorised scheme an operation accepts (the
 * last one wins), as a person switching tokens would find.
 */
async function authorise(page, schemes) {
  await page.click('button.authorize');
  const logouts = page.locator('.auth-container button:has-text("Logout")');
  while ((await logouts.count()) > 0) await logouts.first().click();
  for (const scheme of schemes) {
    const box = page.locator('.auth-container', { has: page.locator(`h4:has-text("${scheme}")`) });
    await box.locator('input').fill(TOKENS[scheme]);
    await box.locator('button.authorize').click();
  }
  await page.click('button.btn-done');
}

/** Expands an operation, presses "Try it out" and "Execute" without touching an input. */
async function execute(page, tag, operationId) {
  const op = page.locator(`#operations-${tag.replace(/ /g, '_')}-${operationId}`);
  await op.locator('.opblock-summary').first().click();
  await op.locator('button.try-out__btn').click();
  await op.locator('button.execute').click();
  const row = op.locator('.live-responses-table tr.response').first();
  await row.waitFor({ timeout: 20_000 });
  const status = Number(/\d{3}/.exec(await row.locator('.response-col_status').innerText())?.[0]);
  const body = await row.locator('.highlight-code pre').first().innerText();
  const curl = await op.locator('.curl-command').first().innerText();
  return { op, status, body, curl };
}

async function swaggerUi(browser) {
  const cases = [
    { doc: 'v1', tag: 'Products', id: 'listProducts', schemes: ['shopToken'], token: 'shopToken', data: (b) => b.products },
    { doc: 'v2', tag: 'Orders', id: 'listOrders', schemes: ['shopToken'], token: 'shopToken', data: (b) => b.data.orders },
    { doc: 'v2', tag: 'Vendors', id: 'listVendors', schemes: ['merchantToken'], token: 'merchantToken', data: (b) => b.data.vendors },
  ];
  let loaded = '';
  let context;
  let page;
  for (const c of cases) {
    if (loaded !== c.doc) {
      // A fresh context per document: Swagger UI keeps authorisations (persistAuthorization) per origin.
      await context?.close();
      context = await browser.newContext({ viewport: { width: 1280, height: 1600 } });
      page = await context.newPage();
      await page.goto(`${BASE}/docs/${c.doc}`);
      await page.waitForSelector('.opblock-tag');
      const title = await page.title();
      if (!title.startsWith(`Marketplace Admin API ${c.doc === 'v1' ? 'v1' : 'V2'}`)) problems.push(`/docs/${c.doc}: title "${title}"`);
      loaded = c.doc;
    }
    await authorise(page, c.schemes);
    const { op, status, body, curl } = await execute(page, c.tag, c.id);
    const items = status === 200 ? c.data(JSON.parse(body)) : [];
    const tokenSent = curl.includes(TOKENS[c.token]);
    console.log(`[browser] ${c.doc} ${c.id}: ${status}, ${items.length} items, ${c.token} sent: ${tokenSent}`);
    if (status !== 200 || items.length === 0) problems.push(`${c.id}: ${status} with ${items.length} items: ${body.slice(0, 200)}`);
    if (!tokenSent) problems.push(`${c.id}: the ${c.token} was not the one sent`);
    await op.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${REPORTS}/swagger-ui-${c.doc}-${c.id}.png`, fullPage: false });
  }
  await context?.close();
}

/** The request Swagger UI builds from a document's defaults and examples, for every GET operation. */
async function defaultsSweep() {
  const results = [];
  for (const doc of ['v1', 'v2']) {
    const spec = await (await fetch(`${BASE}/docs/${doc}.json`)).json();
    for (const [path, item] of Object.entries(spec.paths)) {
      const op = item.get;
      if (!op) continue;
      let url = path;
      const query = new URLSearchParams();
      for (const p of op.parameters ?? []) {
        const value = p.schema?.default ?? p.example ?? p.schema?.example;
        if (value === undefined) continue;
        if (p.in === 'path') url = url.replace(`{${p.name}}`, encodeURIComponent(value));
        if (p.in === 'query') query.set(p.name, String(value));
      }
      const scheme = (op.security ?? []).map((r) => Object.keys(r)[0]).find((s) => TOKENS[s]);
      const headers = scheme ? { 'x-access-token': TOKENS[scheme] } : {};
      const res = await fetch(`${BASE}${url}${query.size ? `?${query}` : ''}`, { headers });
      const hasPathParams = path.includes('{');
      // A made-up path value is an unknown id (404); for a capability URL (no credential: the signed
      // path is the credential, e.g. a document link) it is an invalid one (403).
      const capability = hasPathParams && (op.security ?? []).length === 0;
      const ok =
        res.status === 200 || (hasPathParams && res.status === 404) || (capability && res.status === 403);
      results.push({ doc, operationId: op.operationId, url: `${url}?${query}`, scheme, status: res.status, ok });
      if (!ok) problems.push(`${doc} ${op.operationId} ${url}?${query} as ${scheme}: ${res.status} ${await res.text()}`);
    }
  }
  writeFileSync(`${REPORTS}/swagger-ui-defaults.json`, JSON.stringify(results, null, 2));
  const failed = results.filter((r) => !r.ok).length;
  console.log(`[browser] defaults sweep: ${results.length} GET operations, ${failed} refused their own defaults`);
}

async function main() {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM, args: ['--no-sandbox'] });
  try {
    await swaggerUi(browser);
  } finally {
    await browser.close();
  }
  await defaultsSweep();
  if (problems.length) {
    console.error(`[browser] ${problems.length} problem(s):\n  ${problems.join('\n  ')}`);
    process.exit(1);
  }
  console.log('[browser] Swagger UI: 3 operations executed with their defaults (200 with data); screenshots in .data/reports/');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
