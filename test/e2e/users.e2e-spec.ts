import { startApp, TestApp } from '../support/app';
import { ApiResponse } from '../support/http';
import { createMerchantKey, createShop, TestShop } from '../support/factory';

/** No user-returning response may ever carry a password or its hash. */
function expectNoSecrets(res: ApiResponse, ...passwords: string[]): void {
  for (const p of passwords) expect(res.text).not.toContain(p);
  expect(res.text).not.toMatch(/passwordHash|"password"|\$argon2/);
}

describe('users (e2e)', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;
  let merchant: string;
  let vendorId: string;
  let vendorName: string;
  let otherVendorId: string;
  let otherUserId: string;
  let n = 0;
  const email = (p = 'user') => `${p}-${Date.now().toString(36)}-${n++}@example.com`;
  const PASSWORD = 'first-password-1';

  const createUser = async (body: Record<string, unknown>, s: TestShop = shop) => {
    const res = await t.api.post('/v1/users', body, { token: s.token });
    expect(res.status).toBe(200);
    expectNoSecrets(res, String(body.password));
    return res.body.user;
  };

  beforeAll(async () => {
    t = await startApp();
    shop = await createShop(t, 'users');
    other = await createShop(t, 'users-other');
    merchant = (await createMerchantKey(t, shop)).token;
    const v = await t.api.post(
      '/v1/vendors',
      { vendorName: 'Users Vendor', commissionType: 'flat', commissionAmount: 1 },
      { token: shop.token },
    );
    vendorId = v.body.vendor._id;
    vendorName = v.body.vendor.vendorName;
    const ov = await t.api.post(
      '/v1/vendors',
      { vendorName: 'Elsewhere', commissionType: 'flat', commissionAmount: 1 },
      { token: other.token },
    );
    otherVendorId = ov.body.vendor._id;
    otherUserId = (
      await createUser({ vendorId: otherVendorId, email: email('theirs'), password: PASSWORD }, other)
    )._id;
  });
  afterAll(() => t.close());

  describe('POST /v1/users', () => {
    it('creates an approved vendor user with a lowercased email and no password in the answer', async () => {
      const address = email('Jane').toUpperCase();
      const res = await t.api.post(
        '/v1/users',
        { vendorId, email: `  ${address} `, password: PASSWORD },
        { token: shop.token },
      );
      expect(res.status).toBe(200);
      expectNoSecrets(res, PASSWORD);
      expect(res.body).toEqual({
        message: 'User created',
        user: {
          _id: expect.stringMatching(/^[0-9a-f]{24}$/),
          email: address.toLowerCase(),
          type: 'vendor',
          vendorId,
          approved: true,
          shopId: shop.shopId,
          invitationDate: null,
          createdAt: expect.any(String),
          updatedAt: expect.any(String),
          lastLoggedIn: null,
        },
      });
    });

    it('refuses an email already used in the shop, in any letter case, with 409', async () => {
      const address = email('dup');
      await createUser({ vendorId, email: address, password: PASSWORD });
      const res = await t.api.post(
        '/v1/users',
        { vendorId, email: address.toUpperCase(), password: PASSWORD },
        { token: shop.token },
      );
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ error: expect.stringContaining(address), email: address });
      // ...but the same email may exist in another shop.
      await createUser({ vendorId: otherVendorId, email: address, password: PASSWORD }, other);
    });

    it.each([
      ['another shop’s vendor', () => otherVendorId],
      ['an unknown vendor', () => '6740c1a2e4b0f15b3c9d0aff'],
      ['a malformed vendor id', () => 'vendor-1'],
    ])('refuses %s as vendorId with 422', async (_name, id) => {
      const res = await t.api.post(
        '/v1/users',
        { vendorId: id(), email: email(), password: PASSWORD },
        { token: shop.token },
      );
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ error: expect.stringContaining('is not a vendor of this shop') });
    });

    it.each([
      ['an invalid email', { email: 'not-an-email' }, 'email'],
      ['a missing email', { email: undefined }, 'email'],
      ['a short password', { password: 'short' }, 'password'],
      ['a non-string password', { password: 12345678 }, 'password'],
      ['a missing vendorId', { vendorId: undefined }, 'vendorId'],
      ['a non-boolean sendEmail', { sendEmail: 'yes' }, 'sendEmail'],
      ['an unknown field', { approved: false }, 'approved'],
    ])('refuses %s with 422', async (_name, patch, field) => {
      const body = { vendorId, email: email(), password: PASSWORD, ...patch };
      const res = await t.api.post('/v1/users', body, { token: shop.token });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ error: expect.stringContaining(field) });
    });

    it('refuses a merchant token with 403 (it has /v2/users)', async () => {
      const res = await t.api.post(
        '/v1/users',
        { vendorId, email: email(), password: PASSWORD },
        { token: merchant },
      );
      expect(res.status).toBe(403);
      for (const r of [
        await t.api.get('/v1/users', { token: merchant }),
        await t.api.get(`/v1/users/${otherUserId}`, { token: merchant }),
      ])
        expect(r.status).toBe(403);
    });
  });

  describe('GET /v1/users and /v1/users/{id}', () => {
    it('lists the shop’s users with vendorName and lastLoggedIn, without passwords', async () => {
      const s = await createShop(t, 'users-list');
      const v = await t.api.post(
        '/v1/vendors',
        { vendorName: 'Lister', commissionType: 'flat', commissionAmount: 1 },
        { token: s.token },
      );
      const a = await createUser(
        { vendorId: v.body.vendor._id, email: email('a'), password: 'password-a-1' },
        s,
      );
      const b = await createUser(
        { vendorId: v.body.vendor._id, email: email('b'), password: 'password-b-1' },
        s,
      );
      const res = await t.api.get('/v1/users', { token: s.token });
      expect(res.status).toBe(200);
      expectNoSecrets(res, 'password-a-1', 'password-b-1');
      expect(res.body).toEqual({
        total: 2,
        nextOffset: null,
        users: [
          {
            userId: b._id,
            vendorId: v.body.vendor._id,
            vendorName: 'lister',
            createdAt: b.createdAt,
            lastLoggedIn: null,
            email: b.email,
          },
          {
            userId: a._id,
            vendorId: v.body.vendor._id,
            vendorName: 'lister',
            createdAt: a.createdAt,
            lastLoggedIn: null,
            email: a.email,
          },
        ],
      });
    });

    it('reads one user as the full document without the password', async () => {
      const u = await createUser({ vendorId, email: email('one'), password: PASSWORD });
      const res = await t.api.get(`/v1/users/${u._id}`, { token: shop.token });
      expect(res.status).toBe(200);
      expectNoSecrets(res, PASSWORD);
      expect(res.body).toEqual(u);
    });

    it.each([
      ['another shop’s user', () => otherUserId],
      ['an unknown id', () => '6740c7d3e4b0f15b3c9d0aff'],
      ['a malformed id', () => 'u-1'],
    ])('answers 404 for %s', async (_name, id) => {
      const res = await t.api.get(`/v1/users/${id()}`, { token: shop.token });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'User not found' });
    });

    it('never lists another shop’s users', async () => {
      const res = await t.api.get('/v1/users', { token: shop.token });
      expect(res.body.users.map((u: { userId: string }) => u.userId)).not.toContain(otherUserId);
    });
  });

  describe('PUT /v1/users/{id}', () => {
    it('replaces email and password: the new ones sign in, the old ones do not', async () => {
      const u = await createUser({ vendorId, email: email('put'), password: PASSWORD });
      const newEmail = email('Moved').toUpperCase();
      const res = await t.api.put(
        `/v1/users/${u._id}`,
        { email: newEmail, password: 'second-password-2' },
        { token: shop.token },
      );
      expect(res.status).toBe(200);
      expectNoSecrets(res, PASSWORD, 'second-password-2');
      expect(res.body).toEqual({
        message: 'User updated',
        user: { ...u, email: newEmail.toLowerCase(), updatedAt: expect.any(String) },
      });
      const signIn = (e: string, p: string) =>
        t.api.post('/v2/vendor/authenticate', { shopDomain: shop.shopDomain, email: e, password: p });
      expect((await signIn(u.email, PASSWORD)).status).toBe(401);
      expect((await signIn(newEmail, PASSWORD)).status).toBe(401);
      expect((await signIn(newEmail, 'second-password-2')).status).toBe(200);
    });

    it.each([
      ['no password', { email: 'x@example.com' }],
      ['no email', { password: 'whatever-123' }],
      ['a short password', { email: 'x@example.com', password: 'short' }],
      ['an invalid email', { email: 'nope', password: 'whatever-123' }],
    ])('requires both email and password (%s → 422)', async (_name, body) => {
      const u = await createUser({ vendorId, email: email('req'), password: PASSWORD });
      expect((await t.api.put(`/v1/users/${u._id}`, body, { token: shop.token })).status).toBe(422);
    });

    it('refuses an email another user has with 409', async () => {
      const a = await createUser({ vendorId, email: email('ta'), password: PASSWORD });
      const b = await createUser({ vendorId, email: email('tb'), password: PASSWORD });
      const res = await t.api.put(
        `/v1/users/${b._id}`,
        { email: a.email, password: PASSWORD },
        { token: shop.token },
      );
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ error: expect.any(String), email: a.email });
    });

    it('cannot change another shop’s user (404)', async () => {
      const res = await t.api.put(
        `/v1/users/${otherUserId}`,
        { email: email(), password: 'hijacked-pass' },
        { token: shop.token },
      );
      expect(res.status).toBe(404);
    });
  });

  describe('V2 /v2/users', () => {
    it('creates (201), reads, patches and deletes in the V2 envelope, never exposing a password', async () => {
      const created = await t.api.post(
        '/v2/users',
        { vendorId, email: email('v2'), password: PASSWORD },
        { token: merchant },
      );
      expect(created.status).toBe(201);
      expectNoSecrets(created, PASSWORD);
      expect(created.body).toEqual({
        success: true,
        data: expect.objectContaining({ vendorId, vendorName, approved: true, type: 'vendor' }),
      });
      const id = created.body.data._id;
      const read = await t.api.get(`/v2/users/${id}`, { token: merchant });
      expectNoSecrets(read, PASSWORD);
      expect(read.body).toEqual(created.body);

      const patched = await t.api.patch(
        `/v2/users/${id}`,
        { approved: false, password: 'patched-password' },
        { token: merchant },
      );
      expect(patched.status).toBe(200);
      expectNoSecrets(patched, 'patched-password');
      expect(patched.body.data).toMatchObject({ approved: false, email: created.body.data.email });

      const renamed = await t.api.patch(
        `/v2/users/${id}`,
        { email: 'Renamed-' + created.body.data.email },
        { token: merchant },
      );
      expect(renamed.body.data.email).toBe('renamed-' + created.body.data.email);

      const deleted = await t.api.delete(`/v2/users/${id}`, { token: merchant });
      expect(deleted.status).toBe(200);
      expect(deleted.body).toEqual({ success: true, data: { _id: id, deleted: true } });
      expect((await t.api.get(`/v2/users/${id}`, { token: merchant })).status).toBe(404);
      expect((await t.api.delete(`/v2/users/${id}`, { token: merchant })).status).toBe(404);
    });

    it('answers V2 errors for the same rules: 422 vendorId of another shop, 409 email, 422 bad patch', async () => {
      const cross = await t.api.post(
        '/v2/users',
        { vendorId: otherVendorId, email: email(), password: PASSWORD },
        { token: merchant },
      );
      expect(cross.status).toBe(422);
      expect(cross.body).toMatchObject({
        success: false,
        error: { code: 'VALIDATION_ERROR', details: { fields: { vendorId: [expect.any(String)] } } },
      });
      const u = await createUser({ vendorId, email: email('v2dup'), password: PASSWORD });
      const dup = await t.api.post(
        '/v2/users',
        { vendorId, email: u.email, password: PASSWORD },
        { token: merchant },
      );
      expect(dup.status).toBe(409);
      expect(dup.body).toEqual({
        success: false,
        error: { message: expect.any(String), code: 'CONFLICT', details: { email: u.email } },
      });
      for (const body of [{ approved: 'no' }, { password: 'short' }, { email: null }, { vendorId }]) {
        const res = await t.api.patch(`/v2/users/${u._id}`, body, { token: merchant });
        expect(res.status).toBe(422);
        expect(res.body.error.code).toBe('VALIDATION_ERROR');
      }
    });

    it('answers 404 for another shop’s user on read, change and delete', async () => {
      for (const res of [
        await t.api.get(`/v2/users/${otherUserId}`, { token: merchant }),
        await t.api.patch(`/v2/users/${otherUserId}`, { approved: false }, { token: merchant }),
        await t.api.delete(`/v2/users/${otherUserId}`, { token: merchant }),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ success: false, error: { message: 'User not found', code: 'NOT_FOUND' } });
      }
      const theirs = await t.api.get(`/v1/users/${otherUserId}`, { token: other.token });
      expect(theirs.body.approved).toBe(true);
    });

    it('pages newest first with cursors and filters by vendor', async () => {
      const s = await createShop(t, 'users-page');
      const mk = (await createMerchantKey(t, s)).token;
      const mkVendor = async (name: string) =>
        (
          await t.api.post(
            '/v1/vendors',
            { vendorName: name, commissionType: 'flat', commissionAmount: 1 },
            { token: s.token },
          )
        ).body.vendor._id;
      const va = await mkVendor('pa');
      const vb = await mkVendor('pb');
      const ids: string[] = [];
      for (const v of [va, vb, va])
        ids.push((await createUser({ vendorId: v, email: email('pg'), password: PASSWORD }, s))._id);
      const first = await t.api.get('/v2/users?first=2', { token: mk });
      expectNoSecrets(first, PASSWORD);
      expect(first.body.data.users.map((u: { _id: string }) => u._id)).toEqual([ids[2], ids[1]]);
      expect(first.body.data).toMatchObject({
        totalCount: 3,
        pageInfo: { hasNextPage: true, hasPreviousPage: false },
      });
      expect(first.body.data.users[1].vendorName).toBe('pb');
      const next = await t.api.get(`/v2/users?first=2&after=${first.body.data.pageInfo.endCursor}`, {
        token: mk,
      });
      expect(next.body.data.users.map((u: { _id: string }) => u._id)).toEqual([ids[0]]);
      const byVendor = await t.api.get(`/v2/users?vendorId=${va}`, { token: mk });
      expect(byVendor.body.data.users.map((u: { _id: string }) => u._id)).toEqual([ids[2], ids[0]]);
      expect(byVendor.body.data.totalCount).toBe(2);
      for (const q of ['vendorId=nope', 'first=1&last=1', 'before=garbage']) {
        expect((await t.api.get(`/v2/users?${q}`, { token: mk })).status).toBe(422);
      }
      expect(
        (await t.api.get(`/v2/users?after=${first.body.data.pageInfo.endCursor}`, { token: merchant }))
          .status,
      ).toBe(422);
    });

    it('lets a shop token in and refuses a vendor token with 403', async () => {
      expect((await t.api.get('/v2/users', { token: shop.token })).status).toBe(200);
      const u = await createUser({ vendorId, email: email('vt'), password: PASSWORD });
      const auth = await t.api.post('/v2/vendor/authenticate', {
        shopDomain: shop.shopDomain,
        email: u.email,
        password: PASSWORD,
      });
      expect(auth.status).toBe(200);
      const token = auth.body.data.token;
      for (const res of [
        await t.api.get('/v2/users', { token }),
        await t.api.get(`/v2/users/${u._id}`, { token }),
        await t.api.patch(`/v2/users/${u._id}`, { approved: true }, { token }),
        await t.api.get('/v1/users', { token }),
      ]) {
        expect(res.status).toBe(403);
      }
    });
  });
});
