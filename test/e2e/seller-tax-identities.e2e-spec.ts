/* eslint-disable @typescript-eslint/no-explicit-any */
import { startApp, TestApp } from '../support/app';
import { vendorToken } from '../support/catalog';
import { csvObjects } from '../support/csv';
import { measured } from '../support/db-cost';
import { createMerchantKey, createShop, TestShop } from '../support/factory';
import { createVendor } from '../support/payout-fixtures';
import { Oracle, saleLine, SETTINGS } from '../support/seller-tax-oracle';
import { deliver, shopifyOrder } from '../support/webhooks';

// The seller tax report's identities (issue 32 item 5, DESIGN §14): read from the vendor tax profiles
// in one read, shown in full (tax id, date of birth: the report's purpose on an operator-only route),
// `complete`/`missing` from the profile; each export audited without any identity value.
process.env.QUEUE_PREFIX = `${process.env.QUEUE_PREFIX ?? 'mp-test'}-seller-tax-id`;

const PATH = '/v1/reports/seller-tax';
const ADDRESS = { line1: 'Hauptstr. 1', city: 'Berlin', postalCode: '10115', country: 'DE' };
const JANE = {
  legalName: 'Jane Example',
  entityType: 'individual',
  address: { ...ADDRESS, line2: 'Hinterhaus' },
  vatId: 'DE123456789',
  taxId: '12 345 678 901',
  taxIdCountry: 'DE',
  dateOfBirth: '1984-06-30',
};
const ACME = {
  legalName: 'Acme Apparel GmbH',
  entityType: 'business',
  address: ADDRESS,
  taxId: 'ACME-TIN-55501',
  taxIdCountry: 'AT',
};
const FOREIGN_TIN = 'FOREIGN-TIN-77';

describe('GET /v1/reports/seller-tax identities and audit (e2e)', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;
  const ids: Record<'jane' | 'acme' | 'none', string> = { jane: '', acme: '', none: '' };
  const names: Record<string, string> = {};
  const oracle = new Oracle();
  const report = (s: TestShop, headers: Record<string, string> = {}) =>
    t.api.get(`${PATH}?year=2025`, { token: s.token, headers });
  const exports = async () => {
    const res = await t.api.get('/v1/audit-events?limit=250&action=shop.seller_tax_report.export', {
      token: shop.token,
    });
    expect(res.status).toBe(200);
    return res.body.events as any[];
  };

  beforeAll(async () => {
    t = await startApp();
    shop = await createShop(t, 'seller-tax-id');
    other = await createShop(t, 'seller-tax-id-other');
    expect((await t.api.put('/v1/shop/settings', SETTINGS, { token: shop.token })).status).toBe(200);
    const rates: Record<string, bigint> = { jane: 10n, acme: 12n, none: 8n };
    for (const key of ['jane', 'acme', 'none'] as const) {
      const v = await createVendor(t, shop, `Tax Id ${key}`, {
        commissionType: 'percentage',
        commissionAmount: Number(rates[key]),
      });
      ids[key] = v._id;
      names[key] = v.vendorName;
    }
    for (const [key, body] of [
      ['jane', JANE],
      ['acme', ACME],
    ] as const) {
      const put = await t.api.put(`/v1/vendors/${ids[key]}/tax-profile`, body, { token: shop.token });
      expect(put.status).toBe(200);
    }
    // one paid order in Q2 with a line of each vendor, one in Q4 for jane
    const o1 = shopifyOrder({
      createdAt: '2025-05-05T10:00:00.000Z',
      financialStatus: 'paid',
      lineItems: [
        { vendor: names.jane, price: '19.99', quantity: 3, discounts: ['2.50'] },
        { vendor: names.acme, price: '45.10', quantity: 1, discounts: [] },
        { vendor: names.none, price: '7.77', quantity: 2, discounts: [] },
      ],
    });
    await deliver(t, shop, 'orders/create', o1);
    oracle.sale(names.jane, 2, o1.id, saleLine('19.99', 3, '2.50', rates.jane));
    oracle.sale(names.acme, 2, o1.id, saleLine('45.10', 1, '0', rates.acme));
    oracle.sale(names.none, 2, o1.id, saleLine('7.77', 2, '0', rates.none));
    const o2 = shopifyOrder({
      createdAt: '2025-12-31T23:59:59.000Z',
      financialStatus: 'paid',
      lineItems: [{ vendor: names.jane, price: '0.99', quantity: 7, discounts: [] }],
    });
    await deliver(t, shop, 'orders/create', o2);
    oracle.sale(names.jane, 4, o2.id, saleLine('0.99', 7, '0', rates.jane));
    // another shop: a vendor with a complete profile and a sale
    const foreign = await createVendor(t, other, 'Tax Id foreign', {
      commissionType: 'percentage',
      commissionAmount: 10,
    });
    const put = await t.api.put(
      `/v1/vendors/${foreign._id}/tax-profile`,
      { ...ACME, legalName: 'Foreign Ltd', taxId: FOREIGN_TIN },
      { token: other.token },
    );
    expect(put.status).toBe(200);
    await deliver(
      t,
      other,
      'orders/create',
      shopifyOrder({
        createdAt: '2025-05-05T10:00:00.000Z',
        financialStatus: 'paid',
        lineItems: [{ vendor: foreign.vendorName, price: '33.00', quantity: 1, discounts: [] }],
      }),
    );
  });
  afterAll(() => t.close());

  it('gives each vendor its identity in full, complete or with what is missing, and the figures to the cent', async () => {
    const res = await report(shop);
    expect(res.status).toBe(200);
    const byId = new Map<string, any>(res.body.vendors.map((v: any) => [v.vendorId, v]));
    expect([...byId.keys()].sort()).toEqual(Object.values(ids).sort());
    // nothing masked, nothing missing: the individual with every field
    expect(byId.get(ids.jane)).toMatchObject({
      complete: true,
      missing: [],
      identity: {
        legalName: 'Jane Example',
        entityType: 'individual',
        address: { ...ADDRESS, line2: 'Hinterhaus', region: null },
        vatId: 'DE123456789',
        taxId: '12 345 678 901',
        taxIdCountry: 'DE',
        dateOfBirth: '1984-06-30',
        businessRegistrationNumber: null,
      },
    });
    // a business without its registration number: incomplete, that field named
    expect(byId.get(ids.acme)).toMatchObject({
      complete: false,
      missing: ['businessRegistrationNumber'],
      identity: {
        legalName: 'Acme Apparel GmbH',
        entityType: 'business',
        taxId: 'ACME-TIN-55501',
        taxIdCountry: 'AT',
        vatId: null,
        dateOfBirth: null,
      },
    });
    // no profile at all
    expect(byId.get(ids.none)).toMatchObject({
      complete: false,
      missing: ['legalName', 'entityType', 'address', 'taxId', 'taxIdCountry'],
      identity: { legalName: null, address: null, taxId: null, dateOfBirth: null },
    });
    for (const v of res.body.vendors) {
      expect({ quarters: v.quarters, totals: v.totals }).toEqual(oracle.figures(v.vendorName));
    }
    expect(byId.get(ids.jane).quarters.map((q: any) => q.numberOfOrders)).toEqual([0, 1, 0, 1]);
    expect(JSON.stringify(res.body)).not.toContain(FOREIGN_TIN);
  });

  it('the CSV carries the same identity on each of the vendor’s lines', async () => {
    const res = await report(shop, { accept: 'text/csv' });
    expect(res.status).toBe(200);
    const { rows } = csvObjects(res.text);
    const jane = rows.filter((r) => r.vendorId === ids.jane);
    expect(jane.map((r) => r.period)).toEqual(['Q1', 'Q2', 'Q3', 'Q4', 'year']);
    for (const r of jane)
      expect(r).toMatchObject({
        complete: 'true',
        missing: '',
        legalName: 'Jane Example',
        addressLine1: 'Hauptstr. 1',
        addressLine2: 'Hinterhaus',
        city: 'Berlin',
        postalCode: '10115',
        country: 'DE',
        vatId: 'DE123456789',
        taxId: '12 345 678 901',
        taxIdCountry: 'DE',
        dateOfBirth: '1984-06-30',
      });
    const acme = rows.find((r) => r.vendorId === ids.acme)!;
    expect(acme).toMatchObject({ complete: 'false', missing: 'businessRegistrationNumber', dateOfBirth: '' });
    expect(res.text).not.toContain(FOREIGN_TIN);
  });

  it('records each export in the audit trail: who, year, format, row count — never an identity value', async () => {
    const before = (await exports()).length;
    expect((await report(shop)).status).toBe(200);
    expect((await report(shop, { accept: 'text/csv' })).status).toBe(200);
    const events = await exports();
    expect(events.length).toBe(before + 2);
    const [csv, json] = events; // newest first
    for (const [e, format] of [
      [json, 'json'],
      [csv, 'csv'],
    ] as const)
      expect(e).toMatchObject({
        action: 'shop.seller_tax_report.export',
        actor: { kind: 'shop', id: shop.shopId },
        resource: { type: 'shop', id: shop.shopId },
        before: null,
        after: { year: 2025, format, rowCount: 3 },
      });
    const trail = JSON.stringify(events);
    for (const secret of ['12 345 678 901', '1984-06-30', 'ACME-TIN-55501', 'Jane Example'])
      expect(trail).not.toContain(secret);
  });

  it('reads identities in one query whatever the vendor count (DB commands within budget)', async () => {
    const m = await measured(t, 'GET', `${PATH}?year=2025`, undefined, { token: shop.token });
    expect(m.res.status).toBe(200);
    // 8 aggregations, the vendors' names, the profiles (one $in), the audit event
    expect(m.commands).toBeLessThanOrEqual(11);
    expect(m.describe()).toMatch(/vendor_tax_profiles \(\d+\)/);
    expect((m.describe().match(/vendor_tax_profiles/g) ?? []).length).toBe(1);
  });

  it('another shop sees only its own vendor and identity', async () => {
    const res = await report(other);
    expect(res.body.vendors).toHaveLength(1);
    expect(res.body.vendors[0].identity).toMatchObject({ legalName: 'Foreign Ltd', taxId: FOREIGN_TIN });
    const text = JSON.stringify(res.body);
    for (const secret of ['12 345 678 901', '1984-06-30', 'ACME-TIN-55501'])
      expect(text).not.toContain(secret);
  });

  it('a merchant token and a vendor token get 403 and no identity', async () => {
    const mk = await createMerchantKey(t, shop);
    const m = await t.api.get(`${PATH}?year=2025`, { token: mk.token });
    expect(m.status).toBe(403);
    const vt = await vendorToken(t, shop, ids.jane);
    const v = await t.api.get(`${PATH}?year=2025`, { token: vt });
    expect(v.status).toBe(403);
    for (const r of [m, v]) expect(JSON.stringify(r.body)).not.toContain('12 345 678 901');
  });
});
