import { startApp, TestApp } from '../support/app';
import { createVendor } from '../support/catalog';
import { createShop, TestShop } from '../support/factory';
import { deliver, nextVersion, sendWebhook, shopifyOrder, shopifyProduct } from '../support/webhooks';

/**
 * Issue 18, item 5: the HMAC covers the body, not the topic header. A captured signed body re-posted
 * under another topic is refused with 400, stored as `rejected` and changes nothing.
 */
describe('security: a body must fit its topic (e2e)', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;

  const productIds = async (s: TestShop = shop) =>
    (
      (await t.api.get('/v1/products?limit=250', { token: s.token })).body.products as Array<{
        productId: number;
      }>
    ).map((p) => p.productId);
  const deliveries = (q: string, s: TestShop = shop) =>
    t.api.get(`/v1/webhooks/deliveries${q}`, { token: s.token });

  beforeAll(async () => {
    t = await startApp();
    shop = await createShop(t, 'sec-topic');
    other = await createShop(t, 'sec-topic-other');
    await createVendor(t, shop, 'Topic Vendor');
  });
  afterAll(() => t.close());

  it('a full product body replayed as products/delete → 400, rejected, the product still there', async () => {
    const p = shopifyProduct({ title: 'Keep me', vendor: 'Topic Vendor' });
    await deliver(t, shop, 'products/create', p);
    expect(await productIds()).toContain(String(p.id));

    // The attacker captured the signed products/create body and re-posts it under a new webhook id.
    const forged = await sendWebhook(t, shop, 'products/delete', p);
    expect(forged.status).toBe(400);
    expect(forged.body).toEqual({
      error: expect.stringMatching(/^The body does not fit the topic products\/delete: it carries `title`/),
    });
    await new Promise((r) => setTimeout(r, 500)); // nothing is queued, but give a worker the chance
    expect(await productIds()).toContain(String(p.id));

    const rejected = await deliveries('?state=rejected');
    expect(rejected.status).toBe(200);
    expect(rejected.body.deliveries).toEqual([
      expect.objectContaining({
        topic: 'products/delete',
        webhookId: forged.webhookId,
        state: 'rejected',
        attempts: 0,
        lastError: expect.stringContaining('does not fit the topic'),
      }),
    ]);
    // never retried: only failed deliveries can be
    const retry = await t.api.post(
      `/v1/webhooks/deliveries/${rejected.body.deliveries[0].id}/retry`,
      undefined,
      {
        token: shop.token,
      },
    );
    expect(retry.status).toBe(409);
    expect(await productIds()).toContain(String(p.id));
    // the other shop sees none of it
    expect((await deliveries('?state=rejected', other)).body.total).toBe(0);
    expect(
      (await t.api.get(`/v1/webhooks/deliveries/${rejected.body.deliveries[0].id}`, { token: other.token }))
        .status,
    ).toBe(404);

    // The genuine delete payload still works.
    await deliver(t, shop, 'products/delete', { id: p.id });
    expect(await productIds()).not.toContain(String(p.id));
  });

  it('an order without cancelled_at under orders/cancelled → 400, the order stays open', async () => {
    const order = shopifyOrder({
      financialStatus: 'paid',
      lineItems: [{ sku: 'T-1', vendor: 'Topic Vendor', price: '10.00', quantity: 1 }],
    });
    await deliver(t, shop, 'orders/create', order);
    const replay = nextVersion(order, {});
    const res = await sendWebhook(t, shop, 'orders/cancelled', replay);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/orders\/cancelled: it has no `cancelled_at`/);
    const lines = await t.api.get(`/v1/orders/${order.id}?lineItems=true`, { token: shop.token });
    expect(lines.body.orders[0]).toMatchObject({ cancelled: false });
  });

  it('a product body under orders/create, and an order under products/update → 400', async () => {
    const p = shopifyProduct({ title: 'Not an order' });
    expect((await sendWebhook(t, shop, 'orders/create', p)).status).toBe(400);
    const order = shopifyOrder({
      lineItems: [{ sku: 'T-2', vendor: 'Topic Vendor', price: '1.00', quantity: 1 }],
    });
    expect((await sendWebhook(t, shop, 'products/update', order)).status).toBe(400);
    expect(await productIds()).not.toContain(String(p.id));
  });
});
