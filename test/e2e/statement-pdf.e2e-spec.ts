/* eslint-disable @typescript-eslint/no-explicit-any */
import { startApp, TestApp } from '../support/app';
import { cents, fmt, line } from '../support/cents';
import { createMerchantKey, createShop, TestShop } from '../support/factory';
import { createVendor } from '../support/payout-fixtures';
import { linesWith, pdfText, words } from '../support/pdf-text';
import { vendorKeyToken } from '../support/vendor-keys';
import { deliver, shopifyOrder } from '../support/webhooks';

/**
 * The statement as a PDF (`?format=pdf`, issue 32): its text read back with pdftotext carries every
 * row's figures and the totals exactly as the JSON statement has them, and equal to a BigInt oracle;
 * the V2 route keeps the statement's tenancy (another vendor's or shop's batch → 404, merchant 403,
 * a vendor token without `payouts:read` → 403).
 */
describe('statement PDF (e2e)', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;
  let merchant: string;
  let a: { _id: string; vendorName: string };
  let b: { _id: string; vendorName: string };
  let batchA: string;
  let batchB: string;
  // A's sale lines at 10 %: 2 × 50.00, 1 × 19.99, 3 × 0.35 (commission 0.105 → 0.11)
  const linesA = [line('50.00', 2, 10n), line('19.99', 1, 10n), line('0.35', 3, 10n)];
  const ADJ = cents('5.25');

  const pdf = async (path: string, token: string) => {
    const res = await fetch(t.url + path, { headers: { 'x-access-token': token } });
    const bytes = Buffer.from(await res.arrayBuffer());
    const type = res.headers.get('content-type');
    return {
      status: res.status,
      type,
      disposition: res.headers.get('content-disposition'),
      bytes,
      json: type?.includes('json') ? JSON.parse(bytes.toString()) : null,
    };
  };
  const waitBatch = async (id: string) => {
    for (let i = 0; i < 300; i++) {
      const r = await t.api.get(`/v1/payouts/batches/${id}`, { token: shop.token });
      if (r.body.status === 'completed') return;
      await new Promise((res) => setTimeout(res, 100));
    }
    throw new Error(`batch ${id} did not complete`);
  };

  beforeAll(async () => {
    process.env.QUEUE_PREFIX = `${process.env.QUEUE_PREFIX ?? 'mp-test'}-stmtpdf-${process.pid}`;
    t = await startApp();
    shop = await createShop(t, 'stmtpdf');
    other = await createShop(t, 'stmtpdf-other');
    merchant = (await createMerchantKey(t, shop)).token;
    a = await createVendor(t, shop, 'Pdf Alpha');
    b = await createVendor(t, shop, 'Pdf Beta');
    const order = (day: number, items: any[]) =>
      deliver(
        t,
        shop,
        'orders/create',
        shopifyOrder({
          createdAt: new Date(`2026-03-0${day}T10:00:00Z`),
          financialStatus: 'paid',
          lineItems: items,
        }),
      );
    await order(1, [
      { title: 'Canvas tote', sku: 'TOTE-L', vendor: 'Pdf Alpha', price: '50.00', quantity: 2 },
      { title: 'Lamp', vendor: 'Pdf Beta', price: '10.00', quantity: 1 },
    ]);
    await order(2, [
      { title: 'Linen scarf', sku: 'SCARF', vendor: 'Pdf Alpha', price: '19.99', quantity: 1 },
    ]);
    await order(3, [{ title: 'Pins', sku: 'PIN', vendor: 'Pdf Alpha', price: '0.35', quantity: 3 }]);
    const adj = await t.api.post(
      '/v2/payout-adjustments',
      { vendorId: a._id, amount: 5.25, type: 'ADDITION', comments: 'bonus', customItemDate: '2026-03-04' },
      { token: merchant },
    );
    expect(adj.status).toBe(201);
    const trig = await t.api.post('/v1/payouts/batches', { until: '2026-03-31' }, { token: shop.token });
    expect(trig.status).toBe(202);
    const batches = trig.body.batches as Array<{ _id: string; vendorId: string }>;
    batchA = batches.find((x) => x.vendorId === a._id)!._id;
    batchB = batches.find((x) => x.vendorId === b._id)!._id;
    await waitBatch(batchA);
    await waitBatch(batchB);
  }, 120_000);

  afterAll(() => t.close());

  it('v1 ?format=pdf: every row’s figures and the totals as the JSON statement has them, equal to the oracle', async () => {
    const json = (await t.api.get(`/v1/payouts/batches/${batchA}/statement`, { token: shop.token })).body;
    const res = await pdf(`/v1/payouts/batches/${batchA}/statement?format=pdf`, shop.token);
    expect(res.status).toBe(200);
    expect(res.type).toBe('application/pdf');
    expect(res.disposition).toBe(`attachment; filename="statement-2026-03-31-${batchA}.pdf"`);
    const text = pdfText(res.bytes);
    expect(text).toContain('Payout statement');
    expect(text).toContain('pdf alpha');
    expect(text).toContain(batchA);
    const sales = json.rows.filter((r: any) => r.kind === 'sale');
    expect(sales).toHaveLength(3);
    sales.forEach((r: any, i: number) => {
      const printed = words(linesWith(text, r.orderName)[0]).slice(-5);
      const f = r.figures;
      expect(printed).toEqual(
        [f.salesAfterDiscount, f.commission, f.taxOnCommissions, f.payout, r.amount].map((n: number) =>
          n.toFixed(2),
        ),
      );
      // …and the JSON's figures are the oracle's
      expect([printed[0], printed[1], printed[4]]).toEqual([
        fmt(linesA[i].sales),
        fmt(linesA[i].commission),
        fmt(linesA[i].payout),
      ]);
    });
    const adjustment = json.rows.find((r: any) => r.kind === 'adjustment');
    expect(words(linesWith(text, adjustment.adjustmentId)[0]).pop()).toBe(fmt(ADJ));
    const payoutSum = linesA.reduce((x, l) => x + l.payout, 0n);
    expect(words(linesWith(text, 'Sales (3 rows)')[0]).pop()).toBe(fmt(payoutSum));
    expect(words(linesWith(text, 'Adjustments (1)')[0]).pop()).toBe(fmt(ADJ));
    expect(words(linesWith(text, 'Net')[0]).pop()).toBe(fmt(payoutSum + ADJ));
    expect(json.totals.net.toFixed(2)).toBe(fmt(payoutSum + ADJ));
    expect(words(linesWith(text, 'Paid by this batch')[0]).pop()).toBe(json.paid.toFixed(2));
    expect(words(linesWith(text, 'Closing balance')[0]).pop()).toBe(json.closingBalance.toFixed(2));
    expect(text).toMatch(/page 1 of 1/);
  });

  it('without ?format the route answers as before (JSON, or CSV for Accept: text/csv); a bad format → 422', async () => {
    const j = await t.api.get(`/v1/payouts/batches/${batchA}/statement`, { token: shop.token });
    expect(j.headers.get('content-type')).toContain('application/json');
    const c = await t.api.get(`/v1/payouts/batches/${batchA}/statement`, {
      token: shop.token,
      headers: { accept: 'text/csv' },
    });
    expect(c.headers.get('content-type')).toContain('text/csv');
    const jsonWins = await t.api.get(`/v1/payouts/batches/${batchA}/statement?format=json`, {
      token: shop.token,
      headers: { accept: 'text/csv' },
    });
    expect(jsonWins.headers.get('content-type')).toContain('application/json');
    const bad = await t.api.get(`/v1/payouts/batches/${batchA}/statement?format=xml`, { token: shop.token });
    expect(bad.status).toBe(422);
  });

  it('V2: the vendor reads its own statement PDF; another vendor’s batch → 404; no payouts:read → 403', async () => {
    const tokA = (await vendorKeyToken(t, shop, a._id, ['payouts:read'])).token;
    const own = await pdf(`/v2/payouts/batches/${batchA}/statement?format=pdf`, tokA);
    expect(own.status).toBe(200);
    expect(pdfText(own.bytes)).toContain(batchA);
    const foreign = await pdf(`/v2/payouts/batches/${batchB}/statement?format=pdf`, tokA);
    expect(foreign.status).toBe(404);
    const noScope = (await vendorKeyToken(t, shop, a._id, ['orders:read'])).token;
    const refused = await pdf(`/v2/payouts/batches/${batchA}/statement?format=pdf`, noScope);
    expect(refused.status).toBe(403);
    expect(refused.json.error.message).toBe('Insufficient scope');
  });

  it('another shop’s batch → 404; a merchant token → 403', async () => {
    expect((await pdf(`/v1/payouts/batches/${batchA}/statement?format=pdf`, other.token)).status).toBe(404);
    expect((await pdf(`/v2/payouts/batches/${batchA}/statement?format=pdf`, other.token)).status).toBe(404);
    expect((await pdf(`/v2/payouts/batches/${batchA}/statement?format=pdf`, merchant)).status).toBe(403);
    expect((await pdf(`/v1/payouts/batches/${batchA}/statement?format=pdf`, merchant)).status).toBe(403);
  });
});
