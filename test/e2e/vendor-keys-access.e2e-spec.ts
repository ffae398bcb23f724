import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import { Types } from 'mongoose';
import { startApp, TestApp } from '../support/app';
import { createMerchantKey, createShop, TestShop } from '../support/factory';
import { createKeysVendor, portalUserToken } from '../support/vendor-keys';
import type { VendorScope } from '../../src/common/auth/scopes';

/** Vendor API keys: the 25-key cap, tenancy (404s across shops and vendors) and credential kinds (DESIGN §12). */
describe('vendor API keys: cap, tenancy and credential kinds (e2e)', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;
  let merchant: string;
  let otherMerchant: string;
  let db: NonNullable<Connection['db']>;

  const vendor = (s: TestShop = shop) => createKeysVendor(t, s);
  const portalUser = (vendorId: string, permissions?: VendorScope[]) =>
    portalUserToken(t, shop, vendorId, permissions);

  beforeAll(async () => {
    t = await startApp();
    shop = await createShop(t, 'vkeys-acc');
    other = await createShop(t, 'vkeys-acc-other');
    merchant = (await createMerchantKey(t, shop)).token;
    otherMerchant = (await createMerchantKey(t, other)).token;
    db = t.app.get<Connection>(getConnectionToken()).db!;
  });
  afterAll(() => t.close());

  it('at most 25 live keys per vendor, also under concurrent creation; revoking frees a place', async () => {
    const vendorId = await vendor();
    const results = await Promise.all(
      Array.from({ length: 28 }, () =>
        t.api.post(`/v1/vendors/${vendorId}/api-keys`, { scopes: ['orders:read'] }, { token: shop.token }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(25);
    const refused = results.filter((r) => r.status !== 201);
    expect(refused.map((r) => r.status)).toEqual([409, 409, 409]);
    expect(refused[0].body.error).toMatch(/already has 25 live API keys/);
    // Read as the vendor's index serves it (shop, vendor, newest first); live ones counted here.
    const stored = await db
      .collection('vendor_api_keys')
      .find({ shopId: new Types.ObjectId(shop.shopId), vendorId: new Types.ObjectId(vendorId) })
      .sort({ createdAt: -1, _id: -1 })
      .toArray();
    expect(stored.filter((k) => k.revokedAt === null)).toHaveLength(25);
    expect(stored).toHaveLength(25);
    // The places held are exactly the keys created: none taken by a refused request.
    const [quota] = await db
      .collection('vendor_api_key_quotas')
      .find({ shopId: new Types.ObjectId(shop.shopId), vendorId: new Types.ObjectId(vendorId) })
      .toArray();
    expect(quota.keyIds.map(String).sort()).toEqual(stored.map((k) => String(k._id)).sort());
    const victim = results.find((r) => r.status === 201)!.body.id;
    expect(
      (await t.api.delete(`/v1/vendors/${vendorId}/api-keys/${victim}`, { token: shop.token })).status,
    ).toBe(200);
    // Revoking the revoked key again gives no second place back.
    expect(
      (await t.api.delete(`/v1/vendors/${vendorId}/api-keys/${victim}`, { token: shop.token })).status,
    ).toBe(200);
    const one = await t.api.post(
      `/v1/vendors/${vendorId}/api-keys`,
      { scopes: ['orders:read'] },
      { token: shop.token },
    );
    expect(one.status).toBe(201);
    const two = await t.api.post(
      `/v1/vendors/${vendorId}/api-keys`,
      { scopes: ['orders:read'] },
      { token: shop.token },
    );
    expect(two.status).toBe(409);
  });

  it('another shop’s vendor, another vendor’s key, unknown and malformed ids → 404 on every keys route', async () => {
    const vendorA = await vendor();
    const vendorB = await vendor();
    const keyA = (
      await t.api.post(`/v1/vendors/${vendorA}/api-keys`, { scopes: ['orders:read'] }, { token: shop.token })
    ).body.id;
    const body = { scopes: ['orders:read'] };
    const unknown = new Types.ObjectId().toHexString();
    const cases: Array<[string, string, string]> = [
      // another shop (its shop token / merchant token) on this shop's vendor
      ['POST', `/v1/vendors/${vendorA}/api-keys`, other.token],
      ['GET', `/v1/vendors/${vendorA}/api-keys`, other.token],
      ['DELETE', `/v1/vendors/${vendorA}/api-keys/${keyA}`, other.token],
      ['POST', `/v2/vendors/${vendorA}/api-keys`, otherMerchant],
      ['GET', `/v2/vendors/${vendorA}/api-keys`, otherMerchant],
      ['DELETE', `/v2/vendors/${vendorA}/api-keys/${keyA}`, otherMerchant],
      // another vendor's key through this vendor
      ['DELETE', `/v1/vendors/${vendorB}/api-keys/${keyA}`, shop.token],
      ['DELETE', `/v2/vendors/${vendorB}/api-keys/${keyA}`, merchant],
      // unknown and malformed ids
      ['POST', `/v1/vendors/${unknown}/api-keys`, shop.token],
      ['GET', `/v2/vendors/not-an-id/api-keys`, merchant],
      ['DELETE', `/v1/vendors/${vendorA}/api-keys/${unknown}`, shop.token],
      ['DELETE', `/v1/vendors/${vendorA}/api-keys/zzz`, shop.token],
    ];
    for (const [method, path, token] of cases) {
      const res = await t.api.request(method, path, method === 'POST' ? body : undefined, { token });
      expect({ method, path, status: res.status }).toEqual({ method, path, status: 404 });
    }
    // a portal user of vendor B cannot see or revoke vendor A's key
    const userB = await portalUser(vendorB);
    expect((await t.api.delete(`/settings/api-keys/${keyA}`, { token: userB.token })).status).toBe(404);
    expect((await t.api.get('/settings/api-keys', { token: userB.token })).body.data.items).toEqual([]);
    const still = await t.api.get(`/v1/vendors/${vendorA}/api-keys`, { token: shop.token });
    expect(still.body.apiKeys[0]).toMatchObject({ id: keyA, status: 'active' });
    expect((await t.api.get(`/v1/vendors/${vendorA}/api-keys`, { token: other.token })).body.error).toBe(
      'Vendor not found',
    );
  });

  it('wrong credential kinds → 403: merchant on v1, vendor on /v2/vendors/…, shop and merchant on /settings', async () => {
    const vendorId = await vendor();
    const user = await portalUser(vendorId);
    const cases: Array<[string, string, string]> = [
      ['POST', `/v1/vendors/${vendorId}/api-keys`, merchant],
      ['GET', `/v1/vendors/${vendorId}/api-keys`, merchant],
      ['DELETE', `/v1/vendors/${vendorId}/api-keys/${new Types.ObjectId().toHexString()}`, merchant],
      ['POST', `/v2/vendors/${vendorId}/api-keys`, user.token],
      ['GET', `/v2/vendors/${vendorId}/api-keys`, user.token],
      ['POST', '/settings/api-keys', shop.token],
      ['GET', '/v2/settings/api-keys', merchant],
    ];
    for (const [method, path, token] of cases) {
      const res = await t.api.request(
        method,
        path,
        method === 'POST' ? { scopes: ['orders:read'] } : undefined,
        { token },
      );
      expect({ method, path, status: res.status }).toEqual({ method, path, status: 403 });
    }
    const v1 = await t.api.get(`/v1/vendors/${vendorId}/api-keys`, { token: merchant });
    expect(v1.body).toEqual({ error: expect.stringMatching(/merchant token cannot be used/) });
  });
});
