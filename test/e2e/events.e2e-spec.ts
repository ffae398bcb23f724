/* eslint-disable @typescript-eslint/no-explicit-any */
import { Webhook } from 'standardwebhooks';
import { startApp, TestApp } from '../support/app';
import { vendorToken } from '../support/catalog';
import { createMerchantKey, createShop, TestMerchantKey, TestShop } from '../support/factory';
import { Receiver } from '../support/receiver';
import { HOUR } from '../support/test-clock';
import { eventually } from '../support/webhooks';

/**
 * Outbound events (issue 19) over real HTTP receivers on loopback, against the real store and
 * Redis: Standard Webhooks signatures verified with the reference library, `data.object` equal to
 * the GET, filters, retries with one `webhook-id`, 410, rotation with two signatures, replay,
 * tenancy and credentials.
 */
describe('outbound events (e2e)', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;
  let mk: TestMerchantKey;
  const receivers: Receiver[] = [];
  const saved = { ...process.env };

  const receiver = async () => {
    const r = await Receiver.start();
    receivers.push(r);
    return r;
  };
  const endpoint = async (url: string, extra: Record<string, unknown> = {}, s: TestShop = shop) => {
    const res = await t.api.post('/v1/webhook-endpoints', { url, ...extra }, { token: s.token });
    expect(res.status).toBe(200);
    return res.body as { id: string; secret: string; enabledEvents: string[]; status: string };
  };
  const vendor = async (name: string) => {
    const res = await t.api.post(
      '/v1/vendors',
      { vendorName: `${name} ${Date.now()}`, commissionType: 'percentage', commissionAmount: 10 },
      { token: shop.token },
    );
    expect(res.status).toBe(200);
    return res.body.vendor as { _id: string; vendorName: string };
  };
  const deliveries = async (endpointId: string, query = '') => {
    const res = await t.api.get(`/v1/webhook-endpoints/${endpointId}/deliveries?limit=250${query}`, {
      token: shop.token,
    });
    expect(res.status).toBe(200);
    return res.body.deliveries as Array<Record<string, any>>;
  };
  const ofVendor = (r: Receiver, type: string, vendorId: string) =>
    r.received.filter((x) => {
      const b = JSON.parse(x.body);
      return b.type === type && b.data.object._id === vendorId;
    });

  beforeAll(async () => {
    process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';
    process.env.WEBHOOK_RETRY_SCHEDULE = '0,0.3,0.3,0.3';
    // This app's processors must send this app's deliveries.
    process.env.QUEUE_PREFIX = `${saved.QUEUE_PREFIX ?? 'mp-test'}-ev-${process.pid}`;
    t = await startApp();
    shop = await createShop(t, 'events');
    other = await createShop(t, 'events-other');
    mk = await createMerchantKey(t, shop);
  });

  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    await t?.close();
    process.env = saved;
  });

  it('delivers vendor.created within a second, signed (standardwebhooks verifies), data.object = the GET', async () => {
    const r = await receiver();
    const ep = await endpoint(r.url);
    expect(ep.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(ep.secret.slice(6), 'base64').length).toBeGreaterThanOrEqual(24);
    const started = Date.now();
    const v = await vendor('Evented');
    const [got] = await eventually(
      async () => {
        const hits = ofVendor(r, 'vendor.created', v._id);
        expect(hits).toHaveLength(1);
        return hits;
      },
      5000,
      10,
    );
    expect(got.at - started).toBeLessThan(1000);
    const verified = new Webhook(ep.secret).verify(got.body, got.headers) as Record<string, any>;
    expect(got.headers['content-type']).toContain('application/json');
    expect(got.headers['webhook-id']).toBe(verified.id);
    expect(verified).toMatchObject({ type: 'vendor.created', shopId: shop.shopId, apiVersion: 'v1' });
    expect(verified.id).toMatch(/^evt_[0-9a-f]{24}$/);
    const read = await t.api.get(`/v1/vendors/${v._id}`, { token: shop.token });
    expect(verified.data.object).toEqual(read.body.vendor[0]);
    expect(JSON.stringify(verified)).not.toMatch(/__v|auditOutbox|secret|Hash/);
    // the same event, polled
    const polled = await t.api.get(`/v1/events/${verified.id}`, { token: shop.token });
    expect(polled.status).toBe(200);
    expect(polled.body).toEqual(verified);
    const list = await t.api.get('/v1/events?type=vendor.created&limit=5', { token: shop.token });
    expect(list.body.events.map((e: any) => e.id)).toContain(verified.id);
  });

  it('respects enabledEvents', async () => {
    const r = await receiver();
    const ep = await endpoint(r.url, { enabledEvents: ['vendor.updated'] });
    expect(ep.enabledEvents).toEqual(['vendor.updated']);
    const v = await vendor('Filtered');
    const put = await t.api.put(`/v1/vendors/${v._id}`, { commissionAmount: 12.5 }, { token: shop.token });
    expect(put.status).toBe(200);
    await eventually(async () => expect(ofVendor(r, 'vendor.updated', v._id)).toHaveLength(1), 5000, 20);
    const body = JSON.parse(ofVendor(r, 'vendor.updated', v._id)[0].body);
    expect(body.data.object.commissionAmount).toBe(12.5);
    expect(ofVendor(r, 'vendor.created', v._id)).toHaveLength(0);
    const del = await t.api.delete(`/v1/vendors/${v._id}`, { token: shop.token });
    expect(del.status).toBe(200);
    await new Promise((ok) => setTimeout(ok, 300));
    expect(r.bodies().every((b) => b.type === 'vendor.updated')).toBe(true);
  });

  it('retries 500, 500, 200: three attempts, one webhook-id, all in the log', async () => {
    const r = await receiver();
    r.answer = (_req, n) => (n <= 2 ? { status: 500, body: 'boom' } : { status: 200, body: 'ok' });
    const ep = await endpoint(r.url, { enabledEvents: ['vendor.created'] });
    const v = await vendor('Flaky');
    await eventually(async () => expect(r.received).toHaveLength(3), 10000, 50);
    expect(new Set(r.received.map((x) => x.headers['webhook-id'])).size).toBe(1);
    expect(new Set(r.received.map((x) => x.body)).size).toBe(1);
    const log = await eventually(async () => {
      const [d] = await deliveries(ep.id);
      expect(d.status).toBe('succeeded');
      return d;
    });
    expect(log.eventId).toBe(r.received[0].headers['webhook-id']);
    expect(log.attempts.map((a: any) => a.statusCode)).toEqual([500, 500, 200]);
    expect(log.attempts[0].response).toBe('boom');
    expect(JSON.parse(r.received[0].body).data.object._id).toBe(v._id);
    const failedOnly = await deliveries(ep.id, '&status=failed');
    expect(failedOnly).toHaveLength(0);
  });

  it('410 Gone disables the endpoint at once', async () => {
    const r = await receiver();
    r.answer = () => ({ status: 410 });
    const ep = await endpoint(r.url, { enabledEvents: ['vendor.created'] });
    await vendor('Gone');
    await eventually(async () => {
      const got = await t.api.get(`/v1/webhook-endpoints/${ep.id}`, { token: shop.token });
      expect(got.body).toMatchObject({ status: 'disabled', disabledReason: expect.stringContaining('410') });
    });
    // ...and says so in the shop's audit trail (actor platform), once
    const audit = await t.api.get('/v1/audit-events?limit=250&action=webhook_endpoint.disable', {
      token: shop.token,
    });
    const disabled = audit.body.events.filter((e: { resource: { id: string } }) => e.resource.id === ep.id);
    expect(disabled).toHaveLength(1);
    expect(disabled[0]).toMatchObject({ actor: { kind: 'platform' } });
    await vendor('Gone again');
    await new Promise((ok) => setTimeout(ok, 500));
    expect(r.received).toHaveLength(1);
    const back = await t.api.patch(
      `/v1/webhook-endpoints/${ep.id}`,
      { status: 'enabled' },
      { token: shop.token },
    );
    expect(back.body).toMatchObject({ status: 'enabled', disabledReason: null });
  });

  it('rotation: two signatures that both verify for 24 h, then only the new one', async () => {
    const r = await receiver();
    const ep = await endpoint(r.url, { enabledEvents: ['vendor.created'] });
    const rotated = await t.api.post(
      `/v1/webhook-endpoints/${ep.id}/rotate-secret`,
      {},
      { token: shop.token },
    );
    expect(rotated.status).toBe(200);
    const fresh: string = rotated.body.secret;
    expect(fresh).not.toBe(ep.secret);
    const ping = await t.api.post(`/v1/webhook-endpoints/${ep.id}/test`, {}, { token: shop.token });
    expect(ping.status).toBe(200);
    const first = await eventually(async () => {
      const [x] = r.withId(ping.body.eventId);
      expect(x).toBeDefined();
      return x;
    });
    expect(first.headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(fresh).verify(first.body, first.headers)).toMatchObject({ type: 'ping' });
    expect(new Webhook(ep.secret).verify(first.body, first.headers)).toMatchObject({ type: 'ping' });

    t.clock.advance(24 * HOUR + 60_000);
    try {
      // the shop token of the start has expired by now (24 h)
      const auth = await t.api.post('/v1/authenticate', { apiKey: shop.apiKey, shopDomain: shop.shopDomain });
      const again = await t.api.post(`/v1/webhook-endpoints/${ep.id}/test`, {}, { token: auth.body.token });
      expect(again.status).toBe(200);
      const later = await eventually(async () => {
        const [x] = r.withId(again.body.eventId);
        expect(x).toBeDefined();
        return x;
      });
      expect(later.headers['webhook-signature'].split(' ')).toHaveLength(1);
      expect(new Webhook(fresh).verify(later.body, later.headers)).toMatchObject({ type: 'ping' });
      expect(() => new Webhook(ep.secret).verify(later.body, later.headers)).toThrow();
    } finally {
      t.clock.reset();
    }
  });

  it('replays every matching event since a time, with the original ids and bodies', async () => {
    const before = await vendor('Before replay');
    await new Promise((ok) => setTimeout(ok, 20));
    const since = new Date().toISOString();
    const a = await vendor('Replay A');
    const b = await vendor('Replay B');
    const r = await receiver();
    const ep = await endpoint(r.url, { enabledEvents: ['vendor.created'] });
    const res = await t.api.post(`/v1/webhook-endpoints/${ep.id}/replay`, { since }, { token: shop.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ replayed: 2, skippedDelivered: 0, truncated: false });
    await eventually(async () => expect(r.received).toHaveLength(2), 5000, 20);
    const ids = r.bodies().map((x) => x.data.object._id);
    expect(ids.sort()).toEqual([a._id, b._id].sort());
    expect(ids).not.toContain(before._id);
    const stored = await t.api.get(`/v1/events?type=vendor.created&since=${since}`, { token: shop.token });
    for (const got of r.received) {
      const polled = stored.body.events.find((e: any) => e.id === got.headers['webhook-id']);
      expect(JSON.stringify(polled)).toBe(got.body);
    }
    const bad = await t.api.post(
      `/v1/webhook-endpoints/${ep.id}/replay`,
      { since: 'yesterday' },
      { token: shop.token },
    );
    expect(bad.status).toBe(422);
  });

  it("another shop's endpoints, deliveries and events answer 404", async () => {
    const r = await receiver();
    const ep = await endpoint(r.url);
    const ping = await t.api.post(`/v1/webhook-endpoints/${ep.id}/test`, {}, { token: shop.token });
    await eventually(async () => expect(r.withId(ping.body.eventId)).toHaveLength(1));
    const o = { token: other.token };
    expect((await t.api.get(`/v1/webhook-endpoints/${ep.id}`, o)).status).toBe(404);
    expect((await t.api.patch(`/v1/webhook-endpoints/${ep.id}`, { description: 'x' }, o)).status).toBe(404);
    expect((await t.api.delete(`/v1/webhook-endpoints/${ep.id}`, o)).status).toBe(404);
    expect((await t.api.get(`/v1/webhook-endpoints/${ep.id}/deliveries`, o)).status).toBe(404);
    expect((await t.api.post(`/v1/webhook-endpoints/${ep.id}/rotate-secret`, {}, o)).status).toBe(404);
    expect((await t.api.post(`/v1/webhook-endpoints/${ep.id}/test`, {}, o)).status).toBe(404);
    expect(
      (await t.api.post(`/v1/webhook-endpoints/${ep.id}/deliveries/${ping.body.deliveryId}/retry`, {}, o))
        .status,
    ).toBe(404);
    expect((await t.api.get(`/v1/events/${ping.body.eventId}`, o)).status).toBe(404);
    expect((await t.api.get('/v1/events?limit=250', o)).body.events).toEqual([]);
    expect((await t.api.get('/v1/webhook-endpoints', o)).body).toEqual({
      total: 0,
      nextOffset: null,
      endpoints: [],
    });
    expect((await t.api.get('/v1/webhook-endpoints/not-an-id', { token: shop.token })).status).toBe(404);
    expect((await t.api.get('/v1/events/evt_nope', { token: shop.token })).status).toBe(404);
  });

  it('retries a delivery by hand with the same webhook-id', async () => {
    const r = await receiver();
    const ep = await endpoint(r.url);
    const ping = await t.api.post(`/v1/webhook-endpoints/${ep.id}/test`, {}, { token: shop.token });
    await eventually(async () => expect(r.withId(ping.body.eventId)).toHaveLength(1));
    const retried = await t.api.post(
      `/v1/webhook-endpoints/${ep.id}/deliveries/${ping.body.deliveryId}/retry`,
      {},
      { token: shop.token },
    );
    expect(retried.status).toBe(200);
    await eventually(async () => expect(r.withId(ping.body.eventId)).toHaveLength(2));
    expect(r.withId(ping.body.eventId)[1].body).toBe(r.withId(ping.body.eventId)[0].body);
  });

  it('a merchant token manages V2 endpoints; a vendor token gets 403', async () => {
    const r = await receiver();
    const m = { token: mk.token };
    const created = await t.api.post('/v2/webhook-endpoints', { url: r.url, description: 'ERP' }, m);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      success: true,
      data: { url: r.url, enabledEvents: ['*'], status: 'enabled' },
    });
    expect(created.body.data.secret).toMatch(/^whsec_/);
    const id = created.body.data.id;
    const got = await t.api.get(`/v2/webhook-endpoints/${id}`, m);
    expect(got.body.data).not.toHaveProperty('secret');
    const patched = await t.api.patch(`/v2/webhook-endpoints/${id}`, { enabledEvents: ['user.created'] }, m);
    expect(patched.body.data.enabledEvents).toEqual(['user.created']);
    const rotated = await t.api.post(`/v2/webhook-endpoints/${id}/rotate-secret`, {}, m);
    expect(rotated.body.data.secret).toMatch(/^whsec_/);
    const list = await t.api.get('/v2/webhook-endpoints', m);
    expect(list.body.data.endpoints.map((e: any) => e.id)).toContain(id);
    // the same resource through v1
    expect((await t.api.get(`/v1/webhook-endpoints/${id}`, { token: shop.token })).status).toBe(200);
    expect((await t.api.get('/v1/webhook-endpoints', m)).status).toBe(403);
    expect((await t.api.delete(`/v2/webhook-endpoints/${id}`, m)).body).toEqual({
      success: true,
      data: { id, deleted: true },
    });
    expect((await t.api.get(`/v2/webhook-endpoints/${id}`, m)).status).toBe(404);

    const v = await vendor('Portal');
    const vt = { token: await vendorToken(t, shop, v._id) };
    expect((await t.api.get('/v2/webhook-endpoints', vt)).status).toBe(403);
    expect((await t.api.post('/v2/webhook-endpoints', { url: r.url }, vt)).status).toBe(403);
    expect((await t.api.get('/v1/webhook-endpoints', vt)).status).toBe(403);
    expect((await t.api.get('/v1/events', vt)).status).toBe(403);
  });

  it('validates bodies (422) and allows at most 16 endpoints per shop', async () => {
    const s = await createShop(t, 'events-cap');
    const r = await receiver();
    const post = (body: unknown) => t.api.post('/v1/webhook-endpoints', body, { token: s.token });
    expect((await post({ url: r.url, enabledEvents: ['vendor.nope'] })).status).toBe(422);
    expect((await post({ url: r.url, enabledEvents: [] })).status).toBe(422);
    expect((await post({ url: 'ftp://example.com/x' })).status).toBe(422);
    expect((await post({})).status).toBe(422);
    for (let i = 0; i < 16; i++) expect((await post({ url: r.url })).status).toBe(200);
    const over = await post({ url: r.url });
    expect(over.status).toBe(422);
    expect(over.body.error).toContain('16');
  });
});
