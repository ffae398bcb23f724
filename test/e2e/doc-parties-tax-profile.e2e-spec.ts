/* eslint-disable @typescript-eslint/no-explicit-any */
import { getModelToken } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { VendorTaxProfile } from '../../src/tax-profiles/tax-profile.schema';
import { startApp, TestApp } from '../support/app';
import { measured } from '../support/db-cost';
import { createVendor, vendorToken } from '../support/catalog';
import { createMerchantKey, createShop, TestMerchantKey, TestShop } from '../support/factory';
import { HOUR } from '../support/test-clock';

/** Vendor tax profiles (DESIGN §14, issue 32 part 1): by the shop (v1, V2), the merchant (V2), the vendor itself. */
describe('vendor tax profiles (e2e)', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;
  let merchant: TestMerchantKey;
  let a: string; // vendor ids
  let b: string;
  let foreign: string;
  let tokenA: string;
  let tokenB: string;
  const TAX_ID = 'AB-123456-7890';
  const DOB = '1984-06-30';
  const address = { line1: '1 Example Street', city: 'Exampleton', postalCode: '12345', country: 'GB' };

  beforeAll(async () => {
    t = await startApp();
    shop = await createShop(t, 'taxprof');
    other = await createShop(t, 'taxprof-other');
    merchant = await createMerchantKey(t, shop);
    a = (await createVendor(t, shop, 'tax vendor a'))._id;
    b = (await createVendor(t, shop, 'tax vendor b'))._id;
    foreign = (await createVendor(t, other, 'tax vendor foreign'))._id;
    tokenA = await vendorToken(t, shop, a);
    tokenB = await vendorToken(t, shop, b);
  });
  afterEach(() => t.clock.reset());
  afterAll(() => t.close());

  const v1 = (id: string, body?: unknown, s: TestShop = shop) =>
    body === undefined
      ? t.api.get(`/v1/vendors/${id}/tax-profile`, { token: s.token })
      : t.api.put(`/v1/vendors/${id}/tax-profile`, body, { token: s.token });
  const raw = (shopId: string, vendorId: string) =>
    t.app
      .get<Model<VendorTaxProfile>>(getModelToken(VendorTaxProfile.name))
      .findOne({ shopId: new Types.ObjectId(shopId), vendorId: new Types.ObjectId(vendorId) })
      .lean()
      .exec();
  const audit = async (vendorId: string) => {
    const q = `action=vendor.tax_profile.update&resourceId=${vendorId}`;
    const res = await t.api.get(`/v1/audit-events?limit=250&${q}`, { token: shop.token });
    expect(res.status).toBe(200);
    return res.body.events as any[];
  };

  it('reads an empty profile before any is set, with what is missing', async () => {
    const res = await v1(a);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      vendorId: a,
      legalName: null,
      entityType: null,
      address: null,
      vatId: null,
      taxIdProvided: false,
      taxIdLast4: null,
      taxIdCountry: null,
      dateOfBirthProvided: false,
      businessRegistrationNumber: null,
      selfBillingConsent: { given: false, at: null, by: null },
      completeness: {
        complete: false,
        missing: ['legalName', 'entityType', 'address', 'taxId', 'taxIdCountry'],
      },
      updatedAt: null,
    });
  });

  it('the shop sets an individual’s profile: sealed values answered as flags, complete', async () => {
    const res = await v1(a, {
      legalName: 'Jane Example',
      entityType: 'individual',
      address,
      taxId: TAX_ID,
      taxIdCountry: 'GB',
      dateOfBirth: DOB,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      vendorId: a,
      legalName: 'Jane Example',
      entityType: 'individual',
      address: { ...address, line2: null, region: null },
      taxIdProvided: true,
      taxIdLast4: '7890',
      dateOfBirthProvided: true,
      completeness: { complete: true, missing: [] },
    });
    expect(res.text).not.toMatch(/123456|1984/);
    expect((await v1(a)).body).toEqual(res.body);
  });

  it('never stores the tax id or the date of birth in clear, and audits them masked', async () => {
    const doc = (await raw(shop.shopId, a)) as any;
    expect(doc._id.toHexString()).toBe(a);
    expect(doc.taxIdEnc).toMatch(/^v2\./);
    expect(doc.dateOfBirthEnc).toMatch(/^v2\./);
    expect(JSON.stringify(doc)).not.toMatch(/123456|1984-06-30/);
    const [created] = await audit(a);
    expect(created).toMatchObject({
      actor: { kind: 'shop', id: shop.shopId },
      resource: { type: 'vendor', id: a },
      before: null,
      after: { taxId: '•••• 7890', dateOfBirth: '[sealed]', legalName: 'Jane Example' },
    });
    // a new tax id behind the same mask and a new date of birth: changes the trail shows, without values
    expect((await v1(a, { taxId: 'ZZ-999999-7890', dateOfBirth: '1985-01-01' })).status).toBe(200);
    const [replaced] = await audit(a);
    expect(replaced.before).toEqual({});
    expect(replaced.after).toEqual({ taxIdReplaced: true, dateOfBirthReplaced: true });
    expect(JSON.stringify(await audit(a))).not.toMatch(/123456|999999|1984|1985/);
  });

  it('the vendor reads and changes its own profile at /vendors/me and /v2/vendors/me, never another’s', async () => {
    const mine = await t.api.get('/vendors/me/tax-profile', { token: tokenA });
    expect(mine.status).toBe(200);
    expect(mine.body).toEqual({ success: true, data: (await v1(a)).body });
    const put = await t.api.put('/v2/vendors/me/tax-profile', { vatId: 'GB000000000' }, { token: tokenB });
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({ vendorId: b, vatId: 'GB000000000' });
    expect((await v1(a)).body.vatId).toBeNull();
    expect((await t.api.get('/v2/vendors/me/tax-profile', { token: tokenA })).body.data.vatId).toBeNull();
    // the vendor surface has no vendor id to pass: the shop and merchant paths refuse a vendor token
    expect((await t.api.get(`/v1/vendors/${b}/tax-profile`, { token: tokenA })).status).toBe(403);
    expect((await t.api.get(`/v2/vendors/${b}/tax-profile`, { token: tokenA })).status).toBe(403);
    expect((await t.api.put(`/v2/vendors/${b}/tax-profile`, { vatId: null }, { token: tokenA })).status).toBe(
      403,
    );
    expect((await raw(shop.shopId, b))?.vatId).toBe('GB000000000');
  });

  it('records who gave and who withdrew self-billing consent, and when', async () => {
    // Tokens live 24 h: hours of injected time, not days.
    t.clock.advance(3 * HOUR);
    const given = await t.api.put('/vendors/me/tax-profile', { selfBillingConsent: true }, { token: tokenA });
    const at = Date.parse(given.body.data.selfBillingConsent.at);
    expect(Math.abs(at - t.clock.now().getTime())).toBeLessThan(60_000);
    expect(at - Date.now()).toBeGreaterThan(2 * HOUR); // the injected clock, not the wall clock
    const byVendor = (await audit(a))[0];
    expect(given.body.data.selfBillingConsent).toEqual({
      given: true,
      at: expect.any(String),
      by: byVendor.actor,
    });
    expect(byVendor.actor.kind).toBe('vendor');
    // repeating it is no change: the record keeps who and when
    const again = await t.api.put('/vendors/me/tax-profile', { selfBillingConsent: true }, { token: tokenA });
    expect(again.body.data.selfBillingConsent).toEqual(given.body.data.selfBillingConsent);
    t.clock.advance(HOUR);
    const withdrawn = await t.api.put(
      `/v2/vendors/${a}/tax-profile`,
      { selfBillingConsent: false },
      { token: merchant.token },
    );
    expect(withdrawn.status).toBe(200);
    expect(withdrawn.body.data.selfBillingConsent).toEqual({
      given: false,
      at: expect.any(String),
      by: { kind: 'merchant', id: merchant.id },
    });
    expect(Date.parse(withdrawn.body.data.selfBillingConsent.at)).toBeGreaterThan(at + HOUR - 60_000);
  });

  it('completeness follows the entity type; becoming a business drops the date of birth', async () => {
    const business = await t.api.put(
      `/v2/vendors/${a}/tax-profile`,
      { entityType: 'business', legalName: 'Example Goods Ltd' },
      { token: shop.token },
    );
    expect(business.status).toBe(200);
    expect(business.body.data).toMatchObject({
      dateOfBirthProvided: false,
      completeness: { complete: false, missing: ['businessRegistrationNumber'] },
    });
    expect((await raw(shop.shopId, a))?.dateOfBirthEnc).toBeNull();
    const done = await v1(a, { businessRegistrationNumber: '00000000' });
    expect(done.body.completeness).toEqual({ complete: true, missing: [] });
    const individual = await v1(a, { entityType: 'individual' });
    expect(individual.body.completeness).toEqual({ complete: false, missing: ['dateOfBirth'] });
    expect((await v1(a, { taxId: null })).body.completeness.missing).toEqual(['taxId', 'dateOfBirth']);
    const unknown = await v1(a, { entityType: null });
    expect(unknown.status).toBe(200);
    expect(unknown.body).toMatchObject({ entityType: null, dateOfBirthProvided: false });
    expect(unknown.body.completeness.missing).toEqual(['entityType', 'taxId']);
    expect((await v1(a, { entityType: 'individual', taxId: TAX_ID })).body.completeness.missing).toEqual([
      'dateOfBirth',
    ]);
  });

  it.each<[string, unknown]>([
    ['a date of birth in the future', { entityType: 'individual', dateOfBirth: '2999-01-01' }],
    ['a date of birth that is no date', { entityType: 'individual', dateOfBirth: '1984-02-30' }],
    ['a date of birth for a business', { entityType: 'business', dateOfBirth: DOB }],
    ['an unknown entity type', { entityType: 'partnership' }],
    ['a lower-case tax id country', { taxIdCountry: 'gb' }],
    ['an address without line1', { address: { city: 'x', postalCode: '1', country: 'GB' } }],
    ['a masked tax id sent back', { taxId: '•••• 7890' }],
    ['consent as null', { selfBillingConsent: null }],
    ['an unknown field', { ssn: '123' }],
  ])('refuses %s with 422 and changes nothing', async (_name, body) => {
    const before = (await v1(a)).body;
    const res = await v1(a, body);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ error: expect.any(String) });
    expect((await v1(a)).body).toEqual(before);
    for (const path of ['/vendors/me/tax-profile', '/v2/vendors/me/tax-profile']) {
      const own = await t.api.put(path, body, { token: tokenA });
      expect(own.status).toBe(422);
      expect(own.body).toEqual({
        success: false,
        error: expect.objectContaining({ code: 'VALIDATION_ERROR' }),
      });
    }
    expect((await v1(a)).body).toEqual(before);
  });

  it('another shop’s vendor, an unknown or a malformed id → 404, and writes nothing', async () => {
    for (const id of [foreign, new Types.ObjectId().toHexString(), 'not-an-id']) {
      expect((await v1(id)).status).toBe(404);
      expect((await v1(id, { legalName: 'Intruder' })).status).toBe(404);
      expect((await t.api.get(`/v2/vendors/${id}/tax-profile`, { token: merchant.token })).status).toBe(404);
    }
    expect(await raw(other.shopId, foreign)).toBeNull();
    expect(await raw(shop.shopId, foreign)).toBeNull();
    expect((await v1(a, undefined, other)).status).toBe(404);
  });

  it('merchant token 403 on v1; shop and merchant tokens 403 on the vendor’s own path; none 401', async () => {
    expect((await t.api.get(`/v1/vendors/${a}/tax-profile`, { token: merchant.token })).status).toBe(403);
    expect((await t.api.put(`/v1/vendors/${a}/tax-profile`, {}, { token: merchant.token })).status).toBe(403);
    for (const token of [shop.token, merchant.token]) {
      expect((await t.api.get('/vendors/me/tax-profile', { token })).status).toBe(403);
      expect((await t.api.put('/v2/vendors/me/tax-profile', {}, { token })).status).toBe(403);
    }
    expect((await t.api.get('/vendors/me/tax-profile')).status).toBe(401);
  });

  it('costs few database commands: a read 2 (vendor, profile), a write 5 (vendor, profile, the write, the audit relay)', async () => {
    const read = await measured(t, 'GET', `/v1/vendors/${b}/tax-profile`, undefined, { token: shop.token });
    expect(read.res.status).toBe(200);
    expect(read.commands).toBeLessThanOrEqual(2);
    const write = await measured(
      t,
      'PUT',
      `/v1/vendors/${b}/tax-profile`,
      { legalName: 'B Ltd' },
      { token: shop.token },
    );
    expect(write.res.status).toBe(200);
    // vendor, profile, the conditional write with its audit event, and relaying the event (audit phase)
    expect(write.commands).toBeLessThanOrEqual(5);
    expect(read.documents + write.documents).toBeLessThanOrEqual(6);
  });
});
