/* eslint-disable @typescript-eslint/no-explicit-any */
import { randomUUID } from 'node:crypto';
import { getModelToken } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { AuditEvent } from '../../src/audit/audit-event.schema';
import { AuditRepairService } from '../../src/audit/audit-repair.service';
import { AuditTrail } from '../../src/audit/audit-trail.service';
import { OperationContexts } from '../../src/common/context/operation-context';
import { shopScope } from '../../src/common/tenancy';
import { User } from '../../src/users/user.schema';
import { VendorsRepository } from '../../src/vendors/vendors.repository';
import { startApp, TestApp } from '../support/app';
import { createMerchantKey, createShop, TestMerchantKey, TestShop } from '../support/factory';
import { vendorToken } from '../support/catalog';
import { createVendor, seedOrder } from '../support/payout-fixtures';
import { HOUR } from '../support/test-clock';

/**
 * The audit trail (issue 9): every listed write of a shop, merchant or vendor credential appends
 * `{at, actor, action, resource, before, after, requestId, clientRequestId}`; no secret is ever stored; another shop
 * sees none; and a write whose request died before relaying its event gets it from the repair job.
 */
describe('audit trail (e2e)', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;
  let mk: TestMerchantKey;
  const secrets: string[] = [];
  const password = 'Sup3r-secret-portal-pass';
  const newPassword = 'An0ther-secret-portal-pass';
  const platformToken = 'shpat_very_secret_platform_token_123';
  let vendorId: string;
  let userId: string;
  let adjustmentId: string;
  let requestId: string;
  let answeredRequestId: string;

  const send = (method: string, path: string, body: unknown, token: string, rid: string = randomUUID()) =>
    t.api.request(method, path, body, { token, headers: { 'x-request-id': rid } });
  const events = async (query = '', s: TestShop = shop): Promise<any[]> => {
    const res = await t.api.get(`/v1/audit-events?limit=250${query}`, { token: s.token });
    expect(res.status).toBe(200);
    return res.body.events;
  };
  const one = async (action: string, resourceId?: string): Promise<any> => {
    const found = await events(`&action=${action}${resourceId ? `&resourceId=${resourceId}` : ''}`);
    expect(found.length).toBeGreaterThanOrEqual(1);
    return found[0];
  };

  beforeAll(async () => {
    t = await startApp();
    shop = await createShop(t, 'audit');
    other = await createShop(t, 'audit-other');
    mk = await createMerchantKey(t, shop);
    secrets.push(
      shop.apiKey,
      shop.token,
      mk.key,
      mk.token,
      password,
      newPassword,
      platformToken,
      shop.webhookSecret,
    );

    // vendors
    requestId = `audit-${randomUUID()}`;
    const v = await send(
      'POST',
      '/v1/vendors',
      { vendorName: 'Audited', commissionType: 'percentage', commissionAmount: 10 },
      shop.token,
      requestId,
    );
    vendorId = v.body.vendor._id;
    answeredRequestId = v.headers.get('x-request-id')!;
    await send('PUT', `/v1/vendors/${vendorId}`, { commissionAmount: 12.5 }, shop.token);
    await send('PUT', `/v1/vendors/${vendorId}/address`, { city: 'Bristol' }, shop.token);
    await send('PUT', '/v1/shop/profile', { fields: ['taxId'] }, shop.token);
    await send('PUT', `/v1/vendors/${vendorId}/profile`, [{ field: 'taxId', value: 'GB1' }], shop.token);
    // users
    const u = await send(
      'POST',
      '/v1/users',
      { vendorId, email: 'audited@example.com', password },
      shop.token,
    );
    userId = u.body.user._id;
    await send(
      'PUT',
      `/v1/users/${userId}`,
      { email: 'audited2@example.com', password: newPassword },
      shop.token,
    );
    const gone = await send(
      'POST',
      '/v1/users',
      { vendorId, email: 'gone@example.com', password },
      shop.token,
    );
    await send('DELETE', `/v1/users/${gone.body.user._id}`, undefined, shop.token);
    // SKUs and settings
    await send('POST', '/v1/commissions/sku', { skus: [{ sku: 'AUD-1', commissionRate: 5 }] }, shop.token);
    await send(
      'POST',
      '/v1/commissions/sku',
      { skus: [{ sku: 'AUD-1', commissionRate: 7, costOfGoods: 2 }] },
      shop.token,
    );
    await send('PUT', '/v1/shop/settings', { tcsRate: 1 }, shop.token);
    await send('PUT', '/v1/shop/platform', { platform: 'local', accessToken: platformToken }, shop.token);
    // line items, fulfillment, payouts
    const order = await seedOrder(t, shop, {
      createdAt: new Date('2026-10-01T10:00:00Z'),
      lines: [{ vendor: 'Audited', price: 30, sku: 'AUD-2' }],
    });
    const lines = (await t.api.get(`/v1/orders/${order.orderId}?lineItems=true`, { token: shop.token })).body
      .orders;
    await send(
      'POST',
      '/v1/lineitems/update',
      {
        items: [
          {
            orderId: order.orderId,
            lineItemId: lines[0].lineItemId,
            fields: { deduction: 2.5, costOfItem: 8 },
          },
        ],
      },
      shop.token,
    );
    await send(
      'POST',
      '/v1/fulfillments',
      {
        trackingNumber: 'TRK1',
        shippingCarrier: 'UPS',
        trackingUrl: 'https://t.example/TRK1',
        lineItemsToFulfill: [lines[0]._id],
      },
      shop.token,
    );
    // adjustments (merchant token)
    const a = await send(
      'POST',
      '/v2/payout-adjustments',
      { vendorId, amount: 5, type: 'ADDITION' },
      mk.token,
    );
    adjustmentId = a.body.data._id;
    await send('PATCH', `/v2/payout-adjustments/${adjustmentId}`, { amount: 6, comments: 'more' }, mk.token);
    const doomed = await send(
      'POST',
      '/v2/payout-adjustments',
      { vendorId, amount: 1, type: 'DEDUCTION' },
      mk.token,
    );
    await send('DELETE', `/v2/payout-adjustments/${doomed.body.data._id}`, undefined, mk.token);
    await send('POST', '/v1/payouts/batches', { vendorId, until: '2026-10-31' }, shop.token);
    // merchant keys
    const k = await send('POST', '/v1/merchant-keys', { name: 'audited-key' }, shop.token);
    secrets.push(k.body.key);
    const r = await send('POST', `/v1/merchant-keys/${k.body.id}/rotate`, undefined, shop.token);
    secrets.push(r.body.key);
    await send('DELETE', `/v1/merchant-keys/${r.body.id}`, undefined, shop.token);
    await send('DELETE', `/v1/vendors/${vendorId}`, undefined, shop.token);
    // the other shop writes too
    await send(
      'POST',
      '/v1/vendors',
      { vendorName: 'Elsewhere', commissionType: 'flat', commissionAmount: 1 },
      other.token,
    );
  });

  afterAll(() => t.close());

  it('records each listed action with who, what, before and after (changed fields only)', async () => {
    const created = await one('vendor.create', vendorId);
    expect(created).toMatchObject({
      actor: { kind: 'shop', id: shop.shopId },
      resource: { type: 'vendor', id: vendorId },
      before: null,
      after: { vendorName: 'audited', commissionType: 'percentage', commissionAmount: 10, active: true },
      // ours, with the caller's kept apart (issue 18); the answer echoed the caller's (finding 13c)
      requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      clientRequestId: requestId,
    });
    expect(answeredRequestId).toBe(requestId);
    expect(created.requestId).not.toBe(requestId);
    expect(new Date(created.at).getTime()).toBeGreaterThan(Date.now() - HOUR);
    expect(await one('vendor.update', vendorId)).toMatchObject({
      before: { commissionAmount: 10 },
      after: { commissionAmount: 12.5 },
    });
    expect(await one('vendor.address.update', vendorId)).toMatchObject({
      before: { address: { city: null } },
      after: { address: { city: 'Bristol' } },
    });
    expect(await one('vendor.profile.update', vendorId)).toMatchObject({
      before: { profile: [] },
      after: { profile: [{ field: 'taxId', value: 'GB1' }] },
    });
    expect(await one('vendor.deactivate', vendorId)).toMatchObject({
      before: { active: true },
      after: { active: false },
    });
    expect(await one('user.create', userId)).toMatchObject({
      after: { email: 'audited@example.com', vendorId, approved: true },
    });
    expect(await one('user.update', userId)).toMatchObject({
      before: { email: 'audited@example.com' },
      after: { email: 'audited2@example.com', passwordChanged: true },
    });
    expect(await one('user.delete')).toMatchObject({ before: { email: 'gone@example.com' }, after: null });
    const skuCreates = await events('&action=sku_commission.create');
    expect(skuCreates.map((e) => e.after)).toEqual(
      expect.arrayContaining([
        { sku: 'AUD-1', commissionType: 'percentage', commissionAmount: 5, costOfGoods: null },
        // the line item update's costOfItem 8 on a quantity of 1: a record holding only the cost
        { sku: 'AUD-2', commissionType: null, commissionAmount: null, costOfGoods: 8 },
      ]),
    );
    const skuUpdates = await events('&action=sku_commission.update');
    expect(skuUpdates.map((e) => e.after)).toEqual(
      expect.arrayContaining([{ commissionAmount: 7, costOfGoods: 2 }]),
    );
    expect(await one('shop.settings.update')).toMatchObject({
      resource: { type: 'shop', id: shop.shopId },
      before: { settings: { tcsRate: 0 } },
      after: { settings: { tcsRate: 1 } },
    });
    expect(await one('shop.profile.update')).toMatchObject({
      before: { profileFields: null },
      after: { profileFields: ['taxId'] },
    });
    expect(await one('shop.platform.update')).toMatchObject({
      after: { accessTokenSet: true, accessTokenReplaced: true },
    });
    expect(await one('line_item.update')).toMatchObject({
      before: { deduction: 0, costOfItem: 0 },
      after: { deduction: 2.5, costOfItem: 8 },
    });
    expect(await one('line_item.fulfill')).toMatchObject({
      before: { fulfillmentStatus: 'unfulfilled' },
      after: {
        fulfillmentStatus: 'fulfilled',
        fulfillment: { trackingNumber: 'TRK1', trackingCompany: 'UPS' },
      },
    });
    expect(await one('payout_adjustment.create', adjustmentId)).toMatchObject({
      actor: { kind: 'merchant', id: mk.id },
      after: { amount: 5, type: 'ADDITION', status: 'UNPAID' },
    });
    expect(await one('payout_adjustment.update', adjustmentId)).toMatchObject({
      before: { amount: 5, comments: '' },
      after: { amount: 6, comments: 'more' },
    });
    expect(await one('payout_adjustment.delete')).toMatchObject({
      before: { amount: -1, type: 'DEDUCTION' },
      after: null,
    });
    expect(await one('payout_batch.create')).toMatchObject({
      after: { vendorId, periodEnd: '2026-10-31', status: 'queued' },
    });
    expect(await one('merchant_key.create')).toMatchObject({
      after: { name: 'audited-key', keyPrefix: expect.stringMatching(/^mk_live_.*_…$/) },
    });
    expect(await one('merchant_key.rotate')).toMatchObject({
      before: { expiresAt: null },
      after: { expiresAt: expect.any(String) },
    });
    expect(await one('merchant_key.revoke')).toMatchObject({
      before: { revokedAt: null },
      after: { revokedAt: expect.any(String) },
    });
  });

  it('never stores a secret: keys, passwords, tokens and hashes appear nowhere in the stored events', async () => {
    const stored = await t.app
      .get<Model<AuditEvent>>(getModelToken(AuditEvent.name))
      .find({ shopId: new Types.ObjectId(shop.shopId) })
      .lean()
      .exec();
    expect(stored.length).toBeGreaterThanOrEqual(25);
    const text = JSON.stringify(stored);
    for (const s of secrets) expect(text).not.toContain(s);
    expect(text).not.toMatch(/\$argon2|passwordHash|secretHash|platformAccessTokenEnc/);
    // nor do the audited documents keep their outbox once relayed
    const user = await t.app
      .get<Model<User>>(getModelToken(User.name))
      .findOne({ shopId: new Types.ObjectId(shop.shopId), _id: new Types.ObjectId(userId) })
      .lean()
      .exec();
    expect((user as any).auditOutbox).toBeUndefined();
  });

  it('filters combine (type, resource, action, actor, days) and page by offset (v1) and cursor (V2)', async () => {
    const all = await events();
    expect(all.map((e) => e.at)).toEqual([...all.map((e) => e.at)].sort().reverse());
    const byMerchant = await events(`&actorKind=merchant&actorId=${mk.id}`);
    expect(byMerchant.map((e) => e.action).sort()).toEqual([
      'payout_adjustment.create',
      'payout_adjustment.create',
      'payout_adjustment.delete',
      'payout_adjustment.update',
    ]);
    expect(byMerchant.every((e) => e.resource.type === 'payout_adjustment')).toBe(true);
    const vendorHistory = await events(`&resourceType=vendor&resourceId=${vendorId}`);
    expect(vendorHistory.map((e) => e.action).reverse()).toEqual([
      'vendor.create',
      'vendor.update',
      'vendor.address.update',
      'vendor.profile.update',
      'vendor.deactivate',
    ]);
    expect(
      await events(`&resourceType=vendor&resourceId=${vendorId}&action=vendor.update&actorKind=shop`),
    ).toHaveLength(1);
    const today = new Date().toISOString().slice(0, 10);
    expect((await events(`&start=${today}&end=${today}`)).length).toBe(all.length);
    expect(await events('&end=2020-01-01')).toEqual([]);

    const page1 = await t.api.get('/v1/audit-events?limit=4', { token: shop.token });
    expect(page1.body).toMatchObject({ total: all.length, nextOffset: 4 });
    const page2 = await t.api.get('/v1/audit-events?limit=4&offset=4', { token: shop.token });
    expect(page2.body.events.map((e: any) => e._id)).toEqual(all.slice(4, 8).map((e) => e._id));

    const seen: string[] = [];
    let after: string | null = null;
    do {
      const res: any = await t.api.get(
        `/v2/audit-events?first=7${after ? `&after=${encodeURIComponent(after)}` : ''}`,
        { token: mk.token },
      );
      expect(res.status).toBe(200);
      expect(res.body.data.totalCount).toBe(all.length);
      seen.push(...res.body.data.events.map((e: any) => e._id));
      after = res.body.data.pageInfo.hasNextPage ? res.body.data.pageInfo.endCursor : null;
    } while (after);
    expect(seen).toEqual(all.map((e) => e._id));
    const filtered = await t.api.get(`/v2/audit-events?first=2&resourceType=vendor&resourceId=${vendorId}`, {
      token: mk.token,
    });
    expect(filtered.body.data).toMatchObject({ totalCount: 5, pageInfo: { hasNextPage: true } });
    expect((await t.api.get('/v1/audit-events?action=nope', { token: shop.token })).status).toBe(422);
    expect((await t.api.get('/v1/audit-events?resourceId=xyz', { token: shop.token })).status).toBe(422);
  });

  it('another shop sees none of it; a vendor token is refused', async () => {
    const theirs = await events('', other);
    expect(theirs.map((e) => e.action)).toEqual(['vendor.create']);
    expect(await events(`&resourceId=${vendorId}`, other)).toEqual([]);
    const otherMk = await createMerchantKey(t, other);
    const v2 = await t.api.get(`/v2/audit-events?resourceId=${vendorId}`, { token: otherMk.token });
    expect(v2.body.data).toMatchObject({ events: [], totalCount: 0 });
    const vendorTok = await vendorToken(t, shop, (await createVendor(t, shop, 'Audit Viewer'))._id);
    expect((await t.api.get('/v1/audit-events', { token: vendorTok })).status).toBe(403);
    expect((await t.api.get('/v2/audit-events', { token: vendorTok })).status).toBe(403);
  });

  describe('a request that died between its write and its event', () => {
    const inRequest = <T>(fn: () => Promise<T>) =>
      OperationContexts.run(
        { id: `dead-${randomUUID()}`, kind: 'http', actor: { kind: 'shop', id: shop.shopId } },
        fn,
      );

    it('is completed by the repair job: the write keeps its event, exactly once', async () => {
      const scope = shopScope(shop.shopId);
      const audit = t.app.get(AuditTrail);
      const vendors = t.app.get(VendorsRepository);
      const created = await send(
        'POST',
        '/v1/vendors',
        { vendorName: 'Crashy', commissionType: 'flat', commissionAmount: 1 },
        shop.token,
      );
      const id = new Types.ObjectId(created.body.vendor._id);
      // The write and its outbox entry, then no relay: the process "dies" here.
      await inRequest(async () => {
        const stamp = audit.begin();
        const event = audit.changed(
          scope,
          stamp,
          'vendor.update',
          { type: 'vendor', id },
          { commissionAmount: 1 },
          { commissionAmount: 3 },
        );
        await vendors.update(scope, id, { commissionAmount: 3 }, stamp, event);
      });
      expect(await events(`&resourceId=${id}&action=vendor.update`)).toEqual([]);
      t.clock.advance(5 * 60 * 1000);
      try {
        const report = await t.app.get(AuditRepairService).repair();
        expect(report.cleared).toBeGreaterThanOrEqual(1);
        await t.app.get(AuditRepairService).repair();
      } finally {
        t.clock.reset();
      }
      const repaired = await events(`&resourceId=${id}&action=vendor.update`);
      expect(repaired).toHaveLength(1);
      expect(repaired[0]).toMatchObject({ before: { commissionAmount: 1 }, after: { commissionAmount: 3 } });
    });

    it('a pending deletion becomes its event only if the resource is gone', async () => {
      const scope = shopScope(shop.shopId);
      const audit = t.app.get(AuditTrail);
      const users = t.app.get<Model<User>>(getModelToken(User.name));
      const mk2 = await send(
        'POST',
        '/v1/vendors',
        { vendorName: 'Crashy Users', commissionType: 'flat', commissionAmount: 1 },
        shop.token,
      );
      const kept = await send(
        'POST',
        '/v1/users',
        { vendorId: mk2.body.vendor._id, email: 'kept@example.com', password },
        shop.token,
      );
      const deleted = await send(
        'POST',
        '/v1/users',
        { vendorId: mk2.body.vendor._id, email: 'deleted@example.com', password },
        shop.token,
      );
      for (const u of [kept, deleted]) {
        await inRequest(() =>
          audit.intendDelete(
            scope,
            audit.begin(),
            'user.delete',
            { type: 'user', id: u.body.user._id },
            { email: u.body.user.email },
            'users',
          ),
        );
      }
      // only one of the two deletes happened before the "crash"
      await users
        .deleteOne({
          shopId: new Types.ObjectId(shop.shopId),
          _id: new Types.ObjectId(deleted.body.user._id),
        })
        .exec();
      t.clock.advance(5 * 60 * 1000);
      try {
        await t.app.get(AuditRepairService).repair();
      } finally {
        t.clock.reset();
      }
      expect(await events(`&resourceId=${deleted.body.user._id}&action=user.delete`)).toHaveLength(1);
      expect(await events(`&resourceId=${kept.body.user._id}&action=user.delete`)).toEqual([]);
    });
  });
});
