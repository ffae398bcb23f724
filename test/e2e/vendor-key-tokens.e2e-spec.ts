import { startApp, TestApp } from '../support/app';
import { measured } from '../support/db-cost';
import { createMerchantKey, createShop, TestShop } from '../support/factory';
import { vendorKeyToken } from '../support/vendor-keys';

/** Vendor key tokens and scopes: POST /authenticate with vk_live_, the per-request checks, permissions (DESIGN §12). */
describe('vendor API keys: tokens, scopes and permissions (e2e)', () => {
  let t: TestApp;
  let shop: TestShop;
  let merchant: string;
  let n = 0;
  const PASSWORD = 'vendor-portal-pass';
  const decode = (token: string) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString());

  async function vendor(): Promise<string> {
    const v = await t.api.post(
      '/v1/vendors',
      { vendorName: `ktok ${Date.now().toString(36)} ${n++}`, commissionType: 'flat', commissionAmount: 1 },
      { token: shop.token },
    );
    expect(v.status).toBe(200);
    return v.body.vendor._id;
  }

  beforeAll(async () => {
    t = await startApp();
    shop = await createShop(t, 'vktok');
    merchant = (await createMerchantKey(t, shop)).token;
  });
  afterAll(() => t.close());
  afterEach(() => t.clock.reset());

  it('POST /authenticate with a vk_live_ key → a 24 h vendor token naming its key, with permissions, mode and vendor', async () => {
    const vendorId = await vendor();
    const made = await t.api.post(
      `/v1/vendors/${vendorId}/api-keys`,
      { scopes: ['payouts:read', 'orders:read'] },
      { token: shop.token },
    );
    for (const path of ['/authenticate', '/v2/authenticate']) {
      const res = await t.api.post(path, { apiKey: made.body.key });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        success: true,
        data: {
          token: expect.any(String),
          expiresIn: 86400,
          scope: 'vendor',
          permissions: ['orders:read', 'payouts:read'],
          shopDomain: shop.shopDomain,
          mode: 'live',
          vendorId,
        },
      });
      const claims = decode(res.body.data.token);
      expect(claims).toMatchObject({
        sid: shop.shopId,
        vid: vendorId,
        kid: made.body.id,
        aud: 'marketplace:vendor',
      });
      expect(claims.uid).toBeUndefined();
      expect(claims.exp - claims.iat).toBe(86400);
    }
    const listed = await t.api.get(`/v1/vendors/${vendorId}/api-keys`, { token: shop.token });
    expect(listed.body.apiKeys[0].lastUsedAt).toEqual(expect.any(String));
    // A wrong secret, a malformed key: 401 like a bad merchant key.
    const wrong = made.body.key.slice(0, -4) + 'AAAA';
    for (const apiKey of [wrong, 'vk_live_nope']) {
      const res = await t.api.post('/authenticate', { apiKey });
      expect(res.status).toBe(401);
      expect(res.body.error).toMatchObject({ code: 'UNAUTHORIZED', message: 'Invalid vendor API key' });
    }
  });

  it('a key without payouts:read gets 403 "Insufficient scope" on the vendor money routes; a key with it 200', async () => {
    const vendorId = await vendor();
    const without = await vendorKeyToken(t, shop, vendorId, ['orders:read']);
    const holder = await vendorKeyToken(t, shop, vendorId, ['payouts:read']);
    for (const path of ['/v2/payouts', '/v2/balance']) {
      const refused = await t.api.get(path, { token: without.token });
      expect(refused.status).toBe(403);
      expect(refused.body.error).toEqual({
        code: 'FORBIDDEN',
        message: 'Insufficient scope',
        details: { requiredScope: 'payouts:read' },
      });
      expect((await t.api.get(path, { token: holder.token })).status).toBe(200);
    }
    // The orders:read key still reaches its orders.
    expect((await t.api.get('/orders', { token: without.token })).status).toBe(200);
  });

  it('the per-request check of a key token is one read, and lastUsedAt is written at most hourly', async () => {
    const vendorId = await vendor();
    const k = await vendorKeyToken(t, shop, vendorId, ['payouts:read']);
    const first = await measured(t, 'GET', '/v2/balance', undefined, { token: k.token });
    expect(first.res.status).toBe(200);
    expect(first.cost.authCommands).toBe(1);
    // An hour on, the first request also records use (one conditional write); the next does not.
    t.clock.advance(61 * 60 * 1000);
    const movedAt = t.clock.now().getTime();
    const later = await measured(t, 'GET', '/v2/balance', undefined, { token: k.token });
    expect(later.cost.authCommands).toBe(2);
    const next = await measured(t, 'GET', '/v2/balance', undefined, { token: k.token });
    expect(next.cost.authCommands).toBe(1);
    const listed = await t.api.get(`/v1/vendors/${vendorId}/api-keys`, { token: shop.token });
    expect(Date.parse(listed.body.apiKeys[0].lastUsedAt)).toBeGreaterThanOrEqual(movedAt - 1000);
  });

  it('a revoked key’s token is refused (401) from the next request on, and the key no longer signs in', async () => {
    const vendorId = await vendor();
    const k = await vendorKeyToken(t, shop, vendorId, ['payouts:read']);
    expect((await t.api.get('/v2/payouts', { token: k.token })).status).toBe(200);
    expect(
      (await t.api.delete(`/v1/vendors/${vendorId}/api-keys/${k.id}`, { token: shop.token })).status,
    ).toBe(200);
    const refused = await t.api.get('/v2/payouts', { token: k.token });
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('UNAUTHORIZED');
    expect((await t.api.post('/refresh-token', undefined, { token: k.token })).status).toBe(401);
    expect((await t.api.post('/authenticate', { apiKey: k.key })).status).toBe(401);
  });

  it('a deactivated vendor’s key tokens are refused; its keys sign in again once it is reactivated', async () => {
    const vendorId = await vendor();
    const k = await vendorKeyToken(t, shop, vendorId, ['payouts:read']);
    const off = await t.api.patch(`/v2/vendors/${vendorId}`, { active: false }, { token: merchant });
    expect(off.status).toBe(200);
    expect((await t.api.get('/v2/payouts', { token: k.token })).status).toBe(401);
    expect((await t.api.post('/authenticate', { apiKey: k.key })).status).toBe(401);
    expect((await t.api.patch(`/v2/vendors/${vendorId}`, { active: true }, { token: merchant })).status).toBe(
      200,
    );
    const again = await t.api.post('/authenticate', { apiKey: k.key });
    expect(again.status).toBe(200);
    expect((await t.api.get('/v2/payouts', { token: again.body.data.token })).status).toBe(200);
  });

  it('POST /refresh-token renews a key token (same key, permissions and vendor)', async () => {
    const vendorId = await vendor();
    const k = await vendorKeyToken(t, shop, vendorId, ['orders:read']);
    const res = await t.api.post('/refresh-token', undefined, { token: k.token });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      expiresIn: 86400,
      scope: 'vendor',
      permissions: ['orders:read'],
      mode: 'live',
      vendorId,
    });
    expect(decode(res.body.data.token)).toMatchObject({ kid: k.id, vid: vendorId });
    expect((await t.api.get('/v2/payouts', { token: res.body.data.token })).status).toBe(403);
  });

  it('portal users: permissions shown (all for users from before), set by PATCH, applied on the next request', async () => {
    const vendorId = await vendor();
    const email = `ktok-${Date.now().toString(36)}-${n++}@example.com`;
    const created = await t.api.post(
      '/v1/users',
      { vendorId, email, password: PASSWORD },
      { token: shop.token },
    );
    const userId = created.body.user._id;
    const all = [
      'orders:read',
      'orders:write',
      'products:read',
      'fulfillments:read',
      'fulfillments:write',
      'payouts:read',
    ];
    // v1 keeps the spec's user shape; V2 shows the permissions (every scope for a user that never had any set).
    expect(created.body.user.permissions).toBeUndefined();
    expect((await t.api.get(`/v2/users/${userId}`, { token: merchant })).body.data.permissions).toEqual(all);
    const signIn = await t.api.post('/v2/vendor/authenticate', {
      shopDomain: shop.shopDomain,
      email,
      password: PASSWORD,
    });
    const token = signIn.body.data.token;
    expect((await t.api.get('/v2/payouts', { token })).status).toBe(200);

    const bad = await t.api.patch(
      `/v2/users/${userId}`,
      { permissions: ['payouts:write'] },
      { token: merchant },
    );
    expect(bad.status).toBe(422);
    const patched = await t.api.patch(
      `/v2/users/${userId}`,
      { permissions: ['orders:read'] },
      { token: merchant },
    );
    expect(patched.status).toBe(200);
    expect(patched.body.data.permissions).toEqual(['orders:read']);
    expect((await t.api.get(`/v2/users/${userId}`, { token: shop.token })).body.data.permissions).toEqual([
      'orders:read',
    ]);
    // The same token, next request: the new permissions hold (no new sign-in needed, none refused).
    const refused = await t.api.get('/v2/payouts', { token });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe('Insufficient scope');
    expect((await t.api.get('/orders', { token })).status).toBe(200);
    await t.api.patch(
      `/v2/users/${userId}`,
      { permissions: ['orders:read', 'payouts:read'] },
      { token: merchant },
    );
    expect((await t.api.get('/v2/payouts', { token })).status).toBe(200);
    const audit = await t.api.get(`/v1/audit-events?action=user.update&resourceId=${userId}`, {
      token: shop.token,
    });
    expect(audit.body.events[0].after).toMatchObject({ permissions: ['orders:read', 'payouts:read'] });
  });

  it('POST /v2/users takes permissions; the merchant key still signs in as before', async () => {
    const vendorId = await vendor();
    const email = `ktok-${Date.now().toString(36)}-${n++}@example.com`;
    const res = await t.api.post(
      '/v2/users',
      { vendorId, email, password: PASSWORD, permissions: ['products:read', 'orders:read'] },
      { token: merchant },
    );
    expect(res.status).toBe(201);
    expect(res.body.data.permissions).toEqual(['orders:read', 'products:read']);
    const bad = await t.api.post(
      '/v2/users',
      { vendorId, email: `x${email}`, password: PASSWORD, permissions: ['everything'] },
      { token: merchant },
    );
    expect(bad.status).toBe(422);
    const key = await createMerchantKey(t, shop);
    expect(decode(key.token).aud).toBe('marketplace:merchant');
  });
});
