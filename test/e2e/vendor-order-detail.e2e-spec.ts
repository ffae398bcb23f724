/* eslint-disable @typescript-eslint/no-explicit-any */
import type { TestApp } from '../support/app';
import { cents, divHalfUp, fmt } from '../support/cents';
import type { TestShop } from '../support/factory';
import { VendorOrdersFixture } from '../support/vendor-orders-fixture';

/**
 * One order (DESIGN §12, issue 30 part 2): a vendor token sees its own lines and figures, a shop
 * token the whole order; another shop's or vendor's order is 404.
 */
describe('vendor orders: GET /orders/{id} (e2e)', () => {
  let f: VendorOrdersFixture;
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;
  let mkToken: string;
  let acme: { _id: string };
  let acmeToken: string;
  let globexToken: string;
  let foreign: Record<string, any>;

  beforeAll(async () => {
    f = await VendorOrdersFixture.start();
    ({ t, shop, other, mkToken, acme, acmeToken, globexToken, foreign } = f);
  });
  afterAll(() => f.t.close());

  const get = (path: string, token: string) => f.get(path, token);
  const byKey = (key: string) => f.byKey(key);
  const at = (minutes: number) => VendorOrdersFixture.at(minutes);

  describe('GET /orders/{id}', () => {
    it('answers the order with only the vendor’s calculated lines, by platform id and by _id', async () => {
      const o1 = byKey('o1');
      const res = await get(`/orders/${o1.order.id}`, acmeToken);
      expect(res.status).toBe(200);
      const { order, lineItems } = res.body.data;
      expect(order).toEqual({
        _id: expect.stringMatching(/^[0-9a-f]{24}$/),
        orderId: o1.order.id,
        orderName: o1.order.name,
        orderNumber: o1.order.order_number,
        createdAt: at(1).toISOString(),
        financialStatus: 'paid',
        fulfillmentStatus: 'partial',
        cancelled: false,
        shippingAddress: o1.order.shipping_address,
        customer: { firstName: 'Jane', lastName: 'Doe-o1' },
      });
      // the vendor's two sale lines, figures to the cent against the oracle (10% commission)
      const acmeLines = o1.lines.filter((l) => l.vendor === 'Acme');
      expect(lineItems.map((l: any) => l.lineItemId).sort()).toEqual(acmeLines.map((l) => l.id).sort());
      for (const l of acmeLines) {
        const row = lineItems.find((r: any) => r.lineItemId === l.id);
        const sales = cents(l.price) * BigInt(l.quantity);
        const commission = divHalfUp(sales * 10n, 100n);
        expect({
          sku: row.sku,
          quantity: row.quantity,
          type: row.type,
          vendorId: row.vendorId,
          sales: fmt(cents(String(row.sales))),
          commission: fmt(cents(String(row.commission))),
          payout: fmt(cents(String(row.payout))),
          fulfillmentStatus: row.fulfillmentStatus,
        }).toEqual({
          sku: `Acme-${l.id % 1000}`,
          quantity: l.quantity,
          type: 'sale',
          vendorId: acme._id,
          sales: fmt(sales),
          commission: fmt(commission),
          payout: fmt(sales - commission),
          fulfillmentStatus: l.fulfilled ? 'fulfilled' : 'unfulfilled',
        });
        if (l.fulfilled) expect(row.fulfillment).toMatchObject({ trackingNumber: 'TRACK-A1' });
      }
      // the same answer by our _id, and under /v2
      expect((await get(`/orders/${order._id}`, acmeToken)).body).toEqual(res.body);
      expect((await get(`/v2/orders/${order._id}`, acmeToken)).body).toEqual(res.body);
      expect((await get(`/v2/orders/${o1.order.id}`, acmeToken)).body).toEqual(res.body);
      // the other vendor sees its own line only, and its own fulfillment status
      const g = await get(`/orders/${o1.order.id}`, globexToken);
      expect(g.body.data.lineItems.map((l: any) => l.lineItemId)).toEqual([o1.lines[2].id]);
      expect(g.body.data.order.fulfillmentStatus).toBe('fulfilled');
    });

    it('a shop token gets every line of the order', async () => {
      const o1 = byKey('o1');
      const res = await get(`/v2/orders/${o1.order.id}`, shop.token);
      expect(res.status).toBe(200);
      expect(res.body.data.lineItems.map((l: any) => l.lineItemId).sort()).toEqual(
        o1.lines.map((l) => l.id).sort(),
      );
      expect(res.body.data.order.fulfillmentStatus).toBe('partial');
    });

    it('another vendor’s order, another shop’s order, an unknown or malformed id → 404', async () => {
      const foreignId = (await get(`/v2/orders/${foreign.id}`, other.token)).body.data.order._id;
      expect(foreignId).toMatch(/^[0-9a-f]{24}$/);
      const cases: Array<[string, string]> = [
        [`/orders/${byKey('o5').order.id}`, acmeToken],
        [`/orders/${byKey('o2').order.id}`, globexToken],
        [`/orders/${foreign.id}`, acmeToken],
        [`/orders/${foreignId}`, acmeToken],
        [`/v2/orders/${foreign.id}`, shop.token],
        [`/v2/orders/${foreignId}`, shop.token],
        ['/orders/999999999', acmeToken],
        ['/orders/abc', acmeToken],
        ['/orders/0', acmeToken],
        ['/orders/ffffffffffffffffffffffff', acmeToken],
      ];
      for (const [path, token] of cases) {
        const res = await get(path, token);
        expect({ path, status: res.status, code: res.body.error?.code }).toEqual({
          path,
          status: 404,
          code: 'NOT_FOUND',
        });
      }
      // per path of the other vendor's order on the timeline too
      expect((await get(`/orders/${byKey('o5').order.id}/timeline`, acmeToken)).status).toBe(404);
    });

    it('a merchant token → 403', async () => {
      const id = byKey('o1').order.id;
      for (const path of [`/orders/${id}`, `/v2/orders/${id}`, `/v2/orders/${id}/timeline`]) {
        expect((await get(path, mkToken)).status).toBe(403);
      }
      const post = await t.api.post(`/v2/orders/${id}/timeline`, { message: 'x' }, { token: mkToken });
      expect(post.status).toBe(403);
    });
  });
});
