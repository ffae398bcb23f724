/* eslint-disable @typescript-eslint/no-explicit-any */
import type { TestShop } from '../support/factory';
import { VendorOrdersFixture } from '../support/vendor-orders-fixture';

/**
 * The vendor's order list filters and counts (DESIGN §12, issue 30 part 2), for vendor tokens (own
 * part only) and shop tokens (the whole order), never across shops. One order: vendor-order-detail;
 * timeline and notes: vendor-order-timeline. The shop they read: test/support/vendor-orders-fixture.ts.
 */
describe('vendor orders: GET /orders filters and counts (e2e)', () => {
  let f: VendorOrdersFixture;
  let shop: TestShop;
  let mkToken: string;
  let acmeToken: string;
  let globexToken: string;

  beforeAll(async () => {
    f = await VendorOrdersFixture.start();
    ({ shop, mkToken, acmeToken, globexToken } = f);
  });
  afterAll(() => f.t.close());

  const get = (path: string, token: string) => f.get(path, token);
  const byKey = (key: string) => f.byKey(key);
  const ids = (res: any, key?: string) => f.ids(res, key);
  const idsOf = (...keys: string[]) => f.idsOf(...keys);
  const expectedCounts = (vendor?: 'Acme' | 'Globex') => f.expectedCounts(vendor);
  const at = (minutes: number) => VendorOrdersFixture.at(minutes);

  describe('GET /orders filters', () => {
    it.each([
      ['fulfillmentStatus=partial', ['o1']],
      ['fulfillmentStatus=unfulfilled', ['o2']],
      ['fulfillmentStatus=fulfilled', ['o4']],
      ['financialStatus=pending', ['o2']],
      ['financialStatus=paid', ['o1', 'o3', 'o4']],
      [`createdAtMin=${encodeURIComponent(at(2).toISOString())}`, ['o2', 'o3', 'o4']],
      [`createdAtMax=${encodeURIComponent(at(2).toISOString())}`, ['o1', 'o2']],
      ['createdAtMin=2026-01-05&createdAtMax=2026-01-05', []],
      [
        `createdAtMin=${encodeURIComponent(at(2).toISOString())}&createdAtMax=${encodeURIComponent(at(3).toISOString())}`,
        ['o2', 'o3'],
      ],
      ['financialStatus=paid&fulfillmentStatus=fulfilled', ['o4']],
      [
        `financialStatus=paid&fulfillmentStatus=partial&createdAtMax=${encodeURIComponent(at(1).toISOString())}`,
        ['o1'],
      ],
      ['financialStatus=pending&fulfillmentStatus=fulfilled', []],
    ])('vendor token, %s', async (query, keys) => {
      for (const path of ['/orders', '/v2/orders']) {
        const res = await get(`${path}?${query}`, acmeToken);
        expect(res.status).toBe(200);
        expect(ids(res)).toEqual(idsOf(...keys));
        expect(res.body.data.totalCount).toBe(keys.length);
      }
    });

    it('search by order number (#1001 or 1001) and by exact name, alone and with dates', async () => {
      const o2 = byKey('o2').order;
      const o4 = byKey('o4').order;
      expect(ids(await get(`/orders?search=${encodeURIComponent(o2.name)}`, acmeToken))).toEqual([o2.id]);
      expect(ids(await get(`/orders?search=${o2.order_number}`, acmeToken))).toEqual([o2.id]);
      expect(ids(await get(`/orders?search=${encodeURIComponent(o4.name)}`, acmeToken))).toEqual([o4.id]);
      expect(ids(await get(`/orders?search=${o4.order_number}`, acmeToken))).toEqual([o4.id]);
      const late = encodeURIComponent(at(3).toISOString());
      expect(ids(await get(`/orders?search=${o2.order_number}&createdAtMin=${late}`, acmeToken))).toEqual([]);
      // another vendor's order is not found by its number
      expect(ids(await get(`/orders?search=${byKey('o5').order.order_number}`, acmeToken))).toEqual([]);
      expect(ids(await get('/orders?search=nope', acmeToken))).toEqual([]);
    });

    it('a shop token filters the whole shop on /v2/orders', async () => {
      const res = await get('/v2/orders?fulfillmentStatus=unfulfilled', shop.token);
      expect(res.status).toBe(200);
      expect(ids(res, 'orders')).toEqual(idsOf('o2', 'o5'));
      expect(ids(await get('/v2/orders?fulfillmentStatus=partial', shop.token), 'orders')).toEqual(
        idsOf('o1'),
      );
    });

    it.each([
      'fulfillmentStatus=shipped',
      'financialStatus=whatever',
      'createdAtMin=2026-W02',
      'createdAtMax=yesterday',
      'createdAtMin=2026-01-06&createdAtMax=2026-01-05',
      'search=1001&fulfillmentStatus=fulfilled',
      'search=1001&financialStatus=paid',
      `search=${'x'.repeat(65)}`,
    ])('%s → 422', async (query) => {
      const res = await get(`/orders?${query}`, acmeToken);
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    });
  });

  describe('GET /orders/counts', () => {
    it('counts the vendor’s orders by its own lines, disjoint, equal to the filtered lists', async () => {
      for (const [token, vendor] of [
        [acmeToken, 'Acme'],
        [globexToken, 'Globex'],
      ] as const) {
        for (const path of ['/orders/counts', '/v2/orders/counts']) {
          const res = await get(path, token);
          expect(res.status).toBe(200);
          expect(res.body).toEqual({ success: true, data: expectedCounts(vendor) });
        }
        for (const status of ['unfulfilled', 'partial', 'fulfilled'] as const) {
          const list = await get(`/v2/orders?fulfillmentStatus=${status}`, token);
          expect(list.body.data.totalCount).toBe(expectedCounts(vendor)[status]);
        }
      }
      expect(expectedCounts('Acme')).toEqual({ unfulfilled: 1, partial: 1, fulfilled: 1, cancelled: 1 });
    });

    it('a shop token counts the whole shop; a merchant token is refused', async () => {
      const res = await get('/v2/orders/counts', shop.token);
      expect(res.body.data).toEqual(expectedCounts());
      expect((await get('/v2/orders/counts', mkToken)).status).toBe(403);
      expect((await get('/orders/counts', mkToken)).status).toBe(403);
    });
  });
});
