/* eslint-disable @typescript-eslint/no-explicit-any */
import { createHash } from 'node:crypto';
import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import { Types } from 'mongoose';
import { startApp, TestApp } from '../support/app';
import { createMerchantKey, createShop, TestShop } from '../support/factory';

/** Vendor API keys: who manages them where, shown once, the 25-key cap, tenancy (DESIGN §12). */
describe('vendor API keys: management (e2e)', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;
  let merchant: string;
  let otherMerchant: string;
  let db: NonNullable<Connection['db']>;
  let n = 0;
  const PASSWORD = 'vendor-portal-pass';

  async function vendor(s: TestShop = shop): Promise<string> {
    const v = await t.api.post(
      '/v1/vendors',
      { vendorName: `keys ${Date.now().toString(36)} ${n++}`, commissionType: 'flat', commissionAmount: 1 },
      { token: s.token },
    );
    expect(v.status).toBe(200);
    return v.body.vendor._id;
  }

  /** A portal user of the vendor (V2 create: optional permissions) and its vendor token. */
  async function portalUser(
    vendorId: string,
    permissions?: string[],
  ): Promise<{ id: string; token: string }> {
    const email = `keys-${Date.now().toString(36)}-${n++}@example.com`;
    const u = await t.api.post(
      '/v2/users',
      { vendorId, email, password: PASSWORD, ...(permissions ? { permissions } : {}) },
      { token: shop.token },
    );
    expect(u.status).toBe(201);
    const s = await t.api.post('/v2/vendor/authenticate', {
      shopDomain: shop.shopDomain,
      email,
      password: PASSWORD,
    });
    expect(s.status).toBe(200);
    return { id: u.body.data._id, token: s.body.data.token };
  }

  beforeAll(async () => {
    t = await startApp();
    shop = await createShop(t, 'vkeys');
    other = await createShop(t, 'vkeys-other');
    merchant = (await createMerchantKey(t, shop)).token;
    otherMerchant = (await createMerchantKey(t, other)).token;
    db = t.app.get<Connection>(getConnectionToken()).db!;
  });
  afterAll(() => t.close());

  it('the shop creates a key (v1): 201, shown once, stored only as the SHA-256 of its secret', async () => {
    const vendorId = await vendor();
    const res = await t.api.post(
      `/v1/vendors/${vendorId}/api-keys`,
      { name: 'Warehouse sync', scopes: ['payouts:read', 'orders:read'] },
      { token: shop.token },
    );
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      key: expect.stringMatching(new RegExp(`^vk_live_${shop.shopId}[0-9a-f]{8}_[A-Za-z0-9]{40}$`)),
      name: 'Warehouse sync',
      scopes: ['orders:read', 'payouts:read'],
      createdAt: expect.any(String),
    });
    const key: string = res.body.key;
    const secret = key.split('_').pop()!;
    const doc = await db
      .collection('vendor_api_keys')
      .findOne({ shopId: new Types.ObjectId(shop.shopId), _id: new Types.ObjectId(res.body.id) });
    expect(doc).toMatchObject({
      vendorId: new Types.ObjectId(vendorId),
      secretHash: createHash('sha256').update(secret).digest('hex'),
      scopes: ['orders:read', 'payouts:read'],
      revokedAt: null,
      createdBy: { kind: 'shop', id: shop.shopId },
    });
    expect(JSON.stringify(doc)).not.toContain(secret);

    const list = await t.api.get(`/v1/vendors/${vendorId}/api-keys`, { token: shop.token });
    expect(list.status).toBe(200);
    expect(list.body).toEqual({
      total: 1,
      nextOffset: null,
      apiKeys: [
        expect.objectContaining({
          id: res.body.id,
          vendorId,
          prefix: `${key.slice(0, key.lastIndexOf('_') + 1)}…`,
          status: 'active',
          revokedAt: null,
        }),
      ],
    });
    expect(list.text).not.toContain(secret);

    const audit = await t.api.get(`/v1/audit-events?action=vendor_api_key.create&resourceId=${res.body.id}`, {
      token: shop.token,
    });
    expect(audit.body.events).toHaveLength(1);
    expect(JSON.stringify(audit.body.events)).not.toContain(secret);
    const events = await t.api.get('/v1/events?type=vendor_api_key.created', { token: shop.token });
    const event = events.body.events.find((e: any) => e.data.object.id === res.body.id);
    expect(event.data.object).toMatchObject({
      id: res.body.id,
      vendorId,
      scopes: ['orders:read', 'payouts:read'],
    });
    expect(JSON.stringify(event)).not.toContain(secret);
  });

  it('a merchant token manages keys under /v2/vendors/{id}/api-keys (envelope, cursor list, soft revoke)', async () => {
    const vendorId = await vendor();
    const a = await t.api.post(
      `/v2/vendors/${vendorId}/api-keys`,
      { scopes: ['orders:read'] },
      { token: merchant },
    );
    expect(a.status).toBe(201);
    expect(a.body).toEqual({
      success: true,
      data: {
        id: expect.any(String),
        key: expect.any(String),
        name: null,
        scopes: ['orders:read'],
        createdAt: expect.any(String),
      },
    });
    const b = await t.api.post(
      `/v2/vendors/${vendorId}/api-keys`,
      { scopes: ['products:read'] },
      { token: shop.token },
    );
    expect(b.status).toBe(201);
    const page = await t.api.get(`/v2/vendors/${vendorId}/api-keys?first=1`, { token: merchant });
    expect(page.status).toBe(200);
    expect(page.body.data.totalCount).toBe(2);
    expect(page.body.data.items.map((k: any) => k.id)).toEqual([b.body.data.id]);
    expect(page.body.data.pageInfo.hasNextPage).toBe(true);
    const next = await t.api.get(
      `/v2/vendors/${vendorId}/api-keys?first=1&after=${encodeURIComponent(page.body.data.pageInfo.endCursor)}`,
      { token: merchant },
    );
    expect(next.body.data.items.map((k: any) => k.id)).toEqual([a.body.data.id]);
    expect(next.body.data.items[0].createdBy.kind).toBe('merchant');

    const revoked = await t.api.delete(`/v2/vendors/${vendorId}/api-keys/${a.body.data.id}`, {
      token: merchant,
    });
    expect(revoked.status).toBe(200);
    expect(revoked.body.data).toMatchObject({
      id: a.body.data.id,
      status: 'revoked',
      revokedAt: expect.any(String),
    });
    const again = await t.api.delete(`/v2/vendors/${vendorId}/api-keys/${a.body.data.id}`, {
      token: merchant,
    });
    expect(again.body.data.revokedAt).toBe(revoked.body.data.revokedAt);
    const doc = await db
      .collection('vendor_api_keys')
      .findOne({ shopId: new Types.ObjectId(shop.shopId), _id: new Types.ObjectId(a.body.data.id) });
    expect(doc?.revokedAt).toBeInstanceOf(Date);
  });

  it('a portal user manages its own vendor’s keys at /settings/api-keys and /v2/settings/api-keys', async () => {
    const vendorId = await vendor();
    const user = await portalUser(vendorId);
    const made = await t.api.post(
      '/settings/api-keys',
      { scopes: ['orders:read', 'payouts:read'] },
      { token: user.token },
    );
    expect(made.status).toBe(201);
    expect(made.body.data.scopes).toEqual(['orders:read', 'payouts:read']);
    const list = await t.api.get('/v2/settings/api-keys', { token: user.token });
    expect(list.body.data.items).toEqual([
      expect.objectContaining({
        id: made.body.data.id,
        vendorId,
        createdBy: { kind: 'vendor', id: user.id },
      }),
    ]);
    const gone = await t.api.delete(`/v2/settings/api-keys/${made.body.data.id}`, { token: user.token });
    expect(gone.status).toBe(200);
    expect(gone.body.data.status).toBe('revoked');
  });

  it('a portal user grants only scopes it holds: 403 "Insufficient scope" naming them', async () => {
    const vendorId = await vendor();
    const user = await portalUser(vendorId, ['orders:read']);
    const refused = await t.api.post(
      '/settings/api-keys',
      { scopes: ['orders:read', 'payouts:read'] },
      { token: user.token },
    );
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({
      code: 'FORBIDDEN',
      message: expect.stringMatching(/^Insufficient scope.*payouts:read/),
      details: { missingScopes: ['payouts:read'] },
    });
    const allowed = await t.api.post(
      '/settings/api-keys',
      { scopes: ['orders:read'] },
      { token: user.token },
    );
    expect(allowed.status).toBe(201);
    expect(
      await db
        .collection('vendor_api_keys')
        .countDocuments({ shopId: new Types.ObjectId(shop.shopId), vendorId: new Types.ObjectId(vendorId) }),
    ).toBe(1);
  });

  it('a token minted from a key cannot manage keys (403)', async () => {
    const vendorId = await vendor();
    const made = await t.api.post(
      `/v1/vendors/${vendorId}/api-keys`,
      { scopes: ['orders:read'] },
      { token: shop.token },
    );
    const auth = await t.api.post('/authenticate', { apiKey: made.body.key });
    const token = auth.body.data.token;
    for (const res of [
      await t.api.post('/settings/api-keys', { scopes: ['orders:read'] }, { token }),
      await t.api.get('/v2/settings/api-keys', { token }),
      await t.api.delete(`/settings/api-keys/${made.body.id}`, { token }),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.error.message).toMatch(/cannot manage API keys/);
    }
  });

  it('validates the body: no scope, an unknown or repeated scope → 422, nothing created', async () => {
    const vendorId = await vendor();
    for (const body of [
      {},
      { scopes: [] },
      { scopes: ['orders:delete'] },
      { scopes: ['orders:read', 'orders:read'] },
      { scopes: ['orders:read'], name: '' },
    ]) {
      const res = await t.api.post(`/v1/vendors/${vendorId}/api-keys`, body, { token: shop.token });
      expect(res.status).toBe(422);
    }
    const list = await t.api.get(`/v1/vendors/${vendorId}/api-keys`, { token: shop.token });
    expect(list.body.total).toBe(0);
  });

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
