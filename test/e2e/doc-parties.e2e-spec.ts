/* eslint-disable @typescript-eslint/no-explicit-any */
import { getModelToken } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { Shop } from '../../src/shops/shop.schema';
import { startApp, TestApp } from '../support/app';
import { createVendor, vendorToken } from '../support/catalog';
import { createMerchantKey, createShop, TestMerchantKey, TestShop } from '../support/factory';

/**
 * The parties of documents (DESIGN §14, issue 32 part 1): the shop's legal settings. Vendor tax
 * profiles: doc-parties-tax-profile.e2e-spec.ts.
 */
describe('GET/PUT /v1/shop/legal (e2e)', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;
  let merchant: TestMerchantKey;
  let vendorTok: string;
  const TAX_ID = 'DE-TAXNR-4711-0042';
  const address = { line1: '1 Example Street', city: 'Exampleton', postalCode: '12345', country: 'DE' };
  const DEFAULTS = {
    legalName: null,
    address: null,
    vatId: null,
    taxIdProvided: false,
    taxIdLast4: null,
    prefixes: { commission_invoice: 'INV-', credit_note: 'CN-', self_billed_invoice: 'SB-' },
    selfBilling: false,
  };

  beforeAll(async () => {
    t = await startApp();
    shop = await createShop(t, 'legal');
    other = await createShop(t, 'legal-other');
    merchant = await createMerchantKey(t, shop);
    vendorTok = await vendorToken(t, shop, (await createVendor(t, shop, 'legal vendor'))._id);
  });
  afterAll(() => t.close());

  const get = (s: TestShop = shop) => t.api.get('/v1/shop/legal', { token: s.token });
  const put = (body: unknown, s: TestShop = shop) => t.api.put('/v1/shop/legal', body, { token: s.token });
  const rawShop = (s: TestShop) =>
    t.app
      .get<Model<Shop>>(getModelToken(Shop.name))
      .findOne({ _id: new Types.ObjectId(s.shopId) })
      .lean()
      .exec();

  it('reads the defaults before anything is set: prefixes INV-, CN-, SB-, no self-billing', async () => {
    const res = await get();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ legal: DEFAULTS });
  });

  it('round-trips every field; the tax id is sealed, answered as provided + last 4 only', async () => {
    const body = {
      legalName: '  Example Marketplace GmbH ',
      address: { ...address, line2: 'Unit 4', region: null },
      vatId: 'DE000000000',
      taxId: TAX_ID,
      prefixes: { commission_invoice: 'RE/2026-', credit_note: 'GS_' },
      selfBilling: true,
    };
    const res = await put(body);
    expect(res.status).toBe(200);
    const legal = {
      legalName: 'Example Marketplace GmbH',
      address: { ...address, line2: 'Unit 4', region: null },
      vatId: 'DE000000000',
      taxIdProvided: true,
      taxIdLast4: '0042',
      prefixes: { commission_invoice: 'RE/2026-', credit_note: 'GS_', self_billed_invoice: 'SB-' },
      selfBilling: true,
    };
    expect(res.body).toEqual({ message: expect.any(String), legal });
    expect(res.text).not.toContain('4711');
    expect((await get()).body).toEqual({ legal });

    // A read sent back unchanged (no taxId) keeps the tax id; null clears an optional field.
    expect((await put({ ...legal, taxIdProvided: undefined, taxIdLast4: undefined })).status).toBe(200);
    const cleared = await put({ vatId: null, prefixes: { self_billed_invoice: 'SB/' } });
    expect(cleared.body.legal).toEqual({
      ...legal,
      vatId: null,
      prefixes: { ...legal.prefixes, self_billed_invoice: 'SB/' },
    });
  });

  it('stores the tax id sealed: the raw shop document never holds it in clear', async () => {
    const doc = (await rawShop(shop)) as any;
    expect(doc.legal.taxIdEnc).toMatch(/^v2\./);
    expect(JSON.stringify(doc)).not.toContain('4711');
    expect(JSON.stringify(doc)).not.toContain(TAX_ID);
  });

  it('audits each change with the tax id as a masked tail', async () => {
    // same last 4 (still a change the trail shows), with another field beside it
    await put({ taxId: 'XX-9999-0042', legalName: 'Example Marketplace AG' });
    const res = await t.api.get('/v1/audit-events?limit=250&action=shop.legal.update', { token: shop.token });
    expect(res.status).toBe(200);
    const events = res.body.events as any[];
    expect(events.length).toBeGreaterThanOrEqual(3);
    expect(JSON.stringify(events)).not.toMatch(/4711|9999/);
    const first = events[events.length - 1];
    expect(first.actor).toEqual({ kind: 'shop', id: shop.shopId });
    expect(first.resource).toEqual({ type: 'shop', id: shop.shopId });
    expect(first.before.legal.taxId).toBeNull();
    expect(first.after.legal).toMatchObject({ taxId: '•••• 0042', legalName: 'Example Marketplace GmbH' });
    expect(events[0].after).toEqual({ legal: { legalName: 'Example Marketplace AG' }, taxIdReplaced: true });
    expect(events[0].before).toEqual({ legal: { legalName: 'Example Marketplace GmbH' } });
    expect((await get()).body.legal.taxIdLast4).toBe('0042');
  });

  it.each<[string, unknown]>([
    ['a prefix with lower case', { prefixes: { credit_note: 'cn-' } }],
    ['a prefix over 10 characters', { prefixes: { credit_note: 'CREDITNOTE-' } }],
    ['an empty prefix', { prefixes: { credit_note: '' } }],
    ['two equal prefixes in one body', { prefixes: { credit_note: 'X-', self_billed_invoice: 'X-' } }],
    ['a prefix equal to a stored one', { prefixes: { credit_note: 'RE/2026-' } }],
    ['an unknown series', { prefixes: { packing_slip: 'PS-' } }],
    ['an address without a postal code', { address: { line1: 'x', city: 'y', country: 'DE' } }],
    ['an address with a lower-case country', { address: { ...address, country: 'de' } }],
    ['an address with a made-up country', { address: { ...address, country: 'QQ' } }],
    ['a VAT id over 32 characters', { vatId: 'DE'.repeat(17) }],
    ['a tax id with symbols', { taxId: '12#34' }],
    ['a legal name over 200 characters', { legalName: 'x'.repeat(201) }],
    ['selfBilling as a string', { selfBilling: 'true' }],
    ['prefixes as null', { prefixes: null }],
    ['an unknown field', { taxNumber: '1234' }],
  ])('refuses %s with 422 and changes nothing', async (_name, body) => {
    const before = (await get()).body;
    const res = await put(body);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ error: expect.any(String) });
    expect((await get()).body).toEqual(before);
  });

  it('is per shop', async () => {
    expect((await get(other)).body).toEqual({ legal: DEFAULTS });
    expect((await rawShop(other))?.legal).toBeUndefined();
  });

  it('needs a shop token: merchant and vendor tokens get 403, none 401', async () => {
    for (const token of [merchant.token, vendorTok]) {
      expect((await t.api.get('/v1/shop/legal', { token })).status).toBe(403);
      expect((await t.api.put('/v1/shop/legal', { selfBilling: false }, { token })).status).toBe(403);
    }
    expect((await t.api.get('/v1/shop/legal')).status).toBe(401);
    expect((await get()).body.legal.selfBilling).toBe(true);
  });
});
