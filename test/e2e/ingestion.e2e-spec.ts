/* eslint-disable @typescript-eslint/no-explicit-any */
import { calculateLineItem, DEFAULT_MONEY_SETTINGS, splitShipping } from '../../src/common/money';
import { startApp, TestApp } from '../support/app';
import { createVendor, uploadSkus } from '../support/catalog';
import { createShop, TestShop } from '../support/factory';
import {
  deliver,
  eventually,
  nextVersion,
  platformId,
  sendWebhook,
  shopifyFulfillment,
  shopifyOrder,
  signWebhook,
  waitForWebhooks,
} from '../support/webhooks';

jest.setTimeout(60_000);

const strip = (items: Array<Record<string, unknown>>) =>
  items.map(({ updatedAt: _u, ...rest }) => rest).sort((a, b) => Number(a.lineItemId) - Number(b.lineItemId));

describe('store-platform webhook ingestion (e2e)', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;
  let acme: { _id: string };
  let globex: { _id: string };

  beforeAll(async () => {
    t = await startApp();
    shop = await createShop(t, 'ingest');
    other = await createShop(t, 'ingest-other');
    acme = await createVendor(t, shop, 'Acme Apparel', {
      commissionType: 'percentage',
      commissionAmount: 10,
    });
    globex = await createVendor(t, shop, 'globex', { commissionType: 'flat', commissionAmount: 2 });
    await uploadSkus(t, shop, [
      { sku: 'ACME-SKU-14', commissionType: 'percentage', commissionRate: 14, costOfGoods: 3.5 },
    ]);
  });
  afterAll(() => t.close());

  const lineItemsOf = async (s: TestShop, orderId: number) =>
    t.api.get(`/v1/orders/${orderId}?lineItems=true`, { token: s.token });

  it('ingests a signed orders/create; line items carry the engine’s figures', async () => {
    const order = shopifyOrder({
      financialStatus: 'paid',
      shipping: ['9.99'],
      note: 'Leave at the door',
      lineItems: [
        {
          sku: 'PLAIN-1',
          vendor: 'ACME apparel',
          price: '19.99',
          quantity: 3,
          discounts: ['5.00'],
          taxes: ['4.50'],
        },
        { sku: 'ACME-SKU-14', vendor: 'Acme Apparel ', price: '50.00', quantity: 2 },
        { sku: 'G-1', vendor: 'Globex', price: '7.25', quantity: 4 },
        { sku: 'NOBODY-1', vendor: 'Unknown Maker', price: '12.00', quantity: 1 },
      ],
    });
    const res = await sendWebhook(t, shop, 'orders/create', order);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      received: true,
      duplicate: false,
      ignored: false,
      deliveryId: expect.any(String),
    });
    await waitForWebhooks(t, shop, [res.webhookId]);

    const got = await lineItemsOf(shop, order.id);
    expect(got.status).toBe(200);
    expect(got.body.orders).toHaveLength(4);
    const byId = new Map<number, Record<string, any>>(got.body.orders.map((l: any) => [l.lineItemId, l]));
    const shares = splitShipping('9.99', [59.97, 100, 29, 12]);
    const expected = [
      calculateLineItem(
        {
          price: '19.99',
          quantity: 3,
          discounts: ['5.00'],
          taxes: ['4.50'],
          shipping: shares[0],
          rate: { source: 'vendor', type: 'percentage', amount: 10 },
          costOfGoods: null,
        },
        DEFAULT_MONEY_SETTINGS,
      ),
      calculateLineItem(
        {
          price: '50.00',
          quantity: 2,
          shipping: shares[1],
          rate: { source: 'sku', type: 'percentage', amount: 14 },
          costOfGoods: 3.5,
        },
        DEFAULT_MONEY_SETTINGS,
      ),
      calculateLineItem(
        {
          price: '7.25',
          quantity: 4,
          shipping: shares[2],
          rate: { source: 'vendor', type: 'flat', amount: 2 },
          costOfGoods: null,
        },
        DEFAULT_MONEY_SETTINGS,
      ),
      calculateLineItem(
        { price: '12.00', quantity: 1, shipping: shares[3], rate: null, costOfGoods: null },
        DEFAULT_MONEY_SETTINGS,
      ),
    ];
    order.line_items.forEach((l: any, i: number) => {
      expect(byId.get(l.id)).toMatchObject({ ...expected[i], orderId: order.id, lineItemId: l.id, paid: 0 });
    });
    expect(byId.get(order.line_items[0].id)).toMatchObject({
      vendorId: acme._id,
      vendorName: 'acme apparel',
      commission: 5.5,
      commissionPlan: 'vendor:percentage:10',
      balance: expected[0].payout,
      payoutStatus: 'unpaid',
      financialStatus: 'paid',
      frozen: false,
      fulfillmentStatus: 'unfulfilled',
      profit: 54.97,
    });
    expect(byId.get(order.line_items[1].id)).toMatchObject({
      commissionPlan: 'sku:percentage:14',
      costOfItem: 7,
      commission: 14,
    });
    expect(byId.get(order.line_items[2].id)).toMatchObject({
      vendorId: globex._id,
      commission: 8,
      commissionPlan: 'vendor:flat:2',
    });
    expect(byId.get(order.line_items[3].id)).toMatchObject({
      vendorId: null,
      vendorName: 'unknown maker',
      commission: 0,
      commissionPlan: null,
    });
    expect(shares.reduce((a, b) => a + b, 0)).toBeCloseTo(9.99, 10);

    const raw = await t.api.get(`/v1/orders/${order.id}`, { token: shop.token });
    expect(raw.status).toBe(200);
    expect(raw.body.orders).toMatchObject({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      orderId: order.id,
      orderNumber: order.order_number,
      shopId: shop.shopId,
      name: order.name,
      note: 'Leave at the door',
      line_items: expect.any(Array),
    });
  });

  it.each([
    ['a wrong signature', (body: string) => ({ hmac: signWebhook('whsec_wrong', body) })],
    ['no signature', () => ({ hmac: null })],
    ['garbage in the signature', () => ({ hmac: 'not base64 at all!' })],
    ["another shop's secret", (body: string) => ({ hmac: signWebhook(other.webhookSecret, body) })],
    ['an unknown shop domain', () => ({ shopDomain: 'nobody-here.myshopify.com' })],
  ])('refuses %s with 401 and stores nothing', async (_name, opts) => {
    const order = shopifyOrder({
      lineItems: [{ sku: 'X', vendor: 'acme apparel', price: '1.00', quantity: 1 }],
    });
    const body = JSON.stringify(order);
    const res = await sendWebhook(t, shop, 'orders/create', order, { rawBody: body, ...opts(body) });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'Webhook signature verification failed' });
    const stored = await t.api.get(`/v1/webhooks/deliveries?limit=250`, { token: shop.token });
    expect(stored.body.deliveries.map((d: any) => d.webhookId)).not.toContain(res.webhookId);
    await new Promise((r) => setTimeout(r, 200));
    expect((await t.api.get(`/v1/orders/${order.id}`, { token: shop.token })).status).toBe(404);
  });

  it('verifies the signature over the raw bytes (a re-serialised body does not pass)', async () => {
    const order = shopifyOrder({ lineItems: [{ sku: 'X', price: '1.00', quantity: 1 }] });
    const pretty = JSON.stringify(order, null, 2);
    const res = await sendWebhook(t, shop, 'orders/create', order, {
      rawBody: pretty,
      hmac: signWebhook(shop.webhookSecret, JSON.stringify(order)),
    });
    expect(res.status).toBe(401);
    const ok = await sendWebhook(t, shop, 'orders/create', order, {
      rawBody: pretty,
      hmac: signWebhook(shop.webhookSecret, pretty),
    });
    expect(ok.status).toBe(200);
    await waitForWebhooks(t, shop, [ok.webhookId]);
  });

  it('acknowledges a replayed webhook id without processing it again', async () => {
    const order = shopifyOrder({
      lineItems: [{ sku: 'R-1', vendor: 'acme apparel', price: '10.00', quantity: 1 }],
    });
    const webhookId = await deliver(t, shop, 'orders/create', order);
    // Same delivery id, different (newer) content: must be ignored.
    const changed = nextVersion(order, { line_items: [{ ...order.line_items[0], quantity: 9 }] });
    const again = await sendWebhook(t, shop, 'orders/updated', changed, { webhookId });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ received: true, duplicate: true, ignored: false, deliveryId: null });
    await new Promise((r) => setTimeout(r, 300));
    const got = await lineItemsOf(shop, order.id);
    expect(got.body.orders[0]).toMatchObject({ quantity: 1, sales: 10 });
  });

  it('orders/updated changes quantities and figures; replaying the same versions leaves identical data', async () => {
    const order = shopifyOrder({
      shipping: ['5.00'],
      lineItems: [
        { sku: 'U-1', vendor: 'acme apparel', price: '20.00', quantity: 1 },
        { sku: 'U-2', vendor: 'globex', price: '10.00', quantity: 1 },
      ],
    });
    await deliver(t, shop, 'orders/create', order);
    const updated = nextVersion(order, {
      line_items: [{ ...order.line_items[0], quantity: 3 }, order.line_items[1]],
    });
    await deliver(t, shop, 'orders/updated', updated);
    const after = (await lineItemsOf(shop, order.id)).body.orders;
    const first = after.find((l: any) => l.lineItemId === order.line_items[0].id);
    expect(first).toMatchObject({ quantity: 3, sales: 60, commission: 6, payout: 54 });
    const second = after.find((l: any) => l.lineItemId === order.line_items[1].id);
    // Shipping is re-split on the new sales (60 : 10).
    expect(first.shipping + second.shipping).toBeCloseTo(5, 10);
    expect(first.shipping).toBe(4.29);

    // Replays (new delivery ids) of both versions, in any order: identical data.
    await deliver(t, shop, 'orders/create', order);
    await deliver(t, shop, 'orders/updated', updated);
    await deliver(t, shop, 'orders/create', order);
    const replayed = (await lineItemsOf(shop, order.id)).body.orders;
    expect(strip(replayed)).toEqual(strip(after));
  });

  it('an older version arriving late never overwrites a newer one', async () => {
    const v1 = shopifyOrder({
      financialStatus: 'pending',
      lineItems: [{ sku: 'O-1', vendor: 'acme apparel', price: '10.00', quantity: 1 }],
    });
    const v2 = nextVersion(v1, {
      financial_status: 'paid',
      line_items: [{ ...v1.line_items[0], quantity: 2 }],
    });
    await deliver(t, shop, 'orders/paid', v2);
    await deliver(t, shop, 'orders/create', v1);
    const got = (await lineItemsOf(shop, v1.id)).body.orders;
    expect(got[0]).toMatchObject({ quantity: 2, financialStatus: 'paid' });
    const raw = await t.api.get(`/v1/orders/${v1.id}`, { token: shop.token });
    expect(raw.body.orders.financial_status).toBe('paid');
  });

  it('orders/paid and orders/cancelled update the order context', async () => {
    const order = shopifyOrder({
      lineItems: [{ sku: 'C-1', vendor: 'acme apparel', price: '10.00', quantity: 1 }],
    });
    await deliver(t, shop, 'orders/create', order);
    const paid = nextVersion(order, { financial_status: 'paid' });
    await deliver(t, shop, 'orders/paid', paid);
    expect((await lineItemsOf(shop, order.id)).body.orders[0]).toMatchObject({
      financialStatus: 'paid',
      cancelled: false,
    });
    const cancelled = nextVersion(paid, {
      financial_status: 'refunded',
      cancelled_at: new Date().toISOString(),
    });
    await deliver(t, shop, 'orders/cancelled', cancelled);
    expect((await lineItemsOf(shop, order.id)).body.orders[0]).toMatchObject({
      financialStatus: 'refunded',
      cancelled: true,
    });
  });

  it('fulfillments/create and /update record tracking and shipment status on the covered lines', async () => {
    const order = shopifyOrder({
      financialStatus: 'paid',
      lineItems: [
        { sku: 'F-1', vendor: 'acme apparel', price: '10.00', quantity: 1 },
        { sku: 'F-2', vendor: 'acme apparel', price: '10.00', quantity: 1 },
      ],
    });
    await deliver(t, shop, 'orders/create', order);
    const f = shopifyFulfillment({
      orderId: order.id,
      lineItemIds: [order.line_items[0].id],
      shipmentStatus: null,
    });
    await deliver(t, shop, 'fulfillments/create', f);
    let lines = (await lineItemsOf(shop, order.id)).body.orders;
    const covered = lines.find((l: any) => l.lineItemId === order.line_items[0].id);
    const untouched = lines.find((l: any) => l.lineItemId === order.line_items[1].id);
    expect(covered).toMatchObject({
      fulfillmentStatus: 'fulfilled',
      fulfillment: {
        status: 'success',
        trackingCompany: 'UPS',
        trackingNumber: '1Z999AA10123456784',
        shipmentStatus: null,
      },
    });
    expect(untouched).toMatchObject({ fulfillmentStatus: 'unfulfilled', fulfillment: null });

    await deliver(t, shop, 'fulfillments/update', {
      ...f,
      shipment_status: 'delivered',
      updated_at: new Date().toISOString(),
    });
    lines = (await lineItemsOf(shop, order.id)).body.orders;
    expect(lines.find((l: any) => l.lineItemId === order.line_items[0].id).fulfillment).toMatchObject({
      shipmentStatus: 'delivered',
      deliveredAt: expect.any(String),
    });
  });

  it('a payload that can never be processed fails at once and stays inspectable', async () => {
    const res = await sendWebhook(t, shop, 'orders/create', { id: 'not-a-number', line_items: 'nope' });
    expect(res.status).toBe(200);
    const delivery = await eventually(async () => {
      const d = await t.api.get(`/v1/webhooks/deliveries/${res.body.deliveryId}`, { token: shop.token });
      expect(d.body.state).toBe('failed');
      return d.body;
    });
    expect(delivery).toMatchObject({
      attempts: 1,
      topic: 'orders/create',
      webhookId: res.webhookId,
      lastError: expect.stringContaining('order id must be a positive integer id'),
      payload: { id: 'not-a-number', line_items: 'nope' },
    });
  });

  it('acknowledges topics it does not process, and requires the topic header', async () => {
    const res = await sendWebhook(t, shop, 'customers/create', { id: 1 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ received: true, duplicate: false, ignored: true, deliveryId: null });
    const noTopic = await t.api.request('POST', '/webhooks/shopify', undefined, {
      raw: '{"id":1}',
      headers: {
        'x-shopify-shop-domain': shop.shopDomain,
        'x-shopify-hmac-sha256': signWebhook(shop.webhookSecret, '{"id":1}'),
      },
    });
    expect(noTopic.status).toBe(422);
  });

  it('another shop sees none of it', async () => {
    const order = shopifyOrder({
      id: platformId(),
      lineItems: [{ sku: 'Z', vendor: 'acme apparel', price: '1.00', quantity: 1 }],
    });
    await deliver(t, shop, 'orders/create', order);
    expect((await t.api.get(`/v1/orders/${order.id}`, { token: other.token })).status).toBe(404);
    expect((await lineItemsOf(other, order.id)).status).toBe(404);
    expect((await t.api.get('/v1/orders/not-a-number', { token: shop.token })).status).toBe(404);
    expect((await t.api.get(`/v1/orders/${order.id}?lineItems=maybe`, { token: shop.token })).status).toBe(
      422,
    );
  });
});
