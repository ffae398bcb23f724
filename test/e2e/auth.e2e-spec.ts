import { TokenService } from '../../src/auth/token.service';
import { startApp, TestApp } from '../support/app';
import { vendorToken as signInVendor } from '../support/catalog';
import { createMerchantKey, createShop, TestShop } from '../support/factory';
import { createVendor } from '../support/payout-fixtures';
import { DAY, HOUR } from '../support/test-clock';

describe('credentials (e2e)', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;

  beforeAll(async () => {
    t = await startApp();
    shop = await createShop(t, 'auth');
    other = await createShop(t, 'auth-other');
  });
  afterAll(() => t.close());
  afterEach(() => t.clock.reset());

  describe('POST /v1/authenticate', () => {
    it('exchanges the right key and domain for a 24 h shop token', async () => {
      const res = await t.api.post('/v1/authenticate', {
        apiKey: shop.apiKey,
        shopDomain: shop.shopDomain.toUpperCase(),
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ token: expect.any(String), shopDomain: shop.shopDomain });
      const payload = JSON.parse(Buffer.from(res.body.token.split('.')[1], 'base64url').toString());
      expect(payload.exp - payload.iat).toBe(24 * 3600);
    });

    it.each([
      ['a wrong key', () => ({ apiKey: shop.apiKey + 'x', shopDomain: shop.shopDomain })],
      ["another shop's key", () => ({ apiKey: other.apiKey, shopDomain: shop.shopDomain })],
      ['an unknown domain', () => ({ apiKey: shop.apiKey, shopDomain: 'nobody.myshopify.com' })],
    ])('refuses %s with 401 and no hint which part was wrong', async (_name, body) => {
      const res = await t.api.post('/v1/authenticate', body());
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: 'Invalid API key or shop domain' });
    });

    it('answers 422 in the v1 shape for missing fields', async () => {
      const res = await t.api.post('/v1/authenticate', { apiKey: shop.apiKey });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ error: expect.stringContaining('shopDomain') });
    });
  });

  describe('POST /v1/refresh-token', () => {
    it('renews a valid token', async () => {
      const res = await t.api.post('/v1/refresh-token', undefined, { token: shop.token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ token: expect.any(String), shopDomain: shop.shopDomain });
      const merchants = await t.api.get('/v1/merchant-keys', { token: res.body.token });
      expect(merchants.status).toBe(200);
    });

    it('refuses an expired token (24 h later) with 401', async () => {
      t.clock.advance(24 * HOUR + 1000);
      const res = await t.api.post('/v1/refresh-token', undefined, { token: shop.token });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: 'Access token has expired' });
    });

    it.each([
      ['a garbage token', { token: 'garbage' }],
      ['a token signed with another secret', { token: 'eyJhbGciOiJIUzI1NiJ9.eyJzaWQiOiJ4In0.c2lnbmF0dXJl' }],
      ['no header', {}],
      ['a Bearer-prefixed token', { headers: { 'x-access-token': 'Bearer abc' } }],
    ])('refuses %s with 401', async (_name, opts) => {
      const res = await t.api.post('/v1/refresh-token', undefined, opts);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: expect.any(String) });
    });
  });

  describe('merchant keys and tokens', () => {
    it('creates a mk_live_ key whose secret is never listed again', async () => {
      const created = await t.api.post('/v1/merchant-keys', { name: 'ERP' }, { token: shop.token });
      expect(created.status).toBe(200);
      expect(created.body).toEqual({
        id: expect.any(String),
        key: expect.stringMatching(/^mk_live_[0-9a-f]{32}_[A-Za-z0-9]{40}$/),
        createdAt: expect.any(String),
      });
      const secret = created.body.key.split('_').pop();
      const list = await t.api.get('/v1/merchant-keys', { token: shop.token });
      expect(list.status).toBe(200);
      expect(list.text).not.toContain(secret);
      expect(list.body.merchantKeys).toContainEqual(
        expect.objectContaining({ id: created.body.id, name: 'ERP', status: 'active' }),
      );
      expect(list.body).toMatchObject({ total: expect.any(Number), nextOffset: null });
    });

    it('mints a 14-day merchant token in the V2 envelope, also under /v2', async () => {
      const { key } = await createMerchantKey(t, shop);
      for (const path of ['/authenticate', '/v2/authenticate']) {
        const res = await t.api.post(path, { apiKey: key });
        expect(res.status).toBe(200);
        expect(res.body).toEqual({
          success: true,
          data: {
            token: expect.any(String),
            expiresIn: 14 * 24 * 3600,
            scope: 'merchant',
            shopDomain: shop.shopDomain,
          },
        });
      }
    });

    it('refuses a wrong merchant key with 401 in the V2 envelope, and a missing one with 422', async () => {
      const { key } = await createMerchantKey(t, shop);
      const wrong = await t.api.post('/authenticate', {
        apiKey: key.slice(0, -1) + (key.endsWith('a') ? 'b' : 'a'),
      });
      expect(wrong.status).toBe(401);
      expect(wrong.body).toEqual({
        success: false,
        error: { message: 'Invalid merchant API key', code: 'UNAUTHORIZED' },
      });
      const missing = await t.api.post('/authenticate', {});
      expect(missing.status).toBe(422);
      expect(missing.body).toMatchObject({
        success: false,
        error: { code: 'VALIDATION_ERROR', details: { fields: { apiKey: expect.any(Array) } } },
      });
    });

    it('renews a merchant token at /refresh-token and /v2/refresh-token', async () => {
      const { token } = await createMerchantKey(t, shop);
      for (const path of ['/refresh-token', '/v2/refresh-token']) {
        const res = await t.api.post(path, undefined, { token });
        expect(res.status).toBe(200);
        expect(res.body.data).toMatchObject({
          scope: 'merchant',
          expiresIn: 1209600,
          shopDomain: shop.shopDomain,
        });
      }
    });

    it('refuses an expired merchant token (after 14 days)', async () => {
      const { token } = await createMerchantKey(t, shop);
      t.clock.advance(14 * DAY + 1000);
      const res = await t.api.post('/refresh-token', undefined, { token });
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('UNAUTHORIZED');
    });

    it('revocation refuses the very next request made with any token from that key', async () => {
      const mk = await createMerchantKey(t, shop);
      const second = (await t.api.post('/authenticate', { apiKey: mk.key })).body.data.token;
      expect((await t.api.post('/refresh-token', undefined, { token: mk.token })).status).toBe(200);
      const revoked = await t.api.delete(`/v1/merchant-keys/${mk.id}`, { token: shop.token });
      expect(revoked.status).toBe(200);
      expect(revoked.body.merchantKey).toMatchObject({
        id: mk.id,
        status: 'revoked',
        revokedAt: expect.any(String),
      });
      for (const token of [mk.token, second]) {
        const res = await t.api.post('/refresh-token', undefined, { token });
        expect(res.status).toBe(401);
      }
      expect((await t.api.post('/authenticate', { apiKey: mk.key })).status).toBe(401);
      // Revoking again is harmless and keeps the first revocation time.
      const again = await t.api.delete(`/v1/merchant-keys/${mk.id}`, { token: shop.token });
      expect(again.body.merchantKey.revokedAt).toBe(revoked.body.merchantKey.revokedAt);
    });

    it('rotation: the old key and its tokens work inside the 24 h grace window, not after', async () => {
      const mk = await createMerchantKey(t, shop);
      const rotated = await t.api.post(`/v1/merchant-keys/${mk.id}/rotate`, undefined, { token: shop.token });
      expect(rotated.status).toBe(200);
      expect(rotated.body).toMatchObject({
        id: expect.any(String),
        key: expect.stringMatching(/^mk_live_/),
        previousKey: { id: mk.id, status: 'expiring' },
      });
      expect(rotated.body.key).not.toBe(mk.key);
      const again = await t.api.post(`/v1/merchant-keys/${mk.id}/rotate`, undefined, { token: shop.token });
      expect(again.status).toBe(409);

      t.clock.advance(23 * HOUR);
      expect((await t.api.post('/authenticate', { apiKey: mk.key })).status).toBe(200);
      expect((await t.api.post('/refresh-token', undefined, { token: mk.token })).status).toBe(200);

      t.clock.advance(HOUR + 1000);
      expect((await t.api.post('/authenticate', { apiKey: mk.key })).status).toBe(401);
      expect((await t.api.post('/refresh-token', undefined, { token: mk.token })).status).toBe(401);
      const fresh = await t.api.post('/authenticate', { apiKey: rotated.body.key });
      expect(fresh.status).toBe(200);
    });

    it('a shop cannot see, rotate or revoke another shop’s keys (404), and malformed ids are 404', async () => {
      const mk = await createMerchantKey(t, shop);
      const list = await t.api.get('/v1/merchant-keys', { token: other.token });
      expect(list.body.merchantKeys.map((k: { id: string }) => k.id)).not.toContain(mk.id);
      expect((await t.api.delete(`/v1/merchant-keys/${mk.id}`, { token: other.token })).status).toBe(404);
      expect(
        (await t.api.post(`/v1/merchant-keys/${mk.id}/rotate`, undefined, { token: other.token })).status,
      ).toBe(404);
      expect((await t.api.delete('/v1/merchant-keys/not-an-id', { token: shop.token })).status).toBe(404);
      expect((await t.api.post('/refresh-token', undefined, { token: mk.token })).status).toBe(200);
    });

    it('pages the key list with limit/offset and validates them', async () => {
      const s = await createShop(t, 'paging');
      for (let i = 0; i < 3; i++)
        await t.api.post('/v1/merchant-keys', { name: `k${i}` }, { token: s.token });
      const first = await t.api.get('/v1/merchant-keys?limit=2', { token: s.token });
      expect(first.body).toMatchObject({ total: 3, nextOffset: 2 });
      expect(first.body.merchantKeys.map((k: { name: string }) => k.name)).toEqual(['k2', 'k1']);
      const last = await t.api.get('/v1/merchant-keys?limit=2&offset=2', { token: s.token });
      expect(last.body).toMatchObject({ total: 3, nextOffset: null });
      expect(last.body.merchantKeys.map((k: { name: string }) => k.name)).toEqual(['k0']);
      for (const q of ['limit=0', 'limit=251', 'offset=-1', 'limit=abc']) {
        const res = await t.api.get(`/v1/merchant-keys?${q}`, { token: s.token });
        expect(res.status).toBe(422);
      }
    });
  });

  describe('credential kinds', () => {
    it('a merchant token is refused on v1 with 403', async () => {
      const { token } = await createMerchantKey(t, shop);
      for (const [method, path] of [
        ['GET', '/v1/merchant-keys'],
        ['POST', '/v1/refresh-token'],
        ['POST', '/v1/merchant-keys'],
      ]) {
        const res = await t.api.request(method, path, method === 'POST' ? {} : undefined, { token });
        expect(res.status).toBe(403);
        expect(res.body).toEqual({ error: expect.stringContaining('merchant token') });
      }
    });

    it('a shop token cannot renew itself at the V2 renewal endpoint (403)', async () => {
      const res = await t.api.post('/refresh-token', undefined, { token: shop.token });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ success: false, error: { code: 'FORBIDDEN' } });
    });

    it('a vendor token is renewable, refused on v1 with 403, and refused once forged or expired', async () => {
      const vendor = await createVendor(t, shop, `auth-vendor-${Date.now()}`);
      const vendorToken = await signInVendor(t, shop, vendor._id);
      expect((await t.api.get('/v1/merchant-keys', { token: vendorToken })).status).toBe(403);
      const renewed = await t.api.post('/refresh-token', undefined, { token: vendorToken });
      expect(renewed.status).toBe(200);
      expect(renewed.body.data).toMatchObject({ scope: 'vendor', expiresIn: 24 * 3600 });
      // Correctly signed, but for a user that does not exist: the strategy re-checks the user.
      const forged = t.app.get(TokenService).issue({
        kind: 'vendor',
        shopId: shop.shopId,
        shopDomain: shop.shopDomain,
        vendorId: vendor._id,
        userId: '6740b9f1c2a4e15b3c9d0a98',
      }).token;
      expect((await t.api.post('/refresh-token', undefined, { token: forged })).status).toBe(401);
      t.clock.advance(DAY + 1000);
      expect((await t.api.post('/refresh-token', undefined, { token: vendorToken })).status).toBe(401);
    });
  });
});
