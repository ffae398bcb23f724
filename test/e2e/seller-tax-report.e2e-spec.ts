/* eslint-disable @typescript-eslint/no-explicit-any */
import { startApp, TestApp } from '../support/app';
import { vendorToken } from '../support/catalog';
import { cents } from '../support/cents';
import { Oracle, rest, saleLine, SETTINGS, share } from '../support/seller-tax-oracle';
import { csvObjects } from '../support/csv';
import { createMerchantKey, createShop, TestShop } from '../support/factory';
import { createVendor } from '../support/payout-fixtures';
import { shopifyRefund } from '../support/refunds';
import { deliver, shopifyOrder } from '../support/webhooks';

// GET /v1/reports/seller-tax (issue 32 item 5, DESIGN §14): a year of sales, refunds, an adjustment,
// an unpaid and a cancelled order, rows on the Q1/Q2 boundary and at the year's edges, every figure
// checked to the cent against an oracle written here in BigInt cents (the line figures of DESIGN §6
// and the refund shares recomputed from the order's inputs, not read back from the API).
process.env.QUEUE_PREFIX = `${process.env.QUEUE_PREFIX ?? 'mp-test'}-seller-tax`;

const PATH = '/v1/reports/seller-tax';

describe('GET /v1/reports/seller-tax (e2e)', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;
  let alpha: { _id: string; vendorName: string };
  let bravo: { _id: string; vendorName: string };
  let foreign: { _id: string; vendorName: string };
  const oracle = new Oracle();

  const order = (
    vendorLines: Array<[string, string, number, string?]>,
    createdAt: string,
    financialStatus = 'paid',
  ) =>
    shopifyOrder({
      createdAt,
      financialStatus,
      cancelledAt: financialStatus === 'voided' ? createdAt : null,
      lineItems: vendorLines.map(([vendor, price, quantity, discount]) => ({
        vendor,
        price,
        quantity,
        discounts: discount ? [discount] : [],
      })),
    });
  const report = (s: TestShop, year: number | string, headers: Record<string, string> = {}) =>
    t.api.get(`${PATH}?year=${year}`, { token: s.token, headers });

  beforeAll(async () => {
    t = await startApp();
    shop = await createShop(t, 'seller-tax');
    other = await createShop(t, 'seller-tax-other');
    expect((await t.api.put('/v1/shop/settings', SETTINGS, { token: shop.token })).status).toBe(200);
    alpha = await createVendor(t, shop, 'Tax Alpha', { commissionType: 'percentage', commissionAmount: 10 });
    bravo = await createVendor(t, shop, 'Tax Bravo', { commissionType: 'percentage', commissionAmount: 15 });
    foreign = await createVendor(t, other, 'Tax Alpha', {
      commissionType: 'percentage',
      commissionAmount: 10,
    });
    const A = alpha.vendorName;
    const B = bravo.vendorName;

    // O1, the last second of Q1: alpha 2 × 24.99 less 5.00, bravo 1 × 10.00
    const o1 = order(
      [
        [A, '24.99', 2, '5.00'],
        [B, '10.00', 1],
      ],
      '2025-03-31T23:59:59.000Z',
    );
    await deliver(t, shop, 'orders/create', o1);
    const o1a = saleLine('24.99', 2, '5.00', 10n);
    oracle.sale(A, 1, o1.id, o1a);
    oracle.sale(B, 1, o1.id, saleLine('10.00', 1, '0', 15n));
    // O2, the first instant of Q2: alpha 3 × 19.99, with a vendor deduction of 1.50 written by hand
    const o2 = order([[A, '19.99', 3]], '2025-04-01T00:00:00.000Z');
    await deliver(t, shop, 'orders/create', o2);
    const upd = await t.api.post(
      '/v1/lineitems/update',
      { items: [{ orderId: o2.id, lineItemId: o2.line_items[0].id, fields: { deduction: 1.5 } }] },
      { token: shop.token },
    );
    expect(upd.status).toBe(200);
    expect(upd.body.errors ?? []).toEqual([]);
    const o2a = { ...saleLine('19.99', 3, '0', 10n), deduction: 150n };
    oracle.sale(A, 2, o2.id, o2a);
    // A Q1 sale refunded in Q2 (1 of 2 units) and a Q2 sale refunded in Q2 (1 of 3)
    await deliver(
      t,
      shop,
      'refunds/create',
      shopifyRefund({
        orderId: o1.id,
        processedAt: new Date('2025-04-02T09:00:00Z'),
        lines: [{ lineItemId: o1.line_items[0].id, quantity: 1 }],
      }),
    );
    oracle.refund(A, 2, share(o1a, 1, 2));
    await deliver(
      t,
      shop,
      'refunds/create',
      shopifyRefund({
        orderId: o2.id,
        processedAt: new Date('2025-06-15T12:00:00Z'),
        lines: [{ lineItemId: o2.line_items[0].id, quantity: 1 }],
      }),
    );
    oracle.refund(A, 2, share(o2a, 1, 3));
    // O5, bravo in Q2, paid out by a batch, then refunded in full in Q3
    const o5 = order([[B, '100.00', 1]], '2025-05-20T08:00:00.000Z');
    await deliver(t, shop, 'orders/create', o5);
    const o5b = saleLine('100.00', 1, '0', 15n);
    oracle.sale(B, 2, o5.id, o5b);
    const batch = await t.api.post(
      '/v1/payouts/batches',
      { until: '2025-06-30', vendorId: bravo._id },
      { token: shop.token },
    );
    expect(batch.status).toBe(202);
    for (let i = 0; ; i++) {
      const b = await t.api.get(`/v1/payouts/batches/${batch.body.batchIds[0]}`, { token: shop.token });
      if (b.body.status === 'completed') break;
      if (i > 200 || b.body.status === 'failed') throw new Error(`batch ${JSON.stringify(b.body)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    await deliver(
      t,
      shop,
      'refunds/create',
      shopifyRefund({
        orderId: o5.id,
        processedAt: new Date('2025-07-03T10:00:00Z'),
        lines: [{ lineItemId: o5.line_items[0].id, quantity: 1 }],
      }),
    );
    oracle.refund(B, 3, rest(o5b));
    // Not counted: an unpaid order, a cancelled (voided) one, the years before and after, an adjustment
    await deliver(t, shop, 'orders/create', order([[A, '70.00', 1]], '2025-02-10T10:00:00.000Z', 'pending'));
    await deliver(t, shop, 'orders/create', order([[A, '80.00', 1]], '2025-08-10T10:00:00.000Z', 'voided'));
    const o6 = order([[A, '11.11', 1]], '2024-12-31T23:59:59.999Z');
    const o7 = order([[A, '22.22', 1]], '2026-01-01T00:00:00.000Z');
    await deliver(t, shop, 'orders/create', o6);
    await deliver(t, shop, 'orders/create', o7);
    const mk = await createMerchantKey(t, shop);
    const adj = await t.api.post(
      '/v2/payout-adjustments',
      { vendorId: alpha._id, amount: 50, type: 'ADDITION', customItemDate: '2025-05-01T00:00:00.000Z' },
      { token: mk.token },
    );
    expect(adj.status).toBe(201);
    // Another shop: a vendor of the same name with a 2025 sale
    await deliver(
      t,
      other,
      'orders/create',
      order([[foreign.vendorName, '33.00', 1]], '2025-05-05T00:00:00.000Z'),
    );
  });
  afterAll(() => t.close());

  it('gives per vendor and quarter the figures of the rows, to the cent (BigInt oracle)', async () => {
    const res = await report(shop, 2025);
    expect(res.status).toBe(200);
    expect(res.body.year).toBe(2025);
    expect(res.body.vendors.map((v: any) => [v.vendorId, v.vendorName])).toEqual([
      [alpha._id, alpha.vendorName],
      [bravo._id, bravo.vendorName],
    ]);
    for (const v of res.body.vendors) {
      const want = oracle.figures(v.vendorName);
      expect({ quarters: v.quarters, totals: v.totals }).toEqual(want);
    }
    const [a, b] = res.body.vendors;
    // the boundary: O1 (Mar 31 23:59:59Z) in Q1, O2 (Apr 1 00:00Z) in Q2; the refunds where they are dated
    expect(a.quarters.map((q: any) => q.numberOfOrders)).toEqual([1, 1, 0, 0]);
    expect(a.quarters[1].refunds).toBeLessThan(0);
    expect(b.quarters.map((q: any) => q.numberOfOrders)).toEqual([1, 1, 0, 0]);
    expect(b.quarters[2]).toMatchObject({ sales: 0, refunds: -100, consideration: -100, numberOfOrders: 0 });
    // no tax profile: incomplete, nothing known (profiles: seller-tax-identities.e2e-spec.ts)
    expect(a).toMatchObject({
      complete: false,
      missing: ['legalName', 'entityType', 'address', 'taxId', 'taxIdCountry'],
      identity: {
        legalName: null,
        entityType: null,
        address: null,
        vatId: null,
        taxId: null,
        taxIdCountry: null,
        dateOfBirth: null,
        businessRegistrationNumber: null,
      },
    });
  });

  it('counts the year edges in their own year only', async () => {
    const y2024 = (await report(shop, 2024)).body;
    expect(y2024.vendors).toHaveLength(1);
    expect(y2024.vendors[0]).toMatchObject({
      vendorId: alpha._id,
      totals: { consideration: 11.11, numberOfOrders: 1 },
    });
    expect(y2024.vendors[0].quarters[3]).toMatchObject({ consideration: 11.11 });
    const y2026 = (await report(shop, 2026)).body;
    expect(y2026.vendors[0]).toMatchObject({
      vendorId: alpha._id,
      totals: { consideration: 22.22, numberOfOrders: 1 },
    });
    expect(y2026.vendors[0].quarters[0]).toMatchObject({ consideration: 22.22 });
    expect((await report(shop, 2023)).body).toEqual({ year: 2023, vendors: [] });
  });

  it('answers the same report as CSV (Accept: text/csv): per vendor Q1–Q4 and the year, equal to the JSON', async () => {
    const json = (await report(shop, 2025)).body;
    const res = await report(shop, 2025, { accept: 'text/csv' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="seller-tax-2025.csv"');
    const { header, rows } = csvObjects(res.text);
    expect(header.slice(0, 4)).toEqual(['year', 'period', 'vendorId', 'vendorName']);
    expect(rows).toHaveLength(json.vendors.length * 5);
    json.vendors.forEach((v: any, i: number) => {
      [...v.quarters, v.totals].forEach((f: any, j: number) => {
        const row = rows[i * 5 + j];
        expect(row).toMatchObject({
          year: '2025',
          period: j < 4 ? `Q${j + 1}` : 'year',
          vendorId: v.vendorId,
          vendorName: v.vendorName,
          complete: String(v.complete),
          missing: v.missing.join(';'),
          taxId: '',
          numberOfOrders: String(f.numberOfOrders),
        });
        for (const k of [
          'consideration',
          'sales',
          'refunds',
          'commissions',
          'fees',
          'taxes',
          'netConsideration',
        ])
          expect(cents(row[k])).toBe(cents(f[k].toFixed(2)));
      });
    });
  });

  it('another shop never sees these rows, nor these vendors', async () => {
    const mine = (await report(shop, 2025)).body;
    const theirs = (await report(other, 2025)).body;
    expect(theirs.vendors.map((v: any) => v.vendorId)).toEqual([foreign._id]);
    expect(theirs.vendors[0].totals).toMatchObject({ consideration: 33, numberOfOrders: 1 });
    expect(mine.vendors.map((v: any) => v.vendorId)).not.toContain(foreign._id);
    const csv = (await report(other, 2025, { accept: 'text/csv' })).text;
    expect(csv).not.toContain(alpha._id);
    expect(csv).not.toContain(bravo._id);
  });

  it.each([['abc'], ['2025.5'], ['1969'], ['10000'], [''], ['-2025']])(
    'year=%j → 422, nothing else',
    async (year) => {
      const res = await report(shop, year);
      expect(res.status).toBe(422);
      expect(typeof res.body.error).toBe('string');
      expect(res.body.vendors).toBeUndefined();
    },
  );

  it('no year → 422', async () => {
    const res = await t.api.get(PATH, { token: shop.token });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatch(/year/);
  });

  it('a merchant token and a vendor token get 403; no token 401', async () => {
    const mk = await createMerchantKey(t, shop);
    expect((await t.api.get(`${PATH}?year=2025`, { token: mk.token })).status).toBe(403);
    const vt = await vendorToken(t, shop, alpha._id);
    const vres = await t.api.get(`${PATH}?year=2025`, { token: vt });
    expect(vres.status).toBe(403);
    expect(JSON.stringify(vres.body)).not.toContain('consideration');
    expect((await t.api.get(`${PATH}?year=2025`)).status).toBe(401);
  });
});
