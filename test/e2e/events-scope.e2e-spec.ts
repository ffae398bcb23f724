/* eslint-disable @typescript-eslint/no-explicit-any */
import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import { Types } from 'mongoose';
import { auditRecord } from '../../src/audit/audit-record';
import { startApp, TestApp } from '../support/app';
import { createMerchantKey, createShop, TestMerchantKey, TestShop } from '../support/factory';
import { Receiver } from '../support/receiver';
import { deliver, eventually, shopifyOrder } from '../support/webhooks';

/**
 * Issue 28, findings 9 and 10a: webhook endpoints in the audit trail; what a merchant token may
 * subscribe an endpoint to (only the resources it reads: vendors, users, payout adjustments); the
 * start-up narrowing of existing endpoints; replay bounded by a per-endpoint cooldown and skipping
 * events the endpoint already received.
 */
describe('webhook endpoints: merchant scope, audit trail, bounded replay (e2e)', () => {
  let t: TestApp;
  let shop: TestShop;
  let mk: TestMerchantKey;
  const receivers: Receiver[] = [];
  const saved = { ...process.env };
  const COOLDOWN_S = 60;

  const receiver = async () => {
    const r = await Receiver.start();
    receivers.push(r);
    return r;
  };
  const m = () => ({ token: mk.token });
  const s = () => ({ token: shop.token });
  const vendor = async (name: string) => {
    const res = await t.api.post(
      '/v1/vendors',
      { vendorName: `${name} ${Date.now()}`, commissionType: 'percentage', commissionAmount: 10 },
      s(),
    );
    expect(res.status).toBe(200);
    return res.body.vendor as { _id: string; vendorName: string };
  };
  const audit = async (resourceId: string) => {
    const res = await t.api.get(`/v1/audit-events?resourceId=${resourceId}&limit=250`, s());
    expect(res.status).toBe(200);
    return res.body.events as Array<Record<string, any>>;
  };
  const types = (r: Receiver) => r.bodies().map((b) => b.type as string);

  beforeAll(async () => {
    process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';
    process.env.WEBHOOK_RETRY_SCHEDULE = '0,0.3,0.3';
    process.env.WEBHOOK_REPLAY_COOLDOWN_SECONDS = String(COOLDOWN_S);
    // This app's processors must send this app's deliveries.
    process.env.QUEUE_PREFIX = `${saved.QUEUE_PREFIX ?? 'mp-test'}-evs-${process.pid}`;
    t = await startApp();
    shop = await createShop(t, 'ev-scope');
    mk = await createMerchantKey(t, shop);
  });

  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    await t?.close();
    process.env = saved;
  });

  it('a merchant token cannot subscribe an endpoint to order, refund, payout or transfer events (403 naming them)', async () => {
    const r = await receiver();
    const before = (await t.api.get('/v1/webhook-endpoints?limit=250', s())).body.total;
    const refused = await t.api.post(
      '/v2/webhook-endpoints',
      { url: r.url, enabledEvents: ['order.received', 'refund.recorded', 'vendor.created'] },
      m(),
    );
    expect(refused.status).toBe(403);
    expect(refused.body.success).toBe(false);
    expect(refused.body.error.code).toBe('FORBIDDEN');
    expect(refused.body.error.message).toContain('order.received');
    expect(refused.body.error.message).toContain('refund.recorded');
    // the refused types are named first; vendor.created is not among them
    expect(refused.body.error.message.split(':')[0]).not.toContain('vendor.created');
    expect(refused.body.error.details).toEqual({ refused: ['order.received', 'refund.recorded'] });
    // nothing was created
    expect((await t.api.get('/v1/webhook-endpoints?limit=250', s())).body.total).toBe(before);

    // the resources a merchant reads are fine
    const ok = await t.api.post(
      '/v2/webhook-endpoints',
      { url: r.url, enabledEvents: ['vendor.created', 'user.created', 'payout_adjustment.paid'] },
      m(),
    );
    expect(ok.status).toBe(201);
    expect(ok.body.data).toMatchObject({ eventScope: 'merchant', createdBy: 'merchant' });
    // ...and cannot be widened afterwards
    const widened = await t.api.patch(
      `/v2/webhook-endpoints/${ok.body.data.id}`,
      { enabledEvents: ['transfer.paid', 'payout_batch.paid'] },
      m(),
    );
    expect(widened.status).toBe(403);
    expect(widened.body.error.message).toContain('transfer.paid');

    // a shop endpoint for orders: a merchant may not point it elsewhere (403), may rename it
    const shopEp = await t.api.post(
      '/v1/webhook-endpoints',
      { url: r.url, enabledEvents: ['order.received'] },
      s(),
    );
    expect(shopEp.status).toBe(200);
    expect(shopEp.body).toMatchObject({ eventScope: 'shop', createdBy: 'shop' });
    const moved = await t.api.patch(
      `/v2/webhook-endpoints/${shopEp.body.id}`,
      { url: `${r.url}?merchant=1` },
      m(),
    );
    expect(moved.status).toBe(403);
    expect(moved.body.error.message).toContain('order.received');
    const unchanged = await t.api.get(`/v1/webhook-endpoints/${shopEp.body.id}`, s());
    expect(unchanged.body.url).toBe(r.url);
    const renamed = await t.api.patch(`/v2/webhook-endpoints/${shopEp.body.id}`, { description: 'ERP' }, m());
    expect(renamed.status).toBe(200);
    expect(renamed.body.data).toMatchObject({ description: 'ERP', eventScope: 'shop' });
    // nor take its signing secret (a merchant could then sign order events the shop's receiver trusts)
    const rotate = await t.api.post(`/v2/webhook-endpoints/${shopEp.body.id}/rotate-secret`, {}, m());
    expect(rotate.status).toBe(403);
  });

  it('a merchant wildcard endpoint receives vendor events but no order event', async () => {
    const mr = await receiver();
    const sr = await receiver();
    const created = await t.api.post('/v2/webhook-endpoints', { url: mr.url }, m());
    expect(created.status).toBe(201);
    expect((await t.api.post('/v1/webhook-endpoints', { url: sr.url }, s())).status).toBe(200);

    const v = await vendor('Scoped');
    const order = shopifyOrder({
      financialStatus: 'paid',
      lineItems: [{ vendor: v.vendorName, price: '25.00', quantity: 2 }],
    });
    await deliver(t, shop, 'orders/create', order);
    // the shop's wildcard endpoint gets both...
    await eventually(async () => {
      expect(types(sr)).toEqual(expect.arrayContaining(['vendor.created', 'order.received']));
    }, 10000);
    // ...the merchant's only what a merchant token reads
    await eventually(async () => expect(types(mr)).toContain('vendor.created'), 10000);
    await new Promise((ok) => setTimeout(ok, 500));
    expect(types(mr)).not.toContain('order.received');
    expect(types(mr).every((x) => ['vendor.created'].includes(x))).toBe(true);
    // the endpoint says so
    expect(created.body.data).toMatchObject({ enabledEvents: ['*'], eventScope: 'merchant' });
  });

  it('create, update, delete, secret rotation and replay are in the audit trail, never the secret', async () => {
    const r = await receiver();
    const created = await t.api.post(
      '/v2/webhook-endpoints',
      { url: r.url, description: 'audited', enabledEvents: ['vendor.created'] },
      m(),
    );
    expect(created.status).toBe(201);
    const id = created.body.data.id as string;
    const secrets = [created.body.data.secret as string];
    const patched = await t.api.patch(
      `/v2/webhook-endpoints/${id}`,
      { url: `${r.url}?v=2`, enabledEvents: ['vendor.created', 'user.created'] },
      m(),
    );
    expect(patched.status).toBe(200);
    const rotated = await t.api.post(`/v2/webhook-endpoints/${id}/rotate-secret`, {}, m());
    expect(rotated.status).toBe(200);
    secrets.push(rotated.body.data.secret);
    const since = new Date(Date.now() - 3600_000).toISOString();
    const replayed = await t.api.post(`/v1/webhook-endpoints/${id}/replay`, { since }, s());
    expect(replayed.status).toBe(200);
    expect((await t.api.delete(`/v2/webhook-endpoints/${id}`, m())).status).toBe(200);

    const events = await audit(id);
    const byAction = (a: string) => events.filter((e) => e.action === a);
    expect(events.map((e) => e.action).sort()).toEqual(
      [
        'webhook_endpoint.create',
        'webhook_endpoint.delete',
        'webhook_endpoint.replay',
        'webhook_endpoint.rotate_secret',
        'webhook_endpoint.update',
      ].sort(),
    );
    expect(byAction('webhook_endpoint.create')[0]).toMatchObject({
      actor: { kind: 'merchant', id: mk.id },
      resource: { type: 'webhook_endpoint', id },
      before: null,
      after: {
        url: r.url,
        description: 'audited',
        enabledEvents: ['vendor.created'],
        status: 'enabled',
        eventScope: 'merchant',
        createdBy: 'merchant',
      },
    });
    expect(byAction('webhook_endpoint.update')[0]).toMatchObject({
      actor: { kind: 'merchant' },
      before: { url: r.url, enabledEvents: ['vendor.created'] },
      after: { url: `${r.url}?v=2`, enabledEvents: ['user.created', 'vendor.created'] },
    });
    expect(byAction('webhook_endpoint.rotate_secret')[0]).toMatchObject({
      actor: { kind: 'merchant' },
      after: { previousSecretExpiresAt: expect.any(String) },
    });
    expect(byAction('webhook_endpoint.replay')[0]).toMatchObject({
      actor: { kind: 'shop', id: shop.shopId },
      after: { since, includeDelivered: false },
    });
    expect(byAction('webhook_endpoint.delete')[0]).toMatchObject({
      actor: { kind: 'merchant' },
      before: { url: `${r.url}?v=2` },
      after: null,
    });
    const text = JSON.stringify(events);
    for (const secret of secrets) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain(secret.slice(6));
    }
    expect(text).not.toMatch(/whsec_|secretEnc|"secrets"/);
  });

  it('replay skips the events an endpoint already received, unless includeDelivered', async () => {
    // `since` must fall after every event the earlier tests of this shop made (a vendor created by the
    // test before, less than a second ago, was replayed too on a busy machine: replayed 2 for 1)
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const since = new Date(t.clock.now().getTime() - 100).toISOString();
    const undelivered = await vendor('Replay before');
    const r = await receiver();
    const ep = await t.api.post(
      '/v1/webhook-endpoints',
      { url: r.url, enabledEvents: ['vendor.created'] },
      s(),
    );
    expect(ep.status).toBe(200);
    const a = await vendor('Replay A');
    const b = await vendor('Replay B');
    await eventually(async () => {
      const log = await t.api.get(`/v1/webhook-endpoints/${ep.body.id}/deliveries?status=succeeded`, s());
      expect(log.body.deliveries).toHaveLength(2);
    }, 10000);

    const first = await t.api.post(`/v1/webhook-endpoints/${ep.body.id}/replay`, { since }, s());
    expect(first.status).toBe(200);
    // a and b reached the endpoint already: only the vendor created before it existed is sent
    expect(first.body).toEqual({ replayed: 1, skippedDelivered: 2, truncated: false });
    await eventually(async () => expect(r.received).toHaveLength(3), 10000);
    const ids = r.bodies().map((x) => x.data.object._id as string);
    expect(ids.sort()).toEqual([undelivered._id, a._id, b._id].sort());

    // asked for: all three again (past this endpoint's cooldown)
    t.clock.advance((COOLDOWN_S + 1) * 1000);
    try {
      const auth = await t.api.post('/v1/authenticate', { apiKey: shop.apiKey, shopDomain: shop.shopDomain });
      const all = await t.api.post(
        `/v1/webhook-endpoints/${ep.body.id}/replay`,
        { since, includeDelivered: true },
        { token: auth.body.token },
      );
      expect(all.status).toBe(200);
      expect(all.body).toEqual({ replayed: 3, skippedDelivered: 0, truncated: false });
      await eventually(async () => expect(r.received).toHaveLength(6), 10000);
    } finally {
      t.clock.reset();
    }
  });

  it('one replay per endpoint per cooldown: 429 with Retry-After, also for two at once', async () => {
    const since = new Date(Date.now() - 3600_000).toISOString();
    const r = await receiver();
    const ep = await t.api.post(
      '/v1/webhook-endpoints',
      { url: r.url, enabledEvents: ['user.created'] },
      s(),
    );
    const replay = (id: string, body: Record<string, unknown> = { since }) =>
      t.api.post(`/v1/webhook-endpoints/${id}/replay`, body, s());
    // a malformed request uses up nothing
    expect((await replay(ep.body.id, { since, includeDelivered: 'yes' })).status).toBe(422);
    expect((await replay(ep.body.id, { since: 'yesterday' })).status).toBe(422);

    const both = await Promise.all([replay(ep.body.id), replay(ep.body.id)]);
    expect(both.map((x) => x.status).sort()).toEqual([200, 429]);
    const again = await replay(ep.body.id, { since, includeDelivered: true });
    expect(again.status).toBe(429);
    const retryAfter = Number(again.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(COOLDOWN_S - 5);
    expect(retryAfter).toBeLessThanOrEqual(COOLDOWN_S);
    expect(again.body.error).toContain(`one replay per endpoint per ${COOLDOWN_S} s`);
    // another endpoint is not held back
    const other = await t.api.post(
      '/v1/webhook-endpoints',
      { url: r.url, enabledEvents: ['user.created'] },
      s(),
    );
    expect((await replay(other.body.id)).status).toBe(200);
    // only the replay that ran is in the trail
    const replays = (await audit(ep.body.id)).filter((e) => e.action === 'webhook_endpoint.replay');
    expect(replays).toHaveLength(1);

    t.clock.advance((COOLDOWN_S - 10) * 1000);
    try {
      const auth = await t.api.post('/v1/authenticate', { apiKey: shop.apiKey, shopDomain: shop.shopDomain });
      const later = await t.api.post(
        `/v1/webhook-endpoints/${ep.body.id}/replay`,
        { since },
        { token: auth.body.token },
      );
      expect(later.status).toBe(429);
      expect(Number(later.headers.get('retry-after'))).toBeLessThanOrEqual(10);
      t.clock.advance(11_000);
      const after = await t.api.post(
        `/v1/webhook-endpoints/${ep.body.id}/replay`,
        { since },
        { token: auth.body.token },
      );
      expect(after.status).toBe(200);
    } finally {
      t.clock.reset();
    }
  });

  it('narrows existing endpoints at start: merchant-created ones lose what a merchant cannot read (idempotent, audited)', async () => {
    const conn = t.app.get<Connection>(getConnectionToken());
    const endpoints = conn.collection('webhook_endpoints');
    const s2 = await createShop(t, 'ev-narrow');
    const at = new Date();
    const legacy = (enabledEvents: string[], extra: Record<string, unknown> = {}) => ({
      _id: new Types.ObjectId(),
      shopId: new Types.ObjectId(s2.shopId),
      url: 'http://127.0.0.1:9/hook',
      description: null,
      enabledEvents,
      status: 'enabled',
      disabledReason: null,
      secrets: [],
      failingSince: null,
      createdAt: at,
      updatedAt: at,
      ...extra,
    });
    // created before the creator was stored; the audit trail shows a merchant created it
    const shown = legacy(['order.received', 'vendor.created']);
    // created before the creator was stored; nothing shows who did: left as it is
    const unknown = legacy(['order.received', 'transfer.paid']);
    // stored as a merchant's, with types a merchant no longer may have: nothing left, disabled
    const stored = legacy(['refund.recorded'], { createdBy: 'merchant', eventScope: 'merchant' });
    await endpoints.insertMany([shown, unknown, stored]);
    const evidence = auditRecord(
      s2.shopId,
      {
        key: new Types.ObjectId().toHexString(),
        at,
        actor: { kind: 'merchant', id: new Types.ObjectId().toHexString() },
        requestId: null,
        clientRequestId: null,
      },
      {
        action: 'webhook_endpoint.create' as never,
        resource: { type: 'webhook_endpoint', id: shown._id },
        before: null,
        after: { url: shown.url, enabledEvents: shown.enabledEvents },
      },
    );
    await conn.collection('audit_events').insertOne(evidence as never);

    // A process start: this file's app goes and a new one comes (two apps at once share a client
    // that closing one ends); every shop token stays valid.
    const restart = async () => {
      await t.close();
      t = await startApp();
    };
    await restart();
    const read = async (id: Types.ObjectId) => {
      const res = await t.api.get(`/v1/webhook-endpoints/${String(id)}`, { token: s2.token });
      expect(res.status).toBe(200);
      return res.body;
    };
    expect(await read(shown._id)).toMatchObject({
      enabledEvents: ['vendor.created'],
      eventScope: 'merchant',
      createdBy: 'merchant',
      status: 'enabled',
    });
    expect(await read(unknown._id)).toMatchObject({
      enabledEvents: ['order.received', 'transfer.paid'],
      eventScope: 'shop',
      createdBy: null,
    });
    expect(await read(stored._id)).toMatchObject({
      enabledEvents: [],
      eventScope: 'merchant',
      status: 'disabled',
      disabledReason: expect.stringContaining('refund.recorded'),
    });
    const narrowed = async (id: Types.ObjectId) => {
      const res = await t.api.get(
        `/v1/audit-events?resourceId=${String(id)}&action=webhook_endpoint.narrow&limit=250`,
        { token: s2.token },
      );
      expect(res.status).toBe(200);
      return res.body.events as Array<Record<string, any>>;
    };
    const [shownEvent] = await narrowed(shown._id);
    expect(shownEvent).toMatchObject({
      actor: { kind: 'platform' },
      before: { enabledEvents: ['order.received', 'vendor.created'] },
      after: { enabledEvents: ['vendor.created'], eventScope: 'merchant', createdBy: 'merchant' },
    });
    expect(await narrowed(stored._id)).toHaveLength(1);
    expect(await narrowed(unknown._id)).toHaveLength(0);

    // idempotent: a second start changes and records nothing more
    await restart();
    expect(await narrowed(shown._id)).toHaveLength(1);
    expect(await narrowed(stored._id)).toHaveLength(1);
    expect((await read(shown._id)).enabledEvents).toEqual(['vendor.created']);
  });
});
