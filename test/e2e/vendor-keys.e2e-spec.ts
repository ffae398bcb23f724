/* eslint-disable @typescript-eslint/no-explicit-any */
import { createHash } from 'node:crypto';
import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import { Types } from 'mongoose';
import { startApp, TestApp } from '../support/app';
import { createMerchantKey, createShop, TestShop } from '../support/factory';
import { createKeysVendor, portalUserToken } from '../support/vendor-keys';
import type { VendorScope } from '../../src/common/auth/scopes';

/** Vendor API keys: who manages them where, shown once, the 25-key cap, tenancy (DESIGN §12). */
describe('vendor API keys: management (e2e)', () => {
  let t: TestApp;
  let shop: TestShop;
  let merchant: string;
  let db: NonNullable<Connection['db']>;

  const vendor = (s: TestShop = shop) => createKeysVendor(t, s);
  const portalUser = (vendorId: string, permissions?: VendorScope[]) =>
    portalUserToken(t, shop, vendorId, permissions);

  beforeAll(async () => {
    t = await startApp();
    shop = await createShop(t, 'vkeys');
    merchant = (await createMerchantKey(t, shop)).token;
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
});
