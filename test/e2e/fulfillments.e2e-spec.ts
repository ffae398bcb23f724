import { getModelToken } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { LineItem } from '../../src/line-items/line-item.schema';
import { startApp, TestApp } from '../support/app';
import { vendorToken } from '../support/catalog';
import { createMerchantKey, createShop, TestShop } from '../support/factory';
import { createVendor, SeededOrder, seedOrder } from '../support/payout-fixtures';
import { deliver, shopifyFulfillment } from '../support/webhooks';

const ZERO = { commissionType: 'percentage' as const, commissionAmount: 0 };
type Row = { _id: string; [k: string]: unknown };

describe('fulfillments (e2e)', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;
  let a: { _id: string; vendorName: string };
  let b: { _id: string; vendorName: string };
  let o1: SeededOrder; // paid, 2025-03-01T00:00:00.000Z: A (tote), B (mug)
  let o2: SeededOrder; // paid, 2025-03-15: A
  let o3: SeededOrder; // paid, 2025-03-31T23:59:59.999Z: B
  let o4: SeededOrder; // pending (not paid), 2025-03-10: A
  let o5: SeededOrder; // paid, 2025-04-01T00:00:00.000Z: A
  let o6: SeededOrder; // cancelled, 2025-02-01: A
  let foreign: SeededOrder;

  const fulfil = (ids: string[], s: TestShop = shop) =>
    t.api.post(
      '/v1/fulfillments',
      {
        trackingNumber: '1Z999AA1',
        shippingCarrier: 'UPS',
        trackingUrl: 'https://ups.example/1Z999AA1',
        lineItemsToFulfill: ids,
      },
      { token: s.token },
    );
  const list = async (q = '', s: TestShop = shop) => {
    const res = await t.api.get(`/v1/fulfillments${q ? `?${q}` : ''}`, { token: s.token });
    expect(res.status).toBe(200);
    return res.body as { total: number; nextOffset: number | null; fulfillments: Row[] };
  };
  const ids = (rows: Row[]) => rows.map((r) => r._id).sort();

  beforeAll(async () => {
    t = await startApp();
    shop = await createShop(t, 'ful');
    other = await createShop(t, 'ful-other');
    a = await createVendor(t, shop, 'Ful Alpha', ZERO);
    b = await createVendor(t, shop, 'Ful Beta', ZERO);
    const ov = await createVendor(t, other, 'Ful Foreign', ZERO);
    const at = (iso: string) => new Date(iso);
    o1 = await seedOrder(t, shop, {
      createdAt: at('2025-03-01T00:00:00.000Z'),
      lines: [
        { vendor: 'Ful Alpha', price: 20, title: 'Canvas tote', variantTitle: 'Large', sku: 'TOTE-L' },
        { vendor: 'FUL BETA', price: 8, title: 'Mug' },
      ],
    });
    o2 = await seedOrder(t, shop, {
      createdAt: at('2025-03-15T12:00:00.000Z'),
      lines: [{ vendor: 'ful alpha', price: 5 }],
    });
    o3 = await seedOrder(t, shop, {
      createdAt: at('2025-03-31T23:59:59.999Z'),
      lines: [{ vendor: 'Ful Beta', price: 6 }],
    });
    o4 = await seedOrder(t, shop, {
      createdAt: at('2025-03-10T00:00:00.000Z'),
      financialStatus: 'pending',
      lines: [{ vendor: 'Ful Alpha', price: 7 }],
    });
    o5 = await seedOrder(t, shop, {
      createdAt: at('2025-04-01T00:00:00.000Z'),
      lines: [{ vendor: 'Ful Alpha', price: 9 }],
    });
    o6 = await seedOrder(t, shop, {
      createdAt: at('2025-02-01T00:00:00.000Z'),
      cancelled: true,
      lines: [{ vendor: 'Ful Alpha', price: 3 }],
    });
    foreign = await seedOrder(t, other, {
      createdAt: at('2025-03-02T00:00:00.000Z'),
      lines: [{ vendor: ov.vendorName, price: 4 }],
    });
  });
  afterAll(() => t.close());

  describe('POST /v1/fulfillments', () => {
    it.each([
      ['missing trackingNumber', { shippingCarrier: 'UPS', trackingUrl: 'u', lineItemsToFulfill: ['x'] }],
      [
        'empty trackingNumber',
        { trackingNumber: '', shippingCarrier: 'UPS', trackingUrl: 'u', lineItemsToFulfill: ['x'] },
      ],
      ['missing shippingCarrier', { trackingNumber: '1', trackingUrl: 'u', lineItemsToFulfill: ['x'] }],
      ['missing trackingUrl', { trackingNumber: '1', shippingCarrier: 'UPS', lineItemsToFulfill: ['x'] }],
      [
        'numeric trackingNumber',
        { trackingNumber: 1, shippingCarrier: 'UPS', trackingUrl: 'u', lineItemsToFulfill: ['x'] },
      ],
      [
        'empty lineItemsToFulfill',
        { trackingNumber: '1', shippingCarrier: 'UPS', trackingUrl: 'u', lineItemsToFulfill: [] },
      ],
      ['missing lineItemsToFulfill', { trackingNumber: '1', shippingCarrier: 'UPS', trackingUrl: 'u' }],
      [
        'non-array lineItemsToFulfill',
        { trackingNumber: '1', shippingCarrier: 'UPS', trackingUrl: 'u', lineItemsToFulfill: 'x' },
      ],
      [
        'non-string id',
        { trackingNumber: '1', shippingCarrier: 'UPS', trackingUrl: 'u', lineItemsToFulfill: [5] },
      ],
      [
        'unknown field',
        {
          trackingNumber: '1',
          shippingCarrier: 'UPS',
          trackingUrl: 'u',
          lineItemsToFulfill: ['x'],
          notify: true,
        },
      ],
    ])('%s → 422 {error}', async (_n, body) => {
      const res = await t.api.post('/v1/fulfillments', body, { token: shop.token });
      expect(res.status).toBe(422);
      expect(typeof res.body.error).toBe('string');
    });

    it('reports each id on its own: success, unknown, malformed, another shop’s, repeated', async () => {
      const unknown = new Types.ObjectId().toHexString();
      const req = [o1.ids[0], o1.ids[1], o2.ids[0], unknown, 'not-an-id', foreign.ids[0], o1.ids[0]];
      const res = await fulfil(req);
      expect(res.status).toBe(200);
      expect(res.body.fulfillments).toEqual([
        { type: 'success', lineItemId: o1.ids[0], message: 'Fulfilled with UPS tracking number 1Z999AA1' },
        { type: 'success', lineItemId: o1.ids[1], message: 'Fulfilled with UPS tracking number 1Z999AA1' },
        { type: 'success', lineItemId: o2.ids[0], message: 'Fulfilled with UPS tracking number 1Z999AA1' },
        { type: 'error', lineItemId: unknown, message: 'Line item not found' },
        { type: 'error', lineItemId: 'not-an-id', message: 'Line item not found' },
        { type: 'error', lineItemId: foreign.ids[0], message: 'Line item not found' },
        {
          type: 'error',
          lineItemId: o1.ids[0],
          message: 'Line item is listed more than once in this request',
        },
      ]);
      // the other shop's line is untouched
      const theirs = await list('', other);
      expect(theirs.fulfillments[0]).toMatchObject({ _id: foreign.ids[0], fulfillmentStatus: 'unfulfilled' });
      // one platform fulfillment per order
      const model = t.app.get<Model<LineItem>>(getModelToken(LineItem.name));
      const rows = await model
        .find({
          shopId: new Types.ObjectId(shop.shopId),
          _id: { $in: [...o1.ids, ...o2.ids].map((i) => new Types.ObjectId(i)) },
        })
        .lean<LineItem[]>()
        .exec();
      const fid = new Map(rows.map((r) => [String(r._id), r.fulfillment!.platformFulfillmentId]));
      expect(fid.get(o1.ids[0])).toMatch(/^local-/);
      expect(fid.get(o1.ids[0])).toBe(fid.get(o1.ids[1]));
      expect(fid.get(o2.ids[0])).not.toBe(fid.get(o1.ids[0]));
    });

    it('an already fulfilled line and a cancelled order are errors; the status stays 200', async () => {
      const res = await fulfil([o1.ids[0], o6.ids[0], o3.ids[0]]);
      expect(res.status).toBe(200);
      expect(res.body.fulfillments).toEqual([
        { type: 'error', lineItemId: o1.ids[0], message: 'Line item is already fulfilled' },
        { type: 'error', lineItemId: o6.ids[0], message: 'The order of this line item is cancelled' },
        { type: 'success', lineItemId: o3.ids[0], message: 'Fulfilled with UPS tracking number 1Z999AA1' },
      ]);
    });

    it('needs a shop token', async () => {
      const mk = await createMerchantKey(t, shop);
      expect((await t.api.post('/v1/fulfillments', {}, { token: mk.token })).status).toBe(403);
      expect((await t.api.post('/v1/fulfillments', {})).status).toBe(401);
    });
  });

  describe('GET /v1/fulfillments', () => {
    it('lists paid orders’ lines newest first in the 2.7 shape; unpaid orders are absent', async () => {
      const page = await list();
      expect(page.total).toBe(6);
      expect(page.nextOffset).toBeNull();
      expect(page.fulfillments.map((r) => r._id)).toEqual([
        o5.ids[0],
        o3.ids[0],
        o2.ids[0],
        ...[...o1.ids].sort().reverse(),
        o6.ids[0],
      ]);
      expect(page.fulfillments.map((r) => r._id)).not.toContain(o4.ids[0]);
      const tote = page.fulfillments.find((r) => r._id === o1.ids[0])!;
      expect(tote).toEqual({
        _id: o1.ids[0],
        orderNumber: expect.any(Number),
        orderName: expect.stringMatching(/^#\d+$/),
        date: '2025-03-01T00:00:00.000Z',
        vendorId: a._id,
        vendorName: 'ful alpha',
        lineItemName: 'Canvas tote - Large',
        lineItemVariant: 'Large',
        lineItemSku: 'TOTE-L',
        fulfillmentStatus: 'fulfilled',
        fulfillment: {
          status: 'success',
          trackingCompany: 'UPS',
          trackingNumber: '1Z999AA1',
          trackingUrl: 'https://ups.example/1Z999AA1',
          shipmentStatus: null,
          createdAt: expect.any(String),
        },
        shippingAddress: expect.objectContaining({
          first_name: 'Jane',
          last_name: 'Doe',
          address1: '1 Main St',
          city: 'Springfield',
          country: 'United States',
        }),
        billingAddress: expect.objectContaining({ first_name: 'Jane', country: 'United States' }),
      });
      const open = page.fulfillments.find((r) => r._id === o5.ids[0])!;
      expect(open).toMatchObject({
        fulfillmentStatus: 'unfulfilled',
        fulfillment: {
          status: null,
          trackingNumber: null,
          trackingCompany: null,
          trackingUrl: null,
          shipmentStatus: null,
          createdAt: null,
        },
      });
    });

    it('filters by vendor, fulfillment status and an inclusive date range', async () => {
      expect(ids((await list(`vendorId=${a._id}`)).fulfillments)).toEqual(
        [o1.ids[0], o2.ids[0], o5.ids[0], o6.ids[0]].sort(),
      );
      expect(ids((await list(`vendorId=${b._id}`)).fulfillments)).toEqual([o1.ids[1], o3.ids[0]].sort());
      expect(ids((await list('fulfillment=fulfilled')).fulfillments)).toEqual(
        [...o1.ids, o2.ids[0], o3.ids[0]].sort(),
      );
      expect(ids((await list('fulfillment=unfulfilled')).fulfillments)).toEqual(
        [o5.ids[0], o6.ids[0]].sort(),
      );
      // 00:00:00.000 on the start day and 23:59:59.999 on the end day are inside; the next instant is not
      expect(ids((await list('start=2025-03-01&end=2025-03-31')).fulfillments)).toEqual(
        [...o1.ids, o2.ids[0], o3.ids[0]].sort(),
      );
      expect(ids((await list('start=2025-03-02&end=2025-03-31')).fulfillments)).toEqual(
        [o2.ids[0], o3.ids[0]].sort(),
      );
      expect(ids((await list('start=2025-04-01')).fulfillments)).toEqual([o5.ids[0]]);
      expect(ids((await list('end=2025-02-28')).fulfillments)).toEqual([o6.ids[0]]);
      expect(ids((await list('start=2025-03-31&end=2025-03-31')).fulfillments)).toEqual([o3.ids[0]]);
      expect(
        ids((await list(`vendorId=${a._id}&fulfillment=unfulfilled&start=2025-03-01`)).fulfillments),
      ).toEqual([o5.ids[0]]);
      // another shop's vendor: nothing
      const theirVendor = (await list('', other)).fulfillments[0].vendorId as string;
      expect(await list(`vendorId=${theirVendor}`)).toEqual({ total: 0, nextOffset: null, fulfillments: [] });
    });

    it('reflects fulfillments/update shipment status webhooks in the shipment filter', async () => {
      await deliver(
        t,
        shop,
        'fulfillments/update',
        shopifyFulfillment({
          orderId: o1.orderId,
          lineItemIds: o1.lineItemIds,
          shipmentStatus: 'in_transit',
          trackingNumber: '1Z999AA1',
        }),
      );
      await deliver(
        t,
        shop,
        'fulfillments/update',
        shopifyFulfillment({
          orderId: o2.orderId,
          lineItemIds: o2.lineItemIds,
          shipmentStatus: 'delivered',
          trackingNumber: '1Z999AA1',
        }),
      );
      const transit = await list('shipment=in_transit');
      expect(ids(transit.fulfillments)).toEqual([...o1.ids].sort());
      expect(transit.fulfillments[0].fulfillment).toMatchObject({ shipmentStatus: 'in_transit' });
      expect(ids((await list('shipment=delivered')).fulfillments)).toEqual([o2.ids[0]]);
      expect(ids((await list(`shipment=delivered&vendorId=${b._id}`)).fulfillments)).toEqual([]);
      expect((await list('shipment=failure')).total).toBe(0);
    });

    it('pages with limit and offset', async () => {
      const p1 = await list('limit=2');
      expect(p1).toMatchObject({ total: 6, nextOffset: 2 });
      expect(p1.fulfillments).toHaveLength(2);
      const p2 = await list('limit=2&offset=2');
      expect(p2).toMatchObject({ total: 6, nextOffset: 4 });
      const p3 = await list('limit=2&offset=4');
      expect(p3).toMatchObject({ total: 6, nextOffset: null });
      const all = [...p1.fulfillments, ...p2.fulfillments, ...p3.fulfillments].map((r) => r._id);
      expect(all).toEqual((await list()).fulfillments.map((r) => r._id));
      expect(await list('offset=10')).toMatchObject({ total: 6, nextOffset: null, fulfillments: [] });
    });

    it.each([
      'limit=0',
      'limit=251',
      'offset=-1',
      'start=2025-3-1',
      'end=2025-02-30',
      'start=2025-04-01&end=2025-03-01',
      'fulfillment=partial',
      'vendorId=nope',
      'shipment=',
      'foo=bar',
    ])('refuses %s → 422', async (q) => {
      const res = await t.api.get(`/v1/fulfillments?${q}`, { token: shop.token });
      expect(res.status).toBe(422);
      expect(typeof res.body.error).toBe('string');
    });

    it('another shop sees none of it; merchant and vendor tokens are refused', async () => {
      const theirs = await list('', other);
      expect(ids(theirs.fulfillments)).toEqual([foreign.ids[0]]);
      const mk = await createMerchantKey(t, shop);
      expect((await t.api.get('/v1/fulfillments', { token: mk.token })).status).toBe(403);
      const vendorTok = await vendorToken(t, shop, a._id);
      expect((await t.api.get('/v1/fulfillments', { token: vendorTok })).status).toBe(403);
    });
  });
});
