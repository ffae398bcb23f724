import { startApp, TestApp } from '../support/app';
import { createShop, TestShop } from '../support/factory';
import { createVendor } from '../support/payout-fixtures';
import { eventually, sendWebhook, shopifyOrder, waitForWebhooks } from '../support/webhooks';

const ORDERS = 52;
const LINES_PER_ORDER = 100;
const SKU = 'BULK-SKU-1';

/**
 * Issue 18, item 4: a by-SKU update over thousands of lines answers a bounded summary (the first
 * 100 lines) and writes the rest in a job; the job is the shop's own resource.
 */
describe('security: by-SKU updates are bounded (e2e)', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;
  let orders: Array<ReturnType<typeof shopifyOrder>>;

  beforeAll(async () => {
    // 5,200 lines of ingestion on a queue of its own: the other files' jobs never wait behind them.
    process.env.QUEUE_PREFIX = `${process.env.QUEUE_PREFIX ?? 'mp-test'}-bysku-${process.pid}`;
    t = await startApp();
    shop = await createShop(t, 'sec-bysku');
    other = await createShop(t, 'sec-bysku-other');
    const vendor = await createVendor(t, shop, 'Bulk Vendor');
    const start = Date.parse('2025-03-01T00:00:00Z');
    // Multi-line orders through the signed webhook path: 52 × 100 = 5,200 lines of one SKU.
    orders = Array.from({ length: ORDERS }, (_, i) =>
      shopifyOrder({
        createdAt: new Date(start + i * 3_600_000),
        financialStatus: 'paid',
        lineItems: Array.from({ length: LINES_PER_ORDER }, () => ({
          sku: SKU,
          vendor: vendor.vendorName,
          price: '12.00',
          quantity: 1,
        })),
      }),
    );
    for (let i = 0; i < orders.length; i += 8) {
      const sent = await Promise.all(
        orders.slice(i, i + 8).map((o) => sendWebhook(t, shop, 'orders/create', o)),
      );
      sent.forEach((s) => expect(s.status).toBe(200));
      await waitForWebhooks(
        t,
        shop,
        sent.map((s) => s.webhookId),
        120_000,
      );
    }
  }, 300_000);
  afterAll(() => t.close());

  it('answers matched/updated/jobId and at most 100 per-line results; the job writes the rest', async () => {
    const res = await t.api.post(
      '/v1/lineitems/update',
      { bySku: SKU, fields: { deduction: 1.5 } },
      { token: shop.token },
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      matched: ORDERS * LINES_PER_ORDER,
      updated: 100,
      recalculateQueued: 0,
      jobId: expect.any(String),
    });
    expect(res.body.results).toHaveLength(100);
    expect(res.body.errors).toEqual([]);
    // the first 100 lines by order date: the whole first order
    expect(new Set(res.body.results.map((r: { orderId: number }) => r.orderId))).toEqual(
      new Set([orders[0].id]),
    );
    expect(res.text.length).toBeLessThan(20_000);

    const job = await eventually(async () => {
      const j = await t.api.get(`/v1/jobs/${res.body.jobId}`, { token: shop.token });
      expect(j.body.state).toBe('completed');
      return j.body;
    }, 120_000);
    expect(job).toMatchObject({ type: 'line-item-update', total: 5100, done: 5100, failed: 0, errors: [] });
    for (const o of [orders[1], orders[ORDERS - 1]]) {
      const lines = (await t.api.get(`/v1/orders/${o.id}?lineItems=true`, { token: shop.token })).body.orders;
      expect(lines).toHaveLength(LINES_PER_ORDER);
      expect(lines.every((l: { deduction: number }) => l.deduction === 1.5)).toBe(true);
    }
    // the job is the shop's own: another shop gets 404
    expect((await t.api.get(`/v1/jobs/${res.body.jobId}`, { token: other.token })).status).toBe(404);
  }, 180_000);

  it('another shop matches none of these lines', async () => {
    const res = await t.api.post(
      '/v1/lineitems/update',
      { bySku: SKU, fields: { deduction: 2 } },
      { token: other.token },
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ matched: 0, updated: 0, jobId: null, results: [] });
  });
});
