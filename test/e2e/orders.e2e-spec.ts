/* eslint-disable @typescript-eslint/no-explicit-any */
import { startApp, TestApp } from '../support/app';
import { createVendor, vendorToken } from '../support/catalog';
import { createMerchantKey, createShop, TestShop } from '../support/factory';
import { deliver, shopifyFulfillment, shopifyOrder } from '../support/webhooks';

describe('orders: GET /v2/orders, GET /orders (e2e)', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;
  let acme: { _id: string };
  let globex: { _id: string };
  let acmeToken: string;
  let globexToken: string;
  const base = Date.UTC(2026, 0, 1);
  /** orderId → createdAt offset (minutes); two pairs share a timestamp (ties broken by _id). */
  const created: Array<{ id: number; minutes: number; vendors: string[] }> = [];

  beforeAll(async () => {
    t = await startApp();
    shop = await createShop(t, 'orders');
    other = await createShop(t, 'orders-other');
    acme = await createVendor(t, shop, 'Acme', { commissionType: 'percentage', commissionAmount: 10 });
    globex = await createVendor(t, shop, 'Globex', { commissionType: 'flat', commissionAmount: 1 });
    acmeToken = await vendorToken(t, shop, acme._id);
    globexToken = await vendorToken(t, shop, globex._id);
    const minutes = [1, 2, 3, 3, 4, 5, 6, 6, 7, 8, 9];
    for (const [i, m] of minutes.entries()) {
      const vendors = i % 3 === 0 ? ['Acme', 'Globex'] : i % 3 === 1 ? ['Acme'] : ['Globex'];
      const o = shopifyOrder({
        createdAt: new Date(base + m * 60_000),
        financialStatus: 'paid',
        note: i === 0 ? 'gift wrap' : null,
        customer: { id: 100 + i, email: `c${i}@example.com`, firstName: 'C', lastName: String(i) },
        lineItems: vendors.map((v, j) => ({ sku: `${v}-${j}`, vendor: v, price: '10.00', quantity: j + 1 })),
      });
      await deliver(t, shop, 'orders/create', o);
      created.push({ id: o.id, minutes: m, vendors });
    }
  });
  afterAll(() => t.close());

  const list = (query: string, token = shop.token, path = '/v2/orders') =>
    t.api.get(`${path}${query}`, { token });

  async function walk(
    token: string,
    key: 'orders' | 'items',
    direction: 'forward' | 'backward',
    size: number,
    path = '/v2/orders',
  ) {
    const seen: any[] = [];
    let cursor: string | null = null;
    let pages = 0;
    for (;;) {
      const q: string =
        direction === 'forward'
          ? `?first=${size}${cursor ? `&after=${encodeURIComponent(cursor)}` : ''}`
          : `?last=${size}${cursor ? `&before=${encodeURIComponent(cursor)}` : ''}`;
      const res = await list(q, token, path);
      expect(res.status).toBe(200);
      pages++;
      const { pageInfo } = res.body.data;
      const rows = res.body.data[key];
      if (direction === 'forward') seen.push(...rows);
      else seen.unshift(...rows);
      const more = direction === 'forward' ? pageInfo.hasNextPage : pageInfo.hasPreviousPage;
      if (!more) break;
      cursor = direction === 'forward' ? pageInfo.endCursor : pageInfo.startCursor;
      expect(pages).toBeLessThan(50);
    }
    return { seen, pages };
  }

  it('answers a shop token with {orders, pageInfo, totalCount}, newest first, items in the 2.10 shape', async () => {
    const res = await list('?first=3');
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(Object.keys(res.body.data).sort()).toEqual(['orders', 'pageInfo', 'totalCount', 'view']);
    expect(res.body.data.totalCount).toBe(11);
    expect(res.body.data.pageInfo).toMatchObject({
      hasNextPage: true,
      hasPreviousPage: false,
      totalCount: 11,
    });
    const first = res.body.data.orders[0];
    const newest = created[created.length - 1];
    expect(first).toEqual({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      orderId: newest.id,
      orderName: expect.stringMatching(/^#\d+$/),
      orderNumber: expect.any(Number),
      createdAt: new Date(base + newest.minutes * 60_000).toISOString(),
      totalQuantity: 1,
      lineItemCount: 1,
      totalSales: 10,
      totalNetSales: 10,
      totalCostOfItem: 0,
      totalProfit: 10,
      totalCommission: 1,
      totalPayout: 9,
      status: ['unfulfilled'],
      fulfillmentStatus: 'unfulfilled',
      vendorPayoutStatus: 'unpaid',
      financialStatus: 'paid',
      shipDate: null,
      deliveryDate: null,
      notes: null,
      customer: { id: 110, email: 'c10@example.com', firstName: 'C', lastName: '10' },
    });
    // The order id is the raw order's id.
    const raw = await t.api.get(`/v1/orders/${newest.id}`, { token: shop.token });
    expect(raw.body.orders._id).toBe(first._id);
  });

  it.each([1, 2, 3, 4, 11, 20])(
    'pages forwards (first=%d) and backwards with no duplicates or gaps',
    async (size) => {
      const expected = [...created].sort((a, b) => b.minutes - a.minutes).map((c) => c.id);
      const fwd = await walk(shop.token, 'orders', 'forward', size);
      const ids = fwd.seen.map((o) => o.orderId);
      expect(new Set(ids).size).toBe(11);
      expect(ids.sort()).toEqual([...expected].sort());
      // Newest first, ties adjacent.
      const times = fwd.seen.map((o) => Date.parse(o.createdAt));
      expect([...times].sort((a, b) => b - a)).toEqual(times);
      expect(fwd.pages).toBe(Math.ceil(11 / size));
      const back = await walk(shop.token, 'orders', 'backward', size);
      expect(back.seen.map((o) => o.orderId)).toEqual(fwd.seen.map((o) => o.orderId));
    },
  );

  it('moving back and forth from a middle page returns the same rows', async () => {
    const p1 = (await list('?first=4')).body.data;
    const p2 = (await list(`?first=4&after=${encodeURIComponent(p1.pageInfo.endCursor)}`)).body.data;
    expect(p2.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
    const back = (await list(`?last=4&before=${encodeURIComponent(p2.pageInfo.startCursor)}`)).body.data;
    expect(back.orders.map((o: any) => o._id)).toEqual(p1.orders.map((o: any) => o._id));
    expect(back.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
  });

  it('is stable under concurrent inserts: orders arriving between pages do not shift the next page', async () => {
    const p1 = (await list('?first=5')).body.data;
    const newer = shopifyOrder({
      createdAt: new Date(base + 99 * 60_000),
      lineItems: [{ sku: 'L', vendor: 'Nobody', price: '1.00', quantity: 1 }],
    });
    const older = shopifyOrder({
      createdAt: new Date(base - 60_000),
      lineItems: [{ sku: 'L', vendor: 'Nobody', price: '1.00', quantity: 1 }],
    });
    await deliver(t, shop, 'orders/create', newer);
    await deliver(t, shop, 'orders/create', older);
    const p2 = (await list(`?first=5&after=${encodeURIComponent(p1.pageInfo.endCursor)}`)).body.data;
    const expected = [...created]
      .sort((a, b) => b.minutes - a.minutes || 0)
      .slice(5, 10)
      .map((c) => c.id);
    expect(p2.orders.map((o: any) => o.orderId).sort()).toEqual(expected.sort());
    const ids = [...p1.orders, ...p2.orders].map((o: any) => o.orderId);
    expect(new Set(ids).size).toBe(10);
    expect(ids).not.toContain(newer.id);
    expect(p2.totalCount).toBe(13);
    // The newer order is there for whoever starts again.
    expect((await list('?first=1')).body.data.orders[0].orderId).toBe(newer.id);
  });

  it.each([
    ['first and last', '?first=2&last=2'],
    ['after and before', '?after=x&before=y'],
    ['first with before', '?first=2&before=x'],
    ['last with after', '?last=2&after=x'],
    ['a garbled cursor', '?after=garbage'],
    ['first=0', '?first=0'],
    ['first=101', '?first=101'],
    ['last=-1', '?last=-1'],
    ['a non-numeric first', '?first=ten'],
    ['an unknown parameter', '?sort=asc'],
  ])('refuses %s with 422', async (_name, q) => {
    const res = await list(q);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      success: false,
      error: { code: 'VALIDATION_ERROR', message: expect.any(String) },
    });
  });

  it("refuses a cursor from another shop's or a vendor's list", async () => {
    const vendorCursor = (await list('?first=1', acmeToken)).body.data.pageInfo.endCursor;
    expect((await list(`?first=1&after=${encodeURIComponent(vendorCursor)}`)).status).toBe(422);
    await deliver(
      t,
      other,
      'orders/create',
      shopifyOrder({ lineItems: [{ sku: 'O', price: '1.00', quantity: 1 }] }),
    );
    const otherCursor = (await list('?first=1', other.token)).body.data.pageInfo.endCursor;
    expect((await list(`?first=1&after=${encodeURIComponent(otherCursor)}`)).status).toBe(422);
  });

  it('a vendor sees only its own orders, with totals over its own line items (GET /orders and GET /v2/orders)', async () => {
    for (const path of ['/orders', '/v2/orders']) {
      const res = await list('?first=100', acmeToken, path);
      expect(res.status).toBe(200);
      expect(Object.keys(res.body.data).sort()).toEqual(['items', 'pageInfo', 'totalCount', 'view']);
      const mine = created.filter((c) => c.vendors.includes('Acme')).map((c) => c.id);
      expect(res.body.data.items.map((o: any) => o.orderId).sort()).toEqual([...mine].sort());
      expect(res.body.data.totalCount).toBe(mine.length);
      // On a two-vendor order only Acme's line (10 × 1) counts: commission 10 % = 1.
      const both = created.find((c) => c.vendors.length === 2)!;
      expect(res.body.data.items.find((o: any) => o.orderId === both.id)).toMatchObject({
        lineItemCount: 1,
        totalQuantity: 1,
        totalSales: 10,
        totalCommission: 1,
        totalPayout: 9,
      });
    }
    const g = await list('?first=100', globexToken);
    const both = created.find((c) => c.vendors.length === 2)!;
    // Globex's line on the two-vendor order is the second (10 × 2), flat 1 per item.
    expect(g.body.data.items.find((o: any) => o.orderId === both.id)).toMatchObject({
      totalSales: 20,
      totalCommission: 2,
      totalPayout: 18,
    });
    const shopView = (await list('?first=100')).body.data.orders.find((o: any) => o.orderId === both.id);
    expect(shopView).toMatchObject({ lineItemCount: 2, totalSales: 30, totalCommission: 3, totalPayout: 27 });
    expect(g.body.data.items.find((o: any) => o.orderId === both.id)._id).toBe(shopView._id);
  });

  it('vendor pages walk both ways too', async () => {
    const mine = created.filter((c) => c.vendors.includes('Globex')).length;
    const fwd = await walk(globexToken, 'items', 'forward', 2, '/orders');
    expect(fwd.seen).toHaveLength(mine);
    const back = await walk(globexToken, 'items', 'backward', 2, '/orders');
    expect(back.seen.map((o) => o._id)).toEqual(fwd.seen.map((o) => o._id));
  });

  it('rolls up fulfillment per order, as seen by the shop and by each vendor', async () => {
    const both = created.find((c) => c.vendors.length === 2)!;
    const lines = (await t.api.get(`/v1/orders/${both.id}?lineItems=true`, { token: shop.token })).body
      .orders;
    const acmeLine = lines.find((l: any) => l.vendorId === acme._id);
    await deliver(
      t,
      shop,
      'fulfillments/create',
      shopifyFulfillment({ orderId: both.id, lineItemIds: [acmeLine.lineItemId] }),
    );
    const shopView = (await list('?first=100')).body.data.orders.find((o: any) => o.orderId === both.id);
    expect(shopView).toMatchObject({
      status: ['fulfilled', 'unfulfilled'],
      fulfillmentStatus: 'partial',
      shipDate: expect.any(String),
    });
    const acmeView = (await list('?first=100', acmeToken)).body.data.items.find(
      (o: any) => o.orderId === both.id,
    );
    expect(acmeView).toMatchObject({ status: ['fulfilled'], fulfillmentStatus: 'fulfilled' });
    const globexView = (await list('?first=100', globexToken)).body.data.items.find(
      (o: any) => o.orderId === both.id,
    );
    expect(globexView).toMatchObject({
      status: ['unfulfilled'],
      fulfillmentStatus: 'unfulfilled',
      shipDate: null,
    });
  });

  it('refuses a merchant token with 403 and keeps /orders for vendors', async () => {
    const mk = await createMerchantKey(t, shop);
    const v2 = await list('?first=1', mk.token);
    expect(v2.status).toBe(403);
    expect(v2.body).toMatchObject({ success: false, error: { code: 'FORBIDDEN' } });
    expect((await list('?first=1', mk.token, '/orders')).status).toBe(403);
    expect((await list('?first=1', shop.token, '/orders')).status).toBe(403);
    expect((await t.api.get('/v2/orders')).status).toBe(401);
  });

  it('another shop sees none of these orders', async () => {
    const res = await list('?first=100', other.token);
    expect(res.status).toBe(200);
    const ids = new Set(created.map((c) => c.id));
    expect(res.body.data.orders.filter((o: any) => ids.has(o.orderId))).toEqual([]);
    expect((await t.api.get(`/v1/orders/${created[0].id}`, { token: other.token })).status).toBe(404);
  });
});
