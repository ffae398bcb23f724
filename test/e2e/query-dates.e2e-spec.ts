import { startApp, TestApp } from '../support/app';
import { createMerchantKey, createShop, TestMerchantKey, TestShop } from '../support/factory';
import { createVendor } from '../support/payout-fixtures';

/**
 * Date-time parameters (`since`/`until` of the event and delivery lists, an adjustment's
 * `customItemDate`) that ISO 8601 allows but no date parser reads (week dates, ordinal dates,
 * basic format, an hour alone): once answered 404 "Resource not found" (the Invalid Date reached
 * the store as a cast error), now 422 naming the parameter, changing nothing (finding 13b).
 */
describe('date-time parameters (e2e)', () => {
  let t: TestApp;
  let shop: TestShop;
  let mk: TestMerchantKey;
  let endpointId: string;
  let vendorId: string;
  const saved = { ...process.env };

  // Each is valid ISO 8601 (class-validator's isISO8601 strict accepts it) yet Date.parse gives NaN.
  const UNREADABLE = ['2026-W48-5', '2026-W48', '2026-332', '20261127', '2026-11-27T10', '2026-11-27T1000Z'];
  const READABLE = ['2026-11-27', '2026-11-27T10:00:00Z', '2026-11-27T10:00:00.000+01:00'];

  beforeAll(async () => {
    process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';
    t = await startApp();
    shop = await createShop(t, 'qdates');
    mk = await createMerchantKey(t, shop);
    vendorId = (await createVendor(t, shop, 'Qdates Alpha'))._id;
    const ep = await t.api.post(
      '/v1/webhook-endpoints',
      { url: 'http://127.0.0.1:9/hook' },
      { token: shop.token },
    );
    expect(ep.status).toBe(200);
    endpointId = ep.body.id;
  });
  afterAll(async () => {
    await t.close();
    process.env = saved;
  });

  it.each(['since', 'until'])(
    'GET /v1/events?%s= an unreadable date-time → 422, never 404',
    async (param) => {
      for (const value of UNREADABLE) {
        const res = await t.api.get(`/v1/events?${param}=${encodeURIComponent(value)}`, {
          token: shop.token,
        });
        expect({ value, status: res.status }).toEqual({ value, status: 422 });
        expect(res.body.error).toContain(param);
      }
      for (const value of READABLE) {
        const res = await t.api.get(`/v1/events?${param}=${encodeURIComponent(value)}`, {
          token: shop.token,
        });
        expect({ value, status: res.status }).toEqual({ value, status: 200 });
      }
    },
  );

  it.each(['since', 'until'])(
    'GET /v1/webhook-endpoints/{id}/deliveries?%s= unreadable → 422',
    async (param) => {
      for (const value of UNREADABLE) {
        const res = await t.api.get(
          `/v1/webhook-endpoints/${endpointId}/deliveries?${param}=${encodeURIComponent(value)}`,
          { token: shop.token },
        );
        expect({ value, status: res.status }).toEqual({ value, status: 422 });
      }
      for (const value of READABLE) {
        const res = await t.api.get(
          `/v1/webhook-endpoints/${endpointId}/deliveries?${param}=${encodeURIComponent(value)}`,
          { token: shop.token },
        );
        expect({ value, status: res.status }).toEqual({ value, status: 200 });
      }
    },
  );

  it('an adjustment’s customItemDate that no parser reads → 422 VALIDATION_ERROR, nothing stored', async () => {
    for (const customItemDate of UNREADABLE) {
      const res = await t.api.post(
        '/v2/payout-adjustments',
        { vendorId, amount: 5, type: 'ADDITION', customItemDate },
        { token: mk.token },
      );
      expect({ customItemDate, status: res.status }).toEqual({ customItemDate, status: 422 });
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    }
    const list = await t.api.get(`/v2/payout-adjustments?vendorId=${vendorId}`, { token: mk.token });
    expect(list.status).toBe(200);
    expect(list.body.data.total).toBe(0);
    const ok = await t.api.post(
      '/v2/payout-adjustments',
      { vendorId, amount: 5, type: 'ADDITION', customItemDate: '2026-11-27T10:00:00Z' },
      { token: mk.token },
    );
    expect(ok.status).toBe(201);
  });
});
