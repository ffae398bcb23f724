import { startApp, TestApp } from '../support/app';
import { createMerchantKey, createShop, TestShop } from '../support/factory';

describe('vendors (e2e)', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;
  let merchant: string;
  let otherVendorId: string;

  const v1 = (token = shop.token) => ({ token });
  const createVendor = async (body: Record<string, unknown>, s: TestShop = shop) => {
    const res = await t.api.post('/v1/vendors', body, { token: s.token });
    expect(res.status).toBe(200);
    return res.body.vendor;
  };
  const unique = (p: string) => `${p} ${Math.random().toString(36).slice(2, 8)}`;

  beforeAll(async () => {
    t = await startApp();
    shop = await createShop(t, 'vend');
    other = await createShop(t, 'vend-other');
    merchant = (await createMerchantKey(t, shop)).token;
    otherVendorId = (
      await createVendor(
        { vendorName: 'Other Shop Vendor', commissionType: 'flat', commissionAmount: 1 },
        other,
      )
    )._id;
  });
  afterAll(() => t.close());

  describe('POST /v1/vendors', () => {
    it('creates a vendor with its name trimmed and lowercased', async () => {
      const res = await t.api.post(
        '/v1/vendors',
        { vendorName: '  Acme Apparel  ', commissionType: 'percentage', commissionAmount: 12.5 },
        v1(),
      );
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        message: 'Vendor created',
        vendor: {
          _id: expect.stringMatching(/^[0-9a-f]{24}$/),
          vendorName: 'acme apparel',
          commissionType: 'percentage',
          commissionAmount: 12.5,
          active: true,
          shopId: shop.shopId,
          address: {
            address1: null,
            address2: null,
            city: null,
            state: null,
            postalCode: null,
            country: null,
          },
          profile: [],
          createdAt: expect.any(String),
          updatedAt: expect.any(String),
        },
      });
    });

    it.each(['ACME APPAREL', 'acme apparel', ' Acme Apparel '])(
      'refuses the same name in any letter case (%j) with 409 {error, vendorName}',
      async (vendorName) => {
        const res = await t.api.post(
          '/v1/vendors',
          { vendorName, commissionType: 'flat', commissionAmount: 1 },
          v1(),
        );
        expect(res.status).toBe(409);
        expect(res.body).toEqual({
          error: expect.stringContaining('acme apparel'),
          vendorName: 'acme apparel',
        });
      },
    );

    it('allows the same name in another shop', async () => {
      const res = await t.api.post(
        '/v1/vendors',
        { vendorName: 'Acme Apparel', commissionType: 'flat', commissionAmount: 1 },
        v1(other.token),
      );
      expect(res.status).toBe(200);
    });

    it('accepts a flat amount above 100 and a 0 / 100 percentage', async () => {
      for (const body of [
        { vendorName: unique('flat'), commissionType: 'flat', commissionAmount: 150 },
        { vendorName: unique('zero'), commissionType: 'percentage', commissionAmount: 0 },
        { vendorName: unique('hundred'), commissionType: 'percentage', commissionAmount: 100 },
      ]) {
        expect((await t.api.post('/v1/vendors', body, v1())).status).toBe(200);
      }
    });

    it.each([
      ['a missing name', { commissionType: 'flat', commissionAmount: 1 }, 'vendorName'],
      ['a blank name', { vendorName: '   ', commissionType: 'flat', commissionAmount: 1 }, 'vendorName'],
      ['a non-string name', { vendorName: 7, commissionType: 'flat', commissionAmount: 1 }, 'vendorName'],
      [
        'an unknown type',
        { vendorName: 'x1', commissionType: 'fixed', commissionAmount: 1 },
        'commissionType',
      ],
      ['a missing amount', { vendorName: 'x2', commissionType: 'flat' }, 'commissionAmount'],
      [
        'a string amount',
        { vendorName: 'x3', commissionType: 'flat', commissionAmount: '5' },
        'commissionAmount',
      ],
      [
        'a negative amount',
        { vendorName: 'x4', commissionType: 'flat', commissionAmount: -1 },
        'commissionAmount',
      ],
      [
        'a percentage over 100',
        { vendorName: 'x5', commissionType: 'percentage', commissionAmount: 100.5 },
        'commissionAmount',
      ],
      [
        'an unknown field',
        { vendorName: 'x6', commissionType: 'flat', commissionAmount: 1, active: false },
        'active',
      ],
    ])('refuses %s with 422 {error}', async (_name, body, field) => {
      const res = await t.api.post('/v1/vendors', body, v1());
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ error: expect.stringContaining(field) });
    });
  });

  describe('GET /v1/vendors/{id}', () => {
    let vendor: { _id: string };
    beforeAll(async () => {
      vendor = await createVendor({
        vendorName: unique('Reader'),
        commissionType: 'flat',
        commissionAmount: 3,
      });
    });

    it('answers {vendor: [record]} with its profile', async () => {
      const res = await t.api.get(`/v1/vendors/${vendor._id}`, v1());
      expect(res.status).toBe(200);
      expect(res.body.vendor).toHaveLength(1);
      expect(res.body.vendor[0]).toMatchObject({ _id: vendor._id, commissionAmount: 3, profile: [] });
      expect(res.body.vendor[0].users).toBeUndefined();
    });

    it('users=true adds the vendor’s users, never a password or hash', async () => {
      const password = 'reader-secret-pw';
      const created = await t.api.post(
        '/v1/users',
        { vendorId: vendor._id, email: `${unique('r').replace(' ', '')}@example.com`, password },
        v1(),
      );
      expect(created.status).toBe(200);
      const res = await t.api.get(`/v1/vendors/${vendor._id}?users=true`, v1());
      expect(res.status).toBe(200);
      expect(res.body.vendor[0].users).toEqual([
        expect.objectContaining({
          _id: created.body.user._id,
          vendorId: vendor._id,
          type: 'vendor',
          approved: true,
        }),
      ]);
      expect(res.text).not.toContain(password);
      expect(res.text).not.toMatch(/passwordHash|"password"|\$argon2/);
      expect(
        (await t.api.get(`/v1/vendors/${vendor._id}?users=false`, v1())).body.vendor[0].users,
      ).toBeUndefined();
    });

    it('refuses an unknown flag value with 422', async () => {
      expect((await t.api.get(`/v1/vendors/${vendor._id}?users=yes`, v1())).status).toBe(422);
    });

    it.each([
      ['another shop’s vendor', () => otherVendorId],
      ['an unknown id', () => '6740c1a2e4b0f15b3c9d0aff'],
      ['a malformed id', () => 'not-an-id'],
    ])('answers 404 for %s', async (_name, id) => {
      const res = await t.api.get(`/v1/vendors/${id()}`, v1());
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Vendor not found' });
    });
  });

  describe('PUT /v1/vendors/{id}', () => {
    it('changes only the given fields', async () => {
      const v = await createVendor({
        vendorName: unique('Changer'),
        commissionType: 'percentage',
        commissionAmount: 10,
      });
      const res = await t.api.put(`/v1/vendors/${v._id}`, { commissionAmount: 15 }, v1());
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        message: 'Vendor updated',
        vendor: expect.objectContaining({
          vendorName: v.vendorName,
          commissionType: 'percentage',
          commissionAmount: 15,
        }),
      });
      const renamed = await t.api.put(
        `/v1/vendors/${v._id}`,
        { vendorName: '  Renamed ' + v._id + ' ' },
        v1(),
      );
      expect(renamed.body.vendor).toMatchObject({ vendorName: `renamed ${v._id}`, commissionAmount: 15 });
      const flat = await t.api.put(
        `/v1/vendors/${v._id}`,
        { commissionType: 'flat', commissionAmount: 250 },
        v1(),
      );
      expect(flat.body.vendor).toMatchObject({ commissionType: 'flat', commissionAmount: 250 });
      const unchanged = await t.api.put(`/v1/vendors/${v._id}`, {}, v1());
      expect(unchanged.status).toBe(200);
      expect(unchanged.body.vendor).toMatchObject({ commissionType: 'flat', commissionAmount: 250 });
    });

    it('refuses a rename onto an existing name (any case) with 409 {error, vendorName}', async () => {
      const a = await createVendor({
        vendorName: unique('Taken'),
        commissionType: 'flat',
        commissionAmount: 1,
      });
      const b = await createVendor({
        vendorName: unique('Mover'),
        commissionType: 'flat',
        commissionAmount: 1,
      });
      const res = await t.api.put(`/v1/vendors/${b._id}`, { vendorName: a.vendorName.toUpperCase() }, v1());
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ error: expect.any(String), vendorName: a.vendorName });
      expect((await t.api.get(`/v1/vendors/${b._id}`, v1())).body.vendor[0].vendorName).toBe(b.vendorName);
    });

    it('checks the commission against the stored type (and the reverse)', async () => {
      const pct = await createVendor({
        vendorName: unique('Pct'),
        commissionType: 'percentage',
        commissionAmount: 10,
      });
      expect((await t.api.put(`/v1/vendors/${pct._id}`, { commissionAmount: 101 }, v1())).status).toBe(422);
      const flat = await createVendor({
        vendorName: unique('Flat'),
        commissionType: 'flat',
        commissionAmount: 150,
      });
      const res = await t.api.put(`/v1/vendors/${flat._id}`, { commissionType: 'percentage' }, v1());
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ error: expect.stringContaining('100') });
    });

    it.each([
      ['a null name', { vendorName: null }],
      ['a blank name', { vendorName: ' ' }],
      ['a bad type', { commissionType: 'per-item' }],
      ['a negative amount', { commissionAmount: -2 }],
      ['an unknown field', { address1: 'x' }],
    ])('refuses %s with 422', async (_name, body) => {
      const v = await createVendor({
        vendorName: unique('Strict'),
        commissionType: 'flat',
        commissionAmount: 1,
      });
      expect((await t.api.put(`/v1/vendors/${v._id}`, body, v1())).status).toBe(422);
    });

    it('cannot change another shop’s vendor (404), which stays unchanged', async () => {
      const res = await t.api.put(`/v1/vendors/${otherVendorId}`, { commissionAmount: 9 }, v1());
      expect(res.status).toBe(404);
      const theirs = await t.api.get(`/v1/vendors/${otherVendorId}`, v1(other.token));
      expect(theirs.body.vendor[0].commissionAmount).toBe(1);
    });
  });

  describe('PUT /v1/vendors/{id}/address', () => {
    it('sets the given fields, ignores unknown keys, keeps the rest; null clears one', async () => {
      const v = await createVendor({
        vendorName: unique('Addr'),
        commissionType: 'flat',
        commissionAmount: 1,
      });
      const first = await t.api.put(
        `/v1/vendors/${v._id}/address`,
        { address1: '1 Main St', city: 'Bristol', country: 'GB', planet: 'Earth', commissionAmount: 99 },
        v1(),
      );
      expect(first.status).toBe(200);
      expect(first.body.message).toBe('Vendor address updated');
      expect(first.body.vendor.address).toEqual({
        address1: '1 Main St',
        address2: null,
        city: 'Bristol',
        state: null,
        postalCode: null,
        country: 'GB',
      });
      expect(first.body.vendor.commissionAmount).toBe(1);
      expect(first.text).not.toContain('planet');
      const second = await t.api.put(`/v1/vendors/${v._id}/address`, { postalCode: 'BS1', city: null }, v1());
      expect(second.body.vendor.address).toEqual({
        address1: '1 Main St',
        address2: null,
        city: null,
        state: null,
        postalCode: 'BS1',
        country: 'GB',
      });
    });

    it('refuses a non-string value with 422 and another shop’s vendor with 404', async () => {
      const v = await createVendor({
        vendorName: unique('Addr2'),
        commissionType: 'flat',
        commissionAmount: 1,
      });
      expect((await t.api.put(`/v1/vendors/${v._id}/address`, { city: 42 }, v1())).status).toBe(422);
      expect((await t.api.put(`/v1/vendors/${otherVendorId}/address`, { city: 'X' }, v1())).status).toBe(404);
    });
  });

  describe('PUT /v1/vendors/{id}/profile', () => {
    let v: { _id: string };
    beforeAll(async () => {
      v = await createVendor({ vendorName: unique('Prof'), commissionType: 'flat', commissionAmount: 1 });
    });

    it('refuses every field while the shop has no profile configured (422)', async () => {
      const s = await createShop(t, 'vend-noprof');
      const mine = await createVendor({ vendorName: 'np', commissionType: 'flat', commissionAmount: 1 }, s);
      const res = await t.api.put(
        `/v1/vendors/${mine._id}/profile`,
        [{ field: 'taxId', value: 'x' }],
        v1(s.token),
      );
      expect(res.status).toBe(422);
      expect(res.body.error).toContain('none configured');
    });

    it('sets string, number and boolean values of the shop’s fields; other fields keep theirs', async () => {
      const fields = ['companyName', 'taxId', 'employees', 'verified'];
      expect((await t.api.put('/v1/shop/profile', { fields }, v1())).status).toBe(200);
      const first = await t.api.put(
        `/v1/vendors/${v._id}/profile`,
        [
          { field: 'companyName', value: 'Acme Ltd' },
          { field: 'employees', value: 12 },
          { field: 'verified', value: false },
        ],
        v1(),
      );
      expect(first.status).toBe(200);
      expect(first.body).toEqual({ message: 'Vendor profile updated', vendor: expect.any(Object) });
      const second = await t.api.put(
        `/v1/vendors/${v._id}/profile`,
        [
          { field: 'taxId', value: 'GB1' },
          { field: 'employees', value: 13 },
          { field: 'employees', value: 14 },
        ],
        v1(),
      );
      expect(second.body.vendor.profile).toEqual([
        { field: 'companyName', value: 'Acme Ltd' },
        { field: 'employees', value: 14 },
        { field: 'verified', value: false },
        { field: 'taxId', value: 'GB1' },
      ]);
      const read = await t.api.get(`/v1/vendors/${v._id}`, v1());
      expect(read.body.vendor[0].profile).toEqual(second.body.vendor.profile);
    });

    it.each([
      ['an undefined field', [{ field: 'favouriteColour', value: 'red' }], 'favouriteColour'],
      ['an object value', [{ field: 'taxId', value: { number: 'GB1' } }], 'value'],
      ['an array value', [{ field: 'taxId', value: ['GB1'] }], 'value'],
      ['a null value', [{ field: 'taxId', value: null }], 'value'],
      ['a missing field name', [{ value: 'x' }], 'field'],
      ['an extra key', [{ field: 'taxId', value: 'x', note: 1 }], 'note'],
      ['a body that is not an array', { field: 'taxId', value: 'x' }, 'array'],
    ])('refuses %s with 422 and changes nothing', async (_name, body, mention) => {
      const before = (await t.api.get(`/v1/vendors/${v._id}`, v1())).body.vendor[0].profile;
      const res = await t.api.put(`/v1/vendors/${v._id}/profile`, body, v1());
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ error: expect.stringContaining(mention) });
      expect((await t.api.get(`/v1/vendors/${v._id}`, v1())).body.vendor[0].profile).toEqual(before);
    });

    it('cannot set another shop’s vendor profile (404)', async () => {
      const res = await t.api.put(
        `/v1/vendors/${otherVendorId}/profile`,
        [{ field: 'taxId', value: 'x' }],
        v1(),
      );
      expect(res.status).toBe(404);
    });
  });

  describe('credentials on v1', () => {
    it('refuses a merchant token with 403 and no token with 401', async () => {
      expect(
        (
          await t.api.post(
            '/v1/vendors',
            { vendorName: 'm', commissionType: 'flat', commissionAmount: 1 },
            { token: merchant },
          )
        ).status,
      ).toBe(403);
      expect((await t.api.get(`/v1/vendors/${otherVendorId}`)).status).toBe(401);
    });
  });

  describe('V2 /v2/vendors', () => {
    let s: TestShop;
    let mk: string;
    beforeAll(async () => {
      s = await createShop(t, 'vend-v2');
      mk = (await createMerchantKey(t, s)).token;
    });

    it('creates (201), reads, patches and deactivates in the V2 envelope', async () => {
      const created = await t.api.post(
        '/v2/vendors',
        { vendorName: ' Globex ', commissionType: 'flat', commissionAmount: 2 },
        { token: mk },
      );
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        success: true,
        data: expect.objectContaining({ vendorName: 'globex', active: true, shopId: s.shopId }),
      });
      const id = created.body.data._id;
      const read = await t.api.get(`/v2/vendors/${id}`, { token: mk });
      expect(read.body).toEqual({ success: true, data: created.body.data });

      await t.api.put('/v1/shop/profile', { fields: ['taxId'] }, { token: s.token });
      const patched = await t.api.patch(
        `/v2/vendors/${id}`,
        {
          commissionType: 'percentage',
          commissionAmount: 7,
          address: { city: 'Leeds' },
          profile: [{ field: 'taxId', value: 'T1' }],
        },
        { token: mk },
      );
      expect(patched.status).toBe(200);
      expect(patched.body.data).toMatchObject({
        commissionType: 'percentage',
        commissionAmount: 7,
        address: expect.objectContaining({ city: 'Leeds', country: null }),
        profile: [{ field: 'taxId', value: 'T1' }],
      });

      const deleted = await t.api.delete(`/v2/vendors/${id}`, { token: mk });
      expect(deleted.status).toBe(200);
      expect(deleted.body.data).toMatchObject({ _id: id, active: false });
      // Deactivation keeps the record readable (v1 and V2) and is reversible.
      expect((await t.api.get(`/v1/vendors/${id}`, { token: s.token })).body.vendor[0].active).toBe(false);
      const back = await t.api.patch(`/v2/vendors/${id}`, { active: true }, { token: mk });
      expect(back.body.data.active).toBe(true);
    });

    it('answers V2 errors: 409 CONFLICT with vendorName, 422 VALIDATION_ERROR, 404 NOT_FOUND', async () => {
      await t.api.post(
        '/v2/vendors',
        { vendorName: 'dupe', commissionType: 'flat', commissionAmount: 1 },
        { token: mk },
      );
      const dup = await t.api.post(
        '/v2/vendors',
        { vendorName: 'DUPE', commissionType: 'flat', commissionAmount: 1 },
        { token: mk },
      );
      expect(dup.status).toBe(409);
      expect(dup.body).toEqual({
        success: false,
        error: { message: expect.any(String), code: 'CONFLICT', details: { vendorName: 'dupe' } },
      });
      const bad = await t.api.post(
        '/v2/vendors',
        { vendorName: 'p', commissionType: 'percentage', commissionAmount: 101 },
        { token: mk },
      );
      expect(bad.status).toBe(422);
      expect(bad.body.error).toMatchObject({
        code: 'VALIDATION_ERROR',
        details: { fields: { commissionAmount: [expect.any(String)] } },
      });
      const patchBad = await t.api.patch(`/v2/vendors/${otherVendorId}`, { active: 'no' }, { token: mk });
      expect(patchBad.status).toBe(422);
      for (const res of [
        await t.api.get(`/v2/vendors/${otherVendorId}`, { token: mk }),
        await t.api.patch(`/v2/vendors/${otherVendorId}`, { commissionAmount: 3 }, { token: mk }),
        await t.api.delete(`/v2/vendors/${otherVendorId}`, { token: mk }),
        await t.api.get('/v2/vendors/nope', { token: mk }),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body).toEqual({
          success: false,
          error: { message: 'Vendor not found', code: 'NOT_FOUND' },
        });
      }
      const theirs = await t.api.get(`/v1/vendors/${otherVendorId}`, { token: other.token });
      expect(theirs.body.vendor[0]).toMatchObject({ active: true, commissionAmount: 1 });
    });

    it('pages newest first with cursors, filters on active, and refuses bad cursors', async () => {
      const p = await createShop(t, 'vend-page');
      const pk = (await createMerchantKey(t, p)).token;
      const ids: string[] = [];
      for (const name of ['one', 'two', 'three']) {
        ids.push(
          (await createVendor({ vendorName: name, commissionType: 'flat', commissionAmount: 1 }, p))._id,
        );
      }
      await t.api.delete(`/v2/vendors/${ids[0]}`, { token: pk });
      const page1 = await t.api.get('/v2/vendors?first=2', { token: pk });
      expect(page1.status).toBe(200);
      expect(page1.body.data.vendors.map((v: { _id: string }) => v._id)).toEqual([ids[2], ids[1]]);
      expect(page1.body.data.totalCount).toBe(3);
      expect(page1.body.data.pageInfo).toMatchObject({
        hasNextPage: true,
        hasPreviousPage: false,
        totalCount: 3,
      });
      const page2 = await t.api.get(`/v2/vendors?first=2&after=${page1.body.data.pageInfo.endCursor}`, {
        token: pk,
      });
      expect(page2.body.data.vendors.map((v: { _id: string }) => v._id)).toEqual([ids[0]]);
      expect(page2.body.data.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
      const back = await t.api.get(`/v2/vendors?last=2&before=${page2.body.data.pageInfo.startCursor}`, {
        token: pk,
      });
      expect(back.body.data.vendors.map((v: { _id: string }) => v._id)).toEqual([ids[2], ids[1]]);
      const active = await t.api.get('/v2/vendors?active=true', { token: pk });
      expect(active.body.data.vendors.map((v: { _id: string }) => v._id)).toEqual([ids[2], ids[1]]);
      const inactive = await t.api.get('/v2/vendors?active=false', { token: pk });
      expect(inactive.body.data.vendors.map((v: { _id: string }) => v._id)).toEqual([ids[0]]);

      for (const q of [
        'first=1&last=1',
        'first=0',
        'first=101',
        'after=garbage',
        'active=maybe',
        `after=${page1.body.data.pageInfo.endCursor}&before=x`,
      ]) {
        const res = await t.api.get(`/v2/vendors?${q}`, { token: pk });
        expect(res.status).toBe(422);
        expect(res.body.error.code).toBe('VALIDATION_ERROR');
      }
      // A cursor of another shop's list is refused, not applied.
      const foreign = await t.api.get(`/v2/vendors?after=${page1.body.data.pageInfo.endCursor}`, {
        token: mk,
      });
      expect(foreign.status).toBe(422);
      // Another shop's list holds none of these.
      const theirs = await t.api.get('/v2/vendors?first=100', { token: mk });
      expect(theirs.body.data.vendors.map((v: { _id: string }) => v._id)).not.toContain(ids[1]);
    });

    it('lets a shop token in, and refuses a vendor token with 403', async () => {
      expect((await t.api.get('/v2/vendors', { token: s.token })).status).toBe(200);
      const v = await createVendor({ vendorName: 'signer', commissionType: 'flat', commissionAmount: 1 }, s);
      const email = 'signer@example.com';
      const password = 'signer-password';
      expect(
        (await t.api.post('/v1/users', { vendorId: v._id, email, password }, { token: s.token })).status,
      ).toBe(200);
      const auth = await t.api.post('/v2/vendor/authenticate', { shopDomain: s.shopDomain, email, password });
      expect(auth.status).toBe(200);
      const vendorToken = auth.body.data.token;
      for (const res of [
        await t.api.get('/v2/vendors', { token: vendorToken }),
        await t.api.get(`/v2/vendors/${v._id}`, { token: vendorToken }),
        await t.api.post(
          '/v2/vendors',
          { vendorName: 'x', commissionType: 'flat', commissionAmount: 1 },
          { token: vendorToken },
        ),
        await t.api.delete(`/v2/vendors/${v._id}`, { token: vendorToken }),
      ]) {
        expect(res.status).toBe(403);
        expect(res.body).toMatchObject({ success: false, error: { code: 'FORBIDDEN' } });
      }
      expect((await t.api.get(`/v1/vendors/${v._id}`, { token: vendorToken })).status).toBe(403);
    });
  });
});
