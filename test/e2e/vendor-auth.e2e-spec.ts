import { startApp, TestApp } from '../support/app';
import { createMerchantKey, createShop, TestShop } from '../support/factory';
import { HOUR } from '../support/test-clock';

const MINUTE = 60 * 1000;

describe('vendor sign-in and vendor tokens (e2e)', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;
  let merchant: string;
  let n = 0;
  const PASSWORD = 'vendor-portal-pass';

  const signIn = (body: Record<string, unknown>) => t.api.post('/v2/vendor/authenticate', body);
  const decode = (token: string) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString());

  /** A fresh vendor with one user; its own email so rate-limit counters never collide between tests. */
  async function account(s: TestShop = shop) {
    const v = await t.api.post(
      '/v1/vendors',
      { vendorName: `signin ${Date.now().toString(36)} ${n++}`, commissionType: 'flat', commissionAmount: 1 },
      { token: s.token },
    );
    const email = `portal-${Date.now().toString(36)}-${n++}@example.com`;
    const u = await t.api.post(
      '/v1/users',
      { vendorId: v.body.vendor._id, email, password: PASSWORD },
      { token: s.token },
    );
    expect(u.status).toBe(200);
    return { vendorId: v.body.vendor._id as string, userId: u.body.user._id as string, email, shop: s };
  }

  beforeAll(async () => {
    t = await startApp();
    shop = await createShop(t, 'vauth');
    other = await createShop(t, 'vauth-other');
    merchant = (await createMerchantKey(t, shop)).token;
  });
  afterAll(() => t.close());
  afterEach(() => t.clock.reset());

  it('signs an approved user of an active vendor in: a 24 h vendor token, lastLoggedIn recorded', async () => {
    const a = await account();
    const res = await signIn({
      shopDomain: shop.shopDomain.toUpperCase(),
      email: a.email.toUpperCase(),
      password: PASSWORD,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      data: {
        token: expect.any(String),
        expiresIn: 24 * 3600,
        scope: 'vendor',
        shopDomain: shop.shopDomain,
        vendorId: a.vendorId,
        userId: a.userId,
      },
    });
    const claims = decode(res.body.data.token);
    expect(claims.exp - claims.iat).toBe(24 * 3600);
    expect(claims).toMatchObject({
      sid: shop.shopId,
      vid: a.vendorId,
      uid: a.userId,
      aud: 'marketplace:vendor',
    });
    const user = await t.api.get(`/v1/users/${a.userId}`, { token: shop.token });
    expect(user.body.lastLoggedIn).toEqual(expect.any(String));
    const list = await t.api.get('/v1/users', { token: shop.token });
    expect(list.body.users.find((u: { userId: string }) => u.userId === a.userId).lastLoggedIn).toBe(
      user.body.lastLoggedIn,
    );
  });

  it('the token reaches the vendor surface and is refused (403) on administration', async () => {
    const a = await account();
    const token = (await signIn({ shopDomain: shop.shopDomain, email: a.email, password: PASSWORD })).body
      .data.token;
    expect((await t.api.get('/orders', { token })).status).toBe(200);
    expect((await t.api.get('/v2/vendors', { token })).status).toBe(403);
    expect((await t.api.get('/v2/users', { token })).status).toBe(403);
    expect((await t.api.get('/v1/users', { token })).status).toBe(403);
    expect((await t.api.get('/v1/commissions/sku', { token })).status).toBe(403);
  });

  describe('refusals: one 401 for every reason', () => {
    const REFUSED = {
      success: false,
      error: { message: 'Invalid shop domain, email or password', code: 'UNAUTHORIZED' },
    };

    it.each([
      [
        'a wrong password',
        (a: { email: string }) => ({ shopDomain: shop.shopDomain, email: a.email, password: PASSWORD + 'x' }),
      ],
      [
        'an unknown email',
        () => ({ shopDomain: shop.shopDomain, email: 'nobody@example.com', password: PASSWORD }),
      ],
      [
        'an unknown shop',
        (a: { email: string }) => ({
          shopDomain: 'nowhere.myshopify.com',
          email: a.email,
          password: PASSWORD,
        }),
      ],
      [
        'another shop’s domain',
        (a: { email: string }) => ({ shopDomain: other.shopDomain, email: a.email, password: PASSWORD }),
      ],
    ])('%s', async (_name, body) => {
      const a = await account();
      const res = await signIn(body(a));
      expect(res.status).toBe(401);
      expect(res.body).toEqual(REFUSED);
    });

    it('an unapproved user, then approved again', async () => {
      const a = await account();
      await t.api.patch(`/v2/users/${a.userId}`, { approved: false }, { token: merchant });
      const res = await signIn({ shopDomain: shop.shopDomain, email: a.email, password: PASSWORD });
      expect(res.status).toBe(401);
      expect(res.body).toEqual(REFUSED);
      await t.api.patch(`/v2/users/${a.userId}`, { approved: true }, { token: merchant });
      expect((await signIn({ shopDomain: shop.shopDomain, email: a.email, password: PASSWORD })).status).toBe(
        200,
      );
    });

    it('a user of an inactive vendor, then reactivated', async () => {
      const a = await account();
      expect((await t.api.delete(`/v2/vendors/${a.vendorId}`, { token: merchant })).status).toBe(200);
      const res = await signIn({ shopDomain: shop.shopDomain, email: a.email, password: PASSWORD });
      expect(res.status).toBe(401);
      expect(res.body).toEqual(REFUSED);
      await t.api.patch(`/v2/vendors/${a.vendorId}`, { active: true }, { token: merchant });
      expect((await signIn({ shopDomain: shop.shopDomain, email: a.email, password: PASSWORD })).status).toBe(
        200,
      );
    });

    it('a malformed body is a 422, not a 401', async () => {
      const res = await signIn({ shopDomain: shop.shopDomain, email: 'x@example.com' });
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    });
  });

  describe('a token already issued', () => {
    async function signedIn() {
      const a = await account();
      const res = await signIn({ shopDomain: shop.shopDomain, email: a.email, password: PASSWORD });
      return { ...a, token: res.body.data.token as string };
    }

    it('is renewed at POST /refresh-token (and /v2/refresh-token) while valid', async () => {
      const a = await signedIn();
      t.clock.advance(23 * HOUR);
      for (const path of ['/refresh-token', '/v2/refresh-token']) {
        const res = await t.api.post(path, undefined, { token: a.token });
        expect(res.status).toBe(200);
        expect(res.body.data).toMatchObject({
          scope: 'vendor',
          expiresIn: 24 * 3600,
          shopDomain: shop.shopDomain,
        });
        expect(decode(res.body.data.token)).toMatchObject({ vid: a.vendorId, uid: a.userId });
      }
      const renewed = (await t.api.post('/refresh-token', undefined, { token: a.token })).body.data.token;
      t.clock.advance(2 * HOUR);
      expect((await t.api.post('/refresh-token', undefined, { token: a.token })).status).toBe(401);
      expect((await t.api.get('/orders', { token: renewed })).status).toBe(200);
    });

    it.each([
      [
        'its user is unapproved',
        (a: { userId: string }) =>
          t.api.patch(`/v2/users/${a.userId}`, { approved: false }, { token: merchant }),
      ],
      [
        'its user is deleted',
        (a: { userId: string }) => t.api.delete(`/v2/users/${a.userId}`, { token: merchant }),
      ],
      [
        'its vendor is deactivated',
        (a: { vendorId: string }) => t.api.delete(`/v2/vendors/${a.vendorId}`, { token: merchant }),
      ],
      [
        'its vendor is deactivated by PATCH',
        (a: { vendorId: string }) =>
          t.api.patch(`/v2/vendors/${a.vendorId}`, { active: false }, { token: merchant }),
      ],
    ])('is refused with 401 from the next request on once %s, renewal included', async (_name, revoke) => {
      const a = await signedIn();
      expect((await t.api.get('/orders', { token: a.token })).status).toBe(200);
      expect((await revoke(a)).status).toBe(200);
      for (const res of [
        await t.api.get('/orders', { token: a.token }),
        await t.api.post('/refresh-token', undefined, { token: a.token }),
      ]) {
        expect(res.status).toBe(401);
        expect(res.body).toMatchObject({ success: false, error: { code: 'UNAUTHORIZED' } });
      }
    });

    it('stays refused once its vendor is reactivated: the user signs in again (issue 18)', async () => {
      const a = await signedIn();
      await t.api.delete(`/v2/vendors/${a.vendorId}`, { token: merchant });
      expect((await t.api.get('/orders', { token: a.token })).status).toBe(401);
      await t.api.patch(`/v2/vendors/${a.vendorId}`, { active: true }, { token: merchant });
      expect((await t.api.get('/orders', { token: a.token })).status).toBe(401);
      const again = await signIn({ shopDomain: shop.shopDomain, email: a.email, password: PASSWORD });
      expect(again.status).toBe(200);
      expect((await t.api.get('/orders', { token: again.body.data.token })).status).toBe(200);
    });
  });

  describe('failed attempts limit', () => {
    it('answers 429 with Retry-After after 5 failures in 15 minutes, even with the right password', async () => {
      const a = await account();
      const wrong = { shopDomain: shop.shopDomain, email: a.email, password: 'wrong-password' };
      for (let i = 0; i < 5; i++) {
        t.clock.advance(MINUTE);
        expect((await signIn(wrong)).status).toBe(401);
      }
      for (const body of [
        wrong,
        { ...wrong, password: PASSWORD },
        { ...wrong, email: a.email.toUpperCase() },
      ]) {
        const res = await signIn(body);
        expect(res.status).toBe(429);
        expect(res.body).toMatchObject({ success: false, error: { code: 'RATE_LIMITED' } });
        const retryAfter = Number(res.headers.get('retry-after'));
        // The oldest failure is 4 minutes old: it leaves the 15-minute window in 11 minutes.
        expect(retryAfter).toBeGreaterThan(10 * 60);
        expect(retryAfter).toBeLessThanOrEqual(11 * 60);
      }
      // Another email at the same shop and address is not limited.
      const b = await account();
      expect((await signIn({ shopDomain: shop.shopDomain, email: b.email, password: PASSWORD })).status).toBe(
        200,
      );
      // Once the oldest failure leaves the window, one more attempt is allowed.
      t.clock.advance(10 * MINUTE);
      expect((await signIn({ ...wrong, password: PASSWORD })).status).toBe(429);
      t.clock.advance(MINUTE + 1000);
      expect((await signIn({ ...wrong, password: PASSWORD })).status).toBe(200);
    });

    it('a success clears the count; unknown accounts are limited just the same', async () => {
      const a = await account();
      const wrong = { shopDomain: shop.shopDomain, email: a.email, password: 'wrong-password' };
      for (let i = 0; i < 4; i++) expect((await signIn(wrong)).status).toBe(401);
      expect((await signIn({ ...wrong, password: PASSWORD })).status).toBe(200);
      for (let i = 0; i < 5; i++) expect((await signIn(wrong)).status).toBe(401);
      expect((await signIn(wrong)).status).toBe(429);

      const ghost = {
        shopDomain: shop.shopDomain,
        email: `ghost-${n++}@example.com`,
        password: 'whatever-1',
      };
      for (let i = 0; i < 5; i++) expect((await signIn(ghost)).status).toBe(401);
      expect((await signIn(ghost)).status).toBe(429);
      t.clock.advance(15 * MINUTE + 1000);
      expect((await signIn(ghost)).status).toBe(401);
    });
  });

  it('a vendor can be created, given a user, sign in and renew its token (the walkthrough)', async () => {
    const s = await createShop(t, 'vauth-walk');
    const mk = (await createMerchantKey(t, s)).token;
    const vendor = await t.api.post(
      '/v2/vendors',
      { vendorName: 'Walkthrough Co', commissionType: 'percentage', commissionAmount: 10 },
      { token: mk },
    );
    expect(vendor.status).toBe(201);
    const user = await t.api.post(
      '/v2/users',
      { vendorId: vendor.body.data._id, email: 'owner@walkthrough.example', password: PASSWORD },
      { token: mk },
    );
    expect(user.status).toBe(201);
    const token = await signIn({
      shopDomain: s.shopDomain,
      email: 'owner@walkthrough.example',
      password: PASSWORD,
    });
    expect(token.status).toBe(200);
    const renewed = await t.api.post('/refresh-token', undefined, { token: token.body.data.token });
    expect(renewed.status).toBe(200);
    expect((await t.api.get('/orders', { token: renewed.body.data.token })).body).toMatchObject({
      success: true,
      data: { items: [], totalCount: 0 },
    });
  });
});
