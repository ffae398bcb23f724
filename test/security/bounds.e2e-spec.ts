import { startApp, TestApp } from '../support/app';
import { createMerchantKey, createShop, TestMerchantKey, TestShop, uniqueDomain } from '../support/factory';
import { createVendor, seedOrder } from '../support/payout-fixtures';
import { sendWebhook, shopifyOrder, waitForWebhooks } from '../support/webhooks';

const OUT_OF_BOUNDS = [1e300, 1.001, -2e9];

/**
 * Issue 18, items 4 and 6: writable money fields are bounded, a fulfillment request touches at most
 * 50 orders, and made-up webhook shop domains cost a bounded number of database reads.
 */
describe('security: bounded input and bounded work (e2e)', () => {
  let t: TestApp;
  let shop: TestShop;
  let mk: TestMerchantKey;
  let vendor: { _id: string; vendorName: string };
  let line: { orderId: number; lineItemId: number };

  beforeAll(async () => {
    t = await startApp();
    shop = await createShop(t, 'sec-bounds');
    mk = await createMerchantKey(t, shop);
    vendor = await createVendor(t, shop, 'Bounds Vendor');
    const o = await seedOrder(t, shop, {
      createdAt: new Date('2025-06-01T10:00:00Z'),
      lines: [{ vendor: vendor.vendorName, price: 10, sku: 'BOUNDS-1' }],
    });
    line = { orderId: o.orderId, lineItemId: o.lineItemIds[0] };
  });
  afterAll(() => t.close());

  it.each(OUT_OF_BOUNDS)('line item figures: %p → 422, nothing written', async (value) => {
    // The row as the API shows it, without `updatedAt`: the events sweeper may clear the order's
    // pending-event marker on the row meanwhile (a write unrelated to the refused update).
    const read = async () => {
      const res = await t.api.get(`/v1/orders/${line.orderId}?lineItems=true`, { token: shop.token });
      const row = { ...res.body.orders[0] };
      delete row.updatedAt;
      return { body: { orders: [row] } };
    };
    const before = (await read()).body.orders[0];
    const items = await t.api.post(
      '/v1/lineitems/update',
      { items: [{ ...line, fields: { payout: value } }] },
      { token: shop.token },
    );
    expect(items.status).toBe(422);
    const bySku = await t.api.post(
      '/v1/lineitems/update',
      { bySku: 'BOUNDS-1', fields: { costOfItem: value } },
      { token: shop.token },
    );
    expect(bySku.status).toBe(422);
    expect((await read()).body.orders[0]).toEqual(before);
  });

  it('line item figures at the bounds are accepted', async () => {
    const res = await t.api.post(
      '/v1/lineitems/update',
      { items: [{ ...line, fields: { deduction: -1_000_000_000, tax: 1_000_000_000, shipping: 0.01 } }] },
      { token: shop.token },
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, updated: 1, matched: 1 });
  });

  it.each(OUT_OF_BOUNDS)('adjustments, vendor commissions: %p → 422', async (value) => {
    const adj = await t.api.post(
      '/v2/payout-adjustments',
      { vendorId: vendor._id, amount: value, type: 'ADDITION' },
      { token: mk.token },
    );
    expect(adj.status).toBe(422);
    expect(adj.body).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } });
    const v1 = await t.api.post(
      '/v1/vendors',
      { vendorName: `bounds ${value}`, commissionType: 'flat', commissionAmount: value },
      { token: shop.token },
    );
    expect(v1.status).toBe(422);
    const put = await t.api.put(
      `/v1/vendors/${vendor._id}`,
      { commissionAmount: value },
      { token: shop.token },
    );
    expect(put.status).toBe(422);
    const v2 = await t.api.patch(
      `/v2/vendors/${vendor._id}`,
      { commissionAmount: value },
      { token: mk.token },
    );
    expect(v2.status).toBe(422);
    const sku = await t.api.post(
      '/v1/commissions/sku',
      { skus: [{ sku: 'BOUNDS-2', commissionType: 'flat', commissionRate: 1, costOfGoods: value }] },
      { token: shop.token },
    );
    expect(sku.body).toMatchObject({ success: false, errors: [{ sku: 'BOUNDS-2' }] });
  });

  it('a fulfillment request spanning 51 orders → 422 and claims nothing; 50 orders are accepted', async () => {
    const orders = Array.from({ length: 51 }, () =>
      shopifyOrder({
        financialStatus: 'paid',
        lineItems: [{ vendor: vendor.vendorName, price: '5.00', quantity: 1 }],
      }),
    );
    const sent = await Promise.all(orders.map((o) => sendWebhook(t, shop, 'orders/create', o)));
    await waitForWebhooks(
      t,
      shop,
      sent.map((s) => s.webhookId),
      60_000,
    );
    const ids: string[] = [];
    for (const o of orders) {
      const res = await t.api.get(`/v1/orders/${o.id}?lineItems=true`, { token: shop.token });
      ids.push(res.body.orders[0]._id);
    }
    const body = (lineItemsToFulfill: string[]) => ({
      trackingNumber: '1Z51',
      shippingCarrier: 'UPS',
      trackingUrl: 'https://ups.example/1Z51',
      lineItemsToFulfill,
    });
    const tooMany = await t.api.post('/v1/fulfillments', body(ids), { token: shop.token });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.error).toMatch(/51 orders; at most 50 orders per request/);
    // nothing was left claimed: the first 50 can be fulfilled at once
    const ok = await t.api.post('/v1/fulfillments', body(ids.slice(0, 50)), { token: shop.token });
    expect(ok.status).toBe(200);
    expect(ok.body.fulfillments.every((f: { type: string }) => f.type === 'success')).toBe(true);
  });

  it('made-up webhook shop domains: 401 each, then 429 for the address; a known shop still gets through', async () => {
    const fake = { shopId: shop.shopId, shopDomain: '', webhookSecret: 'whsec_guess' };
    const statuses: number[] = [];
    for (let i = 0; i < 32; i++) {
      const res = await sendWebhook(
        t,
        fake,
        'orders/create',
        { id: 1, line_items: [] },
        { shopDomain: uniqueDomain('ghost') },
      );
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 30)).toEqual(Array(30).fill(401));
    expect(statuses.slice(30)).toEqual([429, 429]);
    const limited = await sendWebhook(
      t,
      fake,
      'orders/create',
      { id: 1, line_items: [] },
      { shopDomain: uniqueDomain('ghost') },
    );
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // a domain already found unknown answers 401 from memory, not 429: no read was needed
    // and the real shop's deliveries are unaffected
    const real = await sendWebhook(
      t,
      shop,
      'orders/create',
      shopifyOrder({ lineItems: [{ vendor: vendor.vendorName, price: '1.00', quantity: 1 }] }),
    );
    expect(real.status).toBe(200);
  });
});
