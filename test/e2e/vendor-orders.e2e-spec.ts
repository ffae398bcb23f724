/* eslint-disable @typescript-eslint/no-explicit-any */
import { startApp, TestApp } from '../support/app';
import { createVendor, vendorToken } from '../support/catalog';
import { cents, divHalfUp, fmt } from '../support/cents';
import { createMerchantKey, createShop, TestShop } from '../support/factory';
import { shopifyRefund } from '../support/refunds';
import { deliver, platformId, shopifyFulfillment, shopifyOrder } from '../support/webhooks';

/**
 * The vendor's orders (DESIGN §12, issue 30 part 2): list filters, one order, counts, timeline and
 * notes, for vendor tokens (own part only) and shop tokens (the whole order), never across shops.
 */
describe('vendor orders: filters, GET /orders/{id}, counts, timeline (e2e)', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;
  let mkToken: string;
  let acme: { _id: string };
  let globex: { _id: string };
  let acmeToken: string;
  let globexToken: string;
  const base = Date.UTC(2026, 0, 5);
  const at = (minutes: number) => new Date(base + minutes * 60_000);

  /** What the test created, kept independently of the API: the counts' and filters' oracle. */
  interface Made {
    key: string;
    order: Record<string, any>;
    cancelled: boolean;
    financialStatus: string;
    lines: Array<{
      id: number;
      vendor: 'Acme' | 'Globex';
      price: string;
      quantity: number;
      fulfilled: boolean;
    }>;
  }
  const made: Made[] = [];
  const byKey = (key: string) => made.find((m) => m.key === key)!;
  let foreign: Record<string, any>;
  let batchId: string;

  async function make(
    key: string,
    minutes: number,
    lines: Made['lines'],
    opts: { financialStatus?: string; cancelled?: boolean; name?: string } = {},
  ): Promise<Made> {
    const order = shopifyOrder({
      createdAt: at(minutes),
      financialStatus: opts.financialStatus ?? 'paid',
      cancelledAt: opts.cancelled ? at(minutes + 1) : null,
      name: opts.name,
      customer: { firstName: 'Jane', lastName: `Doe-${key}`, email: `${key}@example.com` },
      lineItems: lines.map((l) => ({
        id: l.id,
        sku: `${l.vendor}-${l.id % 1000}`,
        vendor: l.vendor,
        price: l.price,
        quantity: l.quantity,
      })),
    });
    await deliver(t, shop, 'orders/create', order);
    const m: Made = {
      key,
      order,
      cancelled: !!opts.cancelled,
      financialStatus: opts.financialStatus ?? 'paid',
      lines,
    };
    made.push(m);
    return m;
  }
  const line = (vendor: 'Acme' | 'Globex', price: string, quantity: number) => ({
    id: platformId(),
    vendor,
    price,
    quantity,
    fulfilled: false,
  });
  async function fulfil(m: Made, index: number, when: Date, trackingNumber: string) {
    await deliver(
      t,
      shop,
      'fulfillments/create',
      shopifyFulfillment({
        orderId: m.order.id,
        lineItemIds: [m.lines[index].id],
        createdAt: when,
        trackingCompany: 'UPS',
        trackingNumber,
      }),
    );
    m.lines[index].fulfilled = true;
  }

  /** The oracle of GET /orders/counts: over the vendor's lines (or all), a cancelled order only there. */
  function expectedCounts(vendor?: 'Acme' | 'Globex') {
    const out = { unfulfilled: 0, partial: 0, fulfilled: 0, cancelled: 0 };
    for (const m of made) {
      const lines = m.lines.filter((l) => !vendor || l.vendor === vendor);
      if (lines.length === 0) continue;
      if (m.cancelled) out.cancelled++;
      else {
        const done = lines.filter((l) => l.fulfilled).length;
        out[done === lines.length ? 'fulfilled' : done > 0 ? 'partial' : 'unfulfilled']++;
      }
    }
    return out;
  }

  beforeAll(async () => {
    t = await startApp();
    shop = await createShop(t, 'vorders');
    other = await createShop(t, 'vorders-other');
    mkToken = (await createMerchantKey(t, shop)).token;
    acme = await createVendor(t, shop, 'Acme', { commissionType: 'percentage', commissionAmount: 10 });
    globex = await createVendor(t, shop, 'Globex', { commissionType: 'percentage', commissionAmount: 20 });
    acmeToken = await vendorToken(t, shop, acme._id);
    globexToken = await vendorToken(t, shop, globex._id);
    await createVendor(t, other, 'Acme', { commissionType: 'percentage', commissionAmount: 10 });

    // o1: two Acme lines and one Globex line; Acme's first and Globex's line get fulfilled.
    const o1 = await make('o1', 1, [
      line('Acme', '10.00', 2),
      line('Acme', '7.35', 3),
      line('Globex', '5.00', 1),
    ]);
    const o2 = await make('o2', 2, [line('Acme', '3.00', 1)], { financialStatus: 'pending' });
    await make('o3', 3, [line('Acme', '4.00', 1)], { cancelled: true });
    const o4 = await make('o4', 4, [line('Acme', '6.00', 1)], { name: `EU-${platformId() % 100000}` });
    await make('o5', 5, [line('Globex', '8.00', 1)], { financialStatus: 'pending' });
    await fulfil(o1, 0, new Date(base + 86_400_000), 'TRACK-A1');
    await fulfil(o1, 2, new Date(base + 86_400_000 + 60_000), 'TRACK-G1');
    await fulfil(o4, 0, new Date(base + 86_400_000), 'TRACK-A4');
    // One of the two units of o1's first Acme line is refunded two days in.
    await deliver(
      t,
      shop,
      'refunds/create',
      shopifyRefund({
        orderId: o1.order.id,
        processedAt: new Date(base + 2 * 86_400_000),
        lines: [{ lineItemId: o1.lines[0].id, quantity: 1 }],
      }),
    );
    void o2;
    // Acme is paid out up to the 10th (its paid orders' rows and the refund row).
    const batch = await t.api.post(
      '/v1/payouts/batches',
      { vendorId: acme._id, until: '2026-01-10' },
      { token: shop.token },
    );
    expect(batch.status).toBe(202);
    batchId = batch.body.batchIds[0];
    for (let i = 0; i < 200; i++) {
      const b = await t.api.get(`/v1/payouts/batches/${batchId}`, { token: shop.token });
      if (b.body.status === 'completed') break;
      if (i === 199) throw new Error(`batch did not complete: ${b.text}`);
      await new Promise((r) => setTimeout(r, 100));
    }

    foreign = shopifyOrder({
      createdAt: at(1),
      financialStatus: 'paid',
      lineItems: [{ sku: 'X', vendor: 'Acme', price: '1.00', quantity: 1 }],
    });
    await deliver(t, other, 'orders/create', foreign);
  });
  afterAll(() => t.close());

  const get = (path: string, token: string) => t.api.get(path, { token });
  const ids = (res: any, key = 'items') => res.body.data[key].map((o: any) => o.orderId).sort();
  const idsOf = (...keys: string[]) => keys.map((k) => byKey(k).order.id).sort();

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

  describe('timeline and notes', () => {
    const timeline = async (token: string, key = 'o1', path = '/orders') => {
      const res = await get(`${path}/${byKey(key).order.id}/timeline`, token);
      expect(res.status).toBe(200);
      return res.body.data.entries as Array<{ type: string; at: string; message: string; data: any }>;
    };
    const post = (token: string, key: string, body: Record<string, unknown>, path = '/orders') =>
      t.api.post(`${path}/${byKey(key).order.id}/timeline`, body, { token });

    it('a vendor note is on its part: 201, then oldest-first entries received → paid out → note', async () => {
      const created = await post(acmeToken, 'o1', { message: 'Packed the first parcel' });
      expect(created.status).toBe(201);
      expect(created.body.data).toMatchObject({
        orderId: byKey('o1').order.id,
        vendorId: acme._id,
        author: { kind: 'vendor_user', id: expect.any(String) },
        message: 'Packed the first parcel',
      });
      const entries = await timeline(acmeToken);
      const times = entries.map((e) => Date.parse(e.at));
      expect(times).toEqual([...times].sort((a, b) => a - b));
      expect(entries.map((e) => e.type)).toEqual([
        'received',
        'paid',
        'fulfilled',
        'refunded',
        'paid_out',
        'note',
      ]);
      const [received, paid, fulfilled, refunded, paidOut, note] = entries;
      expect(received.at).toBe(at(1).toISOString());
      expect(paid.data).toEqual({ financialStatus: 'paid', timeKnown: false });
      const o1 = byKey('o1');
      expect(fulfilled).toMatchObject({
        at: new Date(base + 86_400_000).toISOString(),
        data: { trackingNumber: 'TRACK-A1', trackingCompany: 'UPS', quantity: 2, vendorId: acme._id },
      });
      // the refund row: one of two units of 10.00 at 10% → −half-up(18.00 × 1/2)
      const line0 = cents('10.00') * 2n;
      const payout0 = line0 - divHalfUp(line0 * 10n, 100n);
      const refundPayout = -divHalfUp(payout0 * 1n, 2n);
      expect(refunded.at).toBe(new Date(base + 2 * 86_400_000).toISOString());
      expect(refunded.data).toMatchObject({ refundedQuantity: 1, vendorId: acme._id });
      expect(fmt(cents(String(refunded.data.payout)))).toBe(fmt(refundPayout));
      // paid out: the batch paid Acme's two sale rows of o1 and the refund row
      const line1 = cents('7.35') * 3n;
      const payout1 = line1 - divHalfUp(line1 * 10n, 100n);
      expect(paidOut.data).toMatchObject({ batchId, vendorId: acme._id });
      expect(paidOut.data.lineItemIds).toHaveLength(3);
      expect(fmt(cents(String(paidOut.data.amount)))).toBe(fmt(payout0 + payout1 + refundPayout));
      expect(fmt(payout0 + payout1 + refundPayout)).toBe('28.84');
      expect(note).toMatchObject({ message: 'Packed the first parcel', data: { vendorId: acme._id } });
      expect(o1.lines[0].fulfilled).toBe(true);
    });

    it('another vendor never sees the note, the refund or the batch; the shop sees every part', async () => {
      const g = await timeline(globexToken);
      expect(g.map((e) => e.type)).toEqual(['received', 'paid', 'fulfilled']);
      expect(g[2].data).toMatchObject({ trackingNumber: 'TRACK-G1', vendorId: globex._id });
      expect(JSON.stringify(g)).not.toContain('Packed the first parcel');
      const s = await timeline(shop.token, 'o1', '/v2/orders');
      expect(s.map((e) => e.type)).toEqual([
        'received',
        'paid',
        'fulfilled',
        'fulfilled',
        'refunded',
        'paid_out',
        'note',
      ]);
    });

    it('a shop note on a vendor’s part reaches that vendor only; without vendorId it stays the shop’s', async () => {
      const toGlobex = await post(
        shop.token,
        'o1',
        { message: 'For Globex', vendorId: globex._id },
        '/v2/orders',
      );
      expect(toGlobex.status).toBe(201);
      expect(toGlobex.body.data.author).toEqual({ kind: 'shop', id: shop.shopId });
      const internal = await post(shop.token, 'o1', { message: 'Shop only' }, '/v2/orders');
      expect(internal.status).toBe(201);
      const notes = async (token: string, path = '/orders') =>
        (await timeline(token, 'o1', path)).filter((e) => e.type === 'note').map((e) => e.message);
      expect(await notes(globexToken)).toEqual(['For Globex']);
      expect(await notes(acmeToken)).toEqual(['Packed the first parcel']);
      expect(await notes(shop.token, '/v2/orders')).toEqual([
        'Packed the first parcel',
        'For Globex',
        'Shop only',
      ]);
    });

    it('bad notes → 422 and change nothing; another vendor’s order → 404', async () => {
      const before = await timeline(acmeToken, 'o4');
      const bad: Array<Record<string, unknown>> = [
        {},
        { message: '' },
        { message: '   ' },
        { message: 'x'.repeat(2001) },
        { message: 42 },
        { message: 'ok', vendorId: acme._id },
      ];
      for (const body of bad) {
        const res = await post(acmeToken, 'o4', body);
        expect({ body, status: res.status }).toEqual({ body, status: 422 });
      }
      // a shop naming a vendor without lines on the order
      const noPart = await post(shop.token, 'o4', { message: 'x', vendorId: globex._id }, '/v2/orders');
      expect(noPart.status).toBe(422);
      expect(await timeline(acmeToken, 'o4')).toEqual(before);
      expect((await post(globexToken, 'o4', { message: 'not mine' })).status).toBe(404);
      expect((await post(acmeToken, 'o5', { message: 'not mine' })).status).toBe(404);
      const max = await post(acmeToken, 'o4', { message: 'y'.repeat(2000) });
      expect(max.status).toBe(201);
      expect((await timeline(acmeToken, 'o4')).filter((e) => e.type === 'note')).toHaveLength(1);
    });

    it('another shop’s order → 404 for the timeline and for a note', async () => {
      expect((await get(`/orders/${foreign.id}/timeline`, acmeToken)).status).toBe(404);
      expect((await get(`/v2/orders/${foreign.id}/timeline`, shop.token)).status).toBe(404);
      const res = await t.api.post(
        `/v2/orders/${foreign.id}/timeline`,
        { message: 'x' },
        { token: shop.token },
      );
      expect(res.status).toBe(404);
    });
  });
});
