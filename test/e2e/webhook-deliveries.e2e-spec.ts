/* eslint-disable @typescript-eslint/no-explicit-any */
import { getQueueToken } from '@nestjs/bull';
import { getModelToken } from '@nestjs/mongoose';
import type { Queue } from 'bull';
import type { Model } from 'mongoose';
import { Types } from 'mongoose';
import { shopScope } from '../../src/common/tenancy';
import { WebhookDeliveriesRepository } from '../../src/ingestion/webhook-deliveries.repository';
import { WebhookDelivery } from '../../src/ingestion/webhook-delivery.schema';
import { WebhookInbox } from '../../src/ingestion/webhook-inbox.service';
import { Queues } from '../../src/queues/jobs';
import { startApp, TestApp } from '../support/app';
import { createShop, TestShop } from '../support/factory';
import { DAY } from '../support/test-clock';
import { eventually, sendWebhook, shopifyOrder, shopifyProduct, waitForWebhooks } from '../support/webhooks';

jest.setTimeout(60_000);

describe('webhook inbox: deliveries, retry, re-drive (e2e)', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;
  let model: Model<WebhookDelivery>;
  const list = (s: TestShop, qs = '') => t.api.get(`/v1/webhooks/deliveries${qs}`, { token: s.token });
  const order = () => shopifyOrder({ lineItems: [{ sku: 'INBOX-1', price: '10.00', quantity: 1 }] });

  beforeAll(async () => {
    t = await startApp();
    shop = await createShop(t, 'inbox');
    other = await createShop(t, 'inbox-other');
    model = t.app.get(getModelToken(WebhookDelivery.name), { strict: false });
  });
  afterAll(() => t.close());
  afterEach(() => {
    t.clock.reset();
    jest.restoreAllMocks();
  });

  /** A stored delivery no job points at (as after a Redis loss), `ageMs` old. */
  async function strandedDelivery(s: TestShop, payload: unknown, ageMs: number): Promise<string> {
    const id = await t.app.get(WebhookDeliveriesRepository, { strict: false }).insert(shopScope(s.shopId), {
      shopDomain: s.shopDomain,
      topic: 'orders/create',
      webhookId: `lost-${new Types.ObjectId().toHexString()}`,
      receivedAt: new Date(Date.now() - ageMs),
      payload: JSON.stringify(payload),
    });
    return String(id);
  }

  it('stores the delivery before answering; it reads processed with attempts, result and processing time', async () => {
    const o = order();
    const res = await sendWebhook(t, shop, 'orders/create', o);
    expect(res.status).toBe(200);
    const stored = await model.collection.findOne({ _id: new Types.ObjectId(res.body.deliveryId) });
    expect(stored).toMatchObject({ webhookId: res.webhookId, topic: 'orders/create' });
    await waitForWebhooks(t, shop, [res.webhookId]);

    const detail = await t.api.get(`/v1/webhooks/deliveries/${res.body.deliveryId}`, { token: shop.token });
    expect(detail.status).toBe(200);
    expect(detail.body).toEqual({
      id: res.body.deliveryId,
      topic: 'orders/create',
      webhookId: res.webhookId,
      shopDomain: shop.shopDomain,
      state: 'processed',
      attempts: 1,
      lastError: null,
      receivedAt: expect.any(String),
      // no X-Shopify-Triggered-At sent
      triggeredAt: null,
      processedAt: expect.any(String),
      processingMs: expect.any(Number),
      result: 'created',
      failedAt: null,
      payload: o,
    });
    const page = await list(shop);
    expect(page.status).toBe(200);
    const row = page.body.deliveries.find((d: any) => d.id === res.body.deliveryId);
    expect(row).toMatchObject({ state: 'processed', result: 'created' });
    expect(row.payload).toBeUndefined();
  });

  it('a repeated webhook id is acknowledged as a duplicate and stays one delivery', async () => {
    const o = order();
    const first = await sendWebhook(t, shop, 'orders/create', o);
    const again = await sendWebhook(t, shop, 'orders/create', o, { webhookId: first.webhookId });
    expect(again.body).toMatchObject({ duplicate: true, deliveryId: null });
    expect(
      await model.collection.countDocuments({
        shopId: new Types.ObjectId(shop.shopId),
        webhookId: first.webhookId,
      }),
    ).toBe(1);
  });

  it('filters by state, topic and received day, and pages with limit/offset', async () => {
    const s = await createShop(t, 'inbox-list');
    const sent = [
      await sendWebhook(t, s, 'orders/create', order()),
      await sendWebhook(t, s, 'orders/create', order()),
      await sendWebhook(t, s, 'products/create', shopifyProduct()),
      await sendWebhook(t, s, 'orders/create', { id: 'not-a-number', line_items: 'nope' }),
    ];
    await waitForWebhooks(
      t,
      s,
      sent.slice(0, 3).map((r) => r.webhookId),
    );
    await eventually(async () => expect((await list(s, '?state=failed')).body.total).toBe(1));

    const all = await list(s);
    expect(all.body).toMatchObject({ total: 4, nextOffset: null });
    // newest first
    expect(all.body.deliveries.map((d: any) => d.id)).toEqual(sent.map((r) => r.body.deliveryId).reverse());
    const failed = (await list(s, '?state=failed')).body;
    expect(failed.deliveries[0]).toMatchObject({
      id: sent[3].body.deliveryId,
      state: 'failed',
      lastError: expect.stringContaining('order id'),
      failedAt: expect.any(String),
    });
    expect((await list(s, '?topic=products/create')).body.total).toBe(1);
    expect((await list(s, '?state=processed&topic=orders/create')).body.total).toBe(2);
    const today = new Date().toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + DAY).toISOString().slice(0, 10);
    expect((await list(s, `?start=${today}&end=${today}`)).body.total).toBe(4);
    expect((await list(s, `?start=${tomorrow}`)).body.total).toBe(0);
    const p1 = (await list(s, '?limit=3')).body;
    expect(p1).toMatchObject({ total: 4, nextOffset: 3 });
    expect(p1.deliveries).toHaveLength(3);
    const p2 = (await list(s, '?limit=3&offset=3')).body;
    expect(p2).toMatchObject({ total: 4, nextOffset: null });
    expect(p2.deliveries.map((d: any) => d.id)).toEqual([sent[0].body.deliveryId]);
    for (const bad of [
      '?state=lost',
      '?topic=customers/create',
      '?limit=0',
      '?limit=251',
      '?start=2026-02-30',
    ])
      expect((await list(s, bad)).status).toBe(422);
  });

  it('another shop sees none of it: not listed, 404 on read and retry; a malformed id is 404', async () => {
    const res = await sendWebhook(t, shop, 'orders/create', order());
    const id = res.body.deliveryId;
    expect((await list(other)).body.deliveries.map((d: any) => d.id)).not.toContain(id);
    const read = await t.api.get(`/v1/webhooks/deliveries/${id}`, { token: other.token });
    expect(read.status).toBe(404);
    expect(read.body).toEqual({ error: 'Webhook delivery not found' });
    expect(
      (await t.api.post(`/v1/webhooks/deliveries/${id}/retry`, undefined, { token: other.token })).status,
    ).toBe(404);
    expect((await t.api.get('/v1/webhooks/deliveries/not-an-id', { token: shop.token })).status).toBe(404);
    expect((await t.api.get(`/v1/webhooks/deliveries/${id}`)).status).toBe(401);
  });

  it('retries only a failed delivery (409 otherwise); a retried delivery is processed', async () => {
    const o = order();
    const id = await strandedDelivery(shop, o, 0);
    await model.collection.updateOne(
      { _id: new Types.ObjectId(id) },
      {
        $set: {
          state: 'failed',
          lastError: 'Processing failed (errorId x)',
          failedAt: new Date(),
          attempts: 8,
        },
      },
    );
    const retried = await t.api.post(`/v1/webhooks/deliveries/${id}/retry`, undefined, { token: shop.token });
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({ id, state: 'received', failedAt: null, attempts: 8 });
    await eventually(async () => {
      const d = await t.api.get(`/v1/webhooks/deliveries/${id}`, { token: shop.token });
      expect(d.body).toMatchObject({ state: 'processed', attempts: 9, lastError: null, result: 'created' });
    });
    expect((await t.api.get(`/v1/orders/${o.id}`, { token: shop.token })).status).toBe(200);
    const again = await t.api.post(`/v1/webhooks/deliveries/${id}/retry`, undefined, { token: shop.token });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ error: 'Only a failed delivery can be retried; this one is processed' });
  });

  it('the sweeper re-enqueues a delivery whose job was lost, once the grace period has passed', async () => {
    const o = order();
    const fresh = await strandedDelivery(shop, order(), 0);
    const id = await strandedDelivery(shop, o, 10 * 60_000);
    await t.app.get(WebhookInbox, { strict: false }).redrive();
    await eventually(async () => {
      const d = await t.api.get(`/v1/webhooks/deliveries/${id}`, { token: shop.token });
      expect(d.body).toMatchObject({ state: 'processed', attempts: 1 });
    });
    expect((await t.api.get(`/v1/orders/${o.id}`, { token: shop.token })).status).toBe(200);
    // within the grace period a delivery is left to its own job
    expect((await t.api.get(`/v1/webhooks/deliveries/${fresh}`, { token: shop.token })).body.state).toBe(
      'received',
    );
  });

  it('Redis refusing the job does not fail the webhook: it is stored, answered 200, and swept later', async () => {
    const queue = t.app.get<Queue>(getQueueToken(Queues.Ingestion), { strict: false });
    jest
      .spyOn(queue, 'add')
      .mockRejectedValueOnce(new Error("Stream isn't writeable and enableOfflineQueue options is false"));
    const o = order();
    const res = await sendWebhook(t, shop, 'orders/create', o);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ received: true, duplicate: false, deliveryId: expect.any(String) });
    expect((await model.collection.findOne({ _id: new Types.ObjectId(res.body.deliveryId) }))?.state).toBe(
      'received',
    );
    t.clock.advance(5 * 60_000); // past the grace period
    await t.app.get(WebhookInbox, { strict: false }).redrive();
    await waitForWebhooks(t, shop, [res.webhookId]);
    expect((await t.api.get(`/v1/orders/${o.id}`, { token: shop.token })).status).toBe(200);
  });

  it('retention purges processed deliveries past the retention period and keeps the rest', async () => {
    const s = await createShop(t, 'inbox-retention');
    const old = new Date(Date.now() - 31 * DAY);
    const base = {
      shopId: new Types.ObjectId(s.shopId),
      shopDomain: s.shopDomain,
      topic: 'orders/create',
      payload: '{}',
    };
    await model.collection.insertMany([
      { ...base, webhookId: 'old-processed', receivedAt: old, state: 'processed' },
      { ...base, webhookId: 'old-failed', receivedAt: old, state: 'failed' },
      { ...base, webhookId: 'recent-processed', receivedAt: new Date(), state: 'processed' },
    ]);
    expect(await t.app.get(WebhookInbox, { strict: false }).purge()).toBeGreaterThanOrEqual(1);
    const left = await model.collection.find({ shopId: base.shopId }).toArray();
    expect(left.map((d) => d.webhookId).sort()).toEqual(['old-failed', 'recent-processed']);
  });
});
