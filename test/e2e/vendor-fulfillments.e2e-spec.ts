import { getModelToken } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { LineItem } from '../../src/line-items/line-item.schema';
import { ShopifyStandIn } from '../standins/shopify-standin';
import { startApp, TestApp } from '../support/app';
import { vendorToken } from '../support/catalog';
import { createMerchantKey, createShop, TestShop } from '../support/factory';
import { createVendor, SeededOrder, seedOrder } from '../support/payout-fixtures';

const ZERO = { commissionType: 'percentage' as const, commissionAmount: 0 };
const TRACKING = {
  trackingNumber: '1Z999AA1',
  shippingCarrier: 'UPS',
  trackingUrl: 'https://ups.example/1Z999AA1',
};
const NOT_FOUND = 'Line item not found';
const ALREADY = 'Line item is already fulfilled';

/**
 * The vendor and V2 shop fulfillment surface (DESIGN §12): POST/PUT/DELETE /fulfillments, through
 * the one engine of POST /v1/fulfillments and the StorePlatform port (local and the Shopify
 * stand-in). Reads and tracking events are in vendor-fulfillment-reads.e2e-spec.ts.
 */
describe('vendor fulfillments (e2e)', () => {
  const standIn = new ShopifyStandIn();
  let t: TestApp;
  let items: Model<LineItem>;
  let shop: TestShop; // local platform
  let shopS: TestShop; // shopify platform (the stand-in)
  let other: TestShop;
  let tokA: string;
  let tokB: string;
  let tokS: string;
  let tokOther: string;
  let merchant: string;
  let oA: SeededOrder; // A, A, B
  let oA2: SeededOrder; // A
  let oOther: SeededOrder;

  const at = new Date('2026-10-01T10:00:00Z');
  const line = (s: TestShop, id: string) =>
    items
      .findOne({ shopId: new Types.ObjectId(s.shopId), _id: new Types.ObjectId(id) })
      .lean<LineItem>()
      .exec();
  const fulfil = (
    token: string,
    lineItemIds: string[],
    path = '/fulfillments',
    headers?: Record<string, string>,
  ) => t.api.post(path, { lineItemIds, ...TRACKING }, { token, headers });

  beforeAll(async () => {
    await standIn.start();
    process.env.SHOPIFY_API_BASE_URL = standIn.url;
    process.env.DATA_ENCRYPTION_KEY = 'c0ffee'.repeat(10) + 'c0ff';
    t = await startApp();
    items = t.app.get(getModelToken(LineItem.name));
    shop = await createShop(t, 'vful');
    shopS = await createShop(t, 'vful-shopify');
    other = await createShop(t, 'vful-other');
    const a = await createVendor(t, shop, 'VF Alpha', ZERO);
    const b = await createVendor(t, shop, 'VF Beta', ZERO);
    const s = await createVendor(t, shopS, 'VF Shopify', ZERO);
    const ov = await createVendor(t, other, 'VF Other', ZERO);
    [tokA, tokB, tokS, tokOther] = await Promise.all([
      vendorToken(t, shop, a._id),
      vendorToken(t, shop, b._id),
      vendorToken(t, shopS, s._id),
      vendorToken(t, other, ov._id),
    ]);
    merchant = (await createMerchantKey(t, shop)).token;
    oA = await seedOrder(t, shop, {
      createdAt: at,
      lines: [
        { vendor: 'VF Alpha', price: 10 },
        { vendor: 'VF Alpha', price: 12 },
        { vendor: 'VF Beta', price: 7 },
      ],
    });
    oA2 = await seedOrder(t, shop, { createdAt: at, lines: [{ vendor: 'VF Alpha', price: 5 }] });
    oOther = await seedOrder(t, other, { createdAt: at, lines: [{ vendor: 'VF Other', price: 9 }] });
    const set = await t.api.put(
      '/v1/shop/platform',
      { platform: 'shopify', accessToken: standIn.token },
      { token: shopS.token },
    );
    expect(set.status).toBe(200);
  });
  afterAll(async () => {
    await t.close();
    await standIn.stop();
    delete process.env.SHOPIFY_API_BASE_URL;
    delete process.env.DATA_ENCRYPTION_KEY;
  });

  it('a vendor fulfils two of its lines and another vendor’s: two successes, one "not found", the other untouched; again: "already fulfilled"', async () => {
    const [a1, a2, b1] = oA.ids;
    const res = await fulfil(tokA, [a1, b1, a2]);
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.data.fulfillments).toEqual([
      { type: 'success', lineItemId: a1, message: expect.stringContaining('1Z999AA1') },
      { type: 'error', lineItemId: b1, message: NOT_FOUND },
      { type: 'success', lineItemId: a2, message: expect.stringContaining('1Z999AA1') },
    ]);
    const [l1, l2, lb] = await Promise.all([line(shop, a1), line(shop, a2), line(shop, b1)]);
    expect(l1!.fulfillmentStatus).toBe('fulfilled');
    expect(l1!.fulfillment).toMatchObject({ trackingNumber: '1Z999AA1', trackingCompany: 'UPS' });
    // one local fulfillment for the order: both lines carry the same platform id
    expect(l2!.fulfillment!.platformFulfillmentId).toBe(l1!.fulfillment!.platformFulfillmentId);
    expect(lb).toMatchObject({ fulfillmentStatus: 'unfulfilled', fulfillment: null, fulfillmentLock: null });

    const again = await fulfil(tokA, [a1, b1, a2], '/v2/fulfillments');
    expect(again.status).toBe(200);
    expect(again.body.data.fulfillments).toEqual([
      { type: 'error', lineItemId: a1, message: ALREADY },
      { type: 'error', lineItemId: b1, message: NOT_FOUND },
      { type: 'error', lineItemId: a2, message: ALREADY },
    ]);
    expect((await line(shop, b1))!.fulfillmentStatus).toBe('unfulfilled');
  });

  it('another shop’s line reads "not found" for a vendor and for the other shop’s shop token', async () => {
    const [foreign] = oOther.ids;
    const res = await fulfil(tokA, [foreign]);
    expect(res.body.data.fulfillments).toEqual([{ type: 'error', lineItemId: foreign, message: NOT_FOUND }]);
    const byShop = await fulfil(shop.token, [foreign], '/v2/fulfillments');
    expect(byShop.body.data.fulfillments[0]).toMatchObject({ type: 'error', message: NOT_FOUND });
    expect((await line(other, foreign))!.fulfillmentStatus).toBe('unfulfilled');
  });

  it('the shop token fulfils any vendor’s line on /v2/fulfillments; a merchant token gets 403 everywhere', async () => {
    const [, , b1] = oA.ids;
    const res = await fulfil(shop.token, [b1], '/v2/fulfillments');
    expect(res.body.data.fulfillments[0]).toMatchObject({ type: 'success', lineItemId: b1 });
    for (const [method, path] of [
      ['POST', '/v2/fulfillments'],
      ['POST', '/fulfillments'],
      ['PUT', `/v2/fulfillments/${b1}`],
      ['DELETE', `/v2/fulfillments/${b1}`],
      ['GET', '/v2/fulfillments'],
      ['GET', '/v2/fulfillments/counts'],
      ['GET', '/v2/fulfillments/stats'],
      ['GET', `/v2/fulfillments/events/${b1}`],
      ['POST', `/v2/fulfillments/events/${b1}`],
      ['POST', '/v2/fulfillments/events/bulk'],
    ] as const) {
      const r = await t.api.request(method, path, method === 'POST' || method === 'PUT' ? {} : undefined, {
        token: merchant,
      });
      expect([method, path, r.status]).toEqual([method, path, 403]);
    }
    expect((await line(shop, b1))!.fulfillmentStatus).toBe('fulfilled');
  });

  it('validates the body: 1–100 unique ids, tracking required → 422, nothing changed', async () => {
    const [id] = oA2.ids;
    const many = Array.from({ length: 101 }, () => new Types.ObjectId().toHexString());
    for (const body of [
      { lineItemIds: [], ...TRACKING },
      { lineItemIds: many, ...TRACKING },
      { lineItemIds: [id, id], ...TRACKING },
      { lineItemIds: [id], trackingNumber: '1Z', shippingCarrier: 'UPS' },
      { lineItemIds: [id], ...TRACKING, notifyCustomer: 'yes' },
    ]) {
      const r = await t.api.post('/fulfillments', body, { token: tokA });
      expect(r.status).toBe(422);
      expect(r.body.error.code).toBe('VALIDATION_ERROR');
    }
    expect((await line(shop, id))!.fulfillmentStatus).toBe('unfulfilled');
  });

  it('PUT changes the tracking of the whole local fulfillment; DELETE cancels it and the lines read unfulfilled', async () => {
    const [a1, a2] = oA.ids;
    const put = await t.api.put(
      `/fulfillments/${a1}`,
      { trackingNumber: 'NEW-1', shippingCarrier: 'DHL' },
      { token: tokA },
    );
    expect(put.status).toBe(200);
    expect(put.body.data).toEqual({
      lineItemIds: expect.arrayContaining([a1, a2]),
      fulfillmentStatus: 'fulfilled',
      trackingCompany: 'DHL',
      trackingNumber: 'NEW-1',
      trackingUrl: TRACKING.trackingUrl,
    });
    expect(put.body.data.lineItemIds).toHaveLength(2);
    for (const id of [a1, a2]) {
      expect((await line(shop, id))!.fulfillment).toMatchObject({
        trackingCompany: 'DHL',
        trackingNumber: 'NEW-1',
        trackingUrl: TRACKING.trackingUrl,
      });
    }
    expect((await t.api.put(`/fulfillments/${a1}`, {}, { token: tokA })).status).toBe(422);

    const del = await t.api.delete(`/v2/fulfillments/${a2}`, { token: tokA });
    expect(del.status).toBe(200);
    expect(del.body.data).toMatchObject({ fulfillmentStatus: 'unfulfilled', trackingNumber: null });
    expect([...del.body.data.lineItemIds].sort()).toEqual([a1, a2].sort());
    for (const id of [a1, a2]) {
      expect(await line(shop, id)).toMatchObject({ fulfillmentStatus: 'unfulfilled', fulfillment: null });
    }
    // an unfulfilled line: 409, for PUT and DELETE
    const put409 = await t.api.put(`/fulfillments/${a1}`, { trackingNumber: 'X' }, { token: tokA });
    expect(put409.status).toBe(409);
    expect(put409.body.error).toMatchObject({ code: 'CONFLICT', message: 'Line item is not fulfilled' });
    expect((await t.api.delete(`/fulfillments/${a1}`, { token: tokA })).status).toBe(409);
    // events: one fulfillment.updated and one fulfillment.cancelled per line, naming order, line and vendor
    const events = async (type: string) =>
      (await t.api.get(`/v1/events?type=${type}&limit=250`, { token: shop.token })).body.events as Array<{
        data: { object: { _id: string; orderId: number; vendorId: string; fulfillmentStatus: string } };
      }>;
    const a = (await line(shop, a1))!.vendorId;
    for (const [type, status] of [
      ['fulfillment.updated', 'fulfilled'],
      ['fulfillment.cancelled', 'unfulfilled'],
    ] as const) {
      const objects = (await events(type)).map((e) => e.data.object).filter((o) => [a1, a2].includes(o._id));
      expect(objects.map((o) => o._id).sort()).toEqual([a1, a2].sort());
      for (const o of objects) {
        expect(o).toMatchObject({ orderId: oA.orderId, vendorId: String(a), fulfillmentStatus: status });
      }
    }
    // and it can be fulfilled again
    expect((await fulfil(tokA, [a1])).body.data.fulfillments[0].type).toBe('success');
  });

  it('PUT and DELETE: another vendor’s line and another shop’s line → 404, unchanged', async () => {
    const [a1, , b1] = oA.ids;
    const [foreign] = oOther.ids;
    await fulfil(tokOther, [foreign]);
    const before = await line(shop, b1);
    for (const [token, id] of [
      [tokA, b1],
      [tokB, a1],
      [tokA, foreign],
      [other.token, a1],
      [shop.token, foreign],
      [tokA, 'not-an-id'],
    ] as const) {
      const put = await t.api.put(`/v2/fulfillments/${id}`, { trackingNumber: 'HIJACK' }, { token });
      expect(put.status).toBe(404);
      expect(put.body.error).toMatchObject({ code: 'NOT_FOUND', message: 'Line item not found' });
      expect((await t.api.delete(`/fulfillments/${id}`, { token })).status).toBe(404);
    }
    expect(await line(shop, b1)).toEqual(before);
    expect((await line(other, foreign))!.fulfillment!.trackingNumber).toBe(TRACKING.trackingNumber);
  });

  describe('on the shopify platform (stand-in)', () => {
    let x: SeededOrder; // two lines
    let y: SeededOrder; // one line
    const vendorName = 'VF Shopify';

    beforeAll(async () => {
      x = await seedOrder(t, shopS, {
        createdAt: at,
        lines: [
          { vendor: vendorName, price: 10, quantity: 2 },
          { vendor: vendorName, price: 4 },
        ],
      });
      y = await seedOrder(t, shopS, { createdAt: at, lines: [{ vendor: vendorName, price: 3 }] });
      standIn.addOrder(x.orderId, { [x.lineItemIds[0]]: 2, [x.lineItemIds[1]]: 1 });
      standIn.addOrder(y.orderId, { [y.lineItemIds[0]]: 1 });
    });

    it('one platform fulfillment per order; the tracking update and the cancel reach the platform', async () => {
      standIn.requests = [];
      const res = await fulfil(tokS, [...x.ids, ...y.ids], '/fulfillments');
      expect(res.body.data.fulfillments.map((f: { type: string }) => f.type)).toEqual([
        'success',
        'success',
        'success',
      ]);
      const creates = standIn.calls('fulfillmentCreate');
      expect(creates).toHaveLength(2);
      const byOrder = new Map(
        [...standIn.fulfillments].map(([gid, f]) => [
          f.orderId,
          { gid, lines: f.lines.map((l) => l.lineItemId) },
        ]),
      );
      expect(byOrder.get(x.orderId)!.lines.sort()).toEqual([...x.lineItemIds].sort());
      expect(byOrder.get(y.orderId)!.lines).toEqual(y.lineItemIds);
      const xGid = byOrder.get(x.orderId)!.gid;
      const [x1, x2] = x.ids;
      expect((await line(shopS, x1))!.fulfillment!.platformFulfillmentId).toBe(xGid.split('/').pop());

      standIn.requests = [];
      const put = await t.api.put(
        `/fulfillments/${x2}`,
        { trackingNumber: 'TRK-2', trackingUrl: 'https://ups.example/TRK-2', notifyCustomer: true },
        { token: tokS },
      );
      expect(put.status).toBe(200);
      const updates = standIn.calls('fulfillmentTrackingInfoUpdate');
      expect(updates).toHaveLength(1);
      expect(updates[0].token).toBe(standIn.token);
      expect(updates[0].variables).toEqual({
        fulfillmentId: xGid,
        trackingInfoInput: { company: 'UPS', number: 'TRK-2', url: 'https://ups.example/TRK-2' },
        notifyCustomer: true,
      });
      expect(standIn.fulfillments.get(xGid)!.tracking).toEqual({
        company: 'UPS',
        number: 'TRK-2',
        url: 'https://ups.example/TRK-2',
      });
      expect((await line(shopS, x1))!.fulfillment!.trackingNumber).toBe('TRK-2');

      standIn.requests = [];
      const del = await t.api.delete(`/fulfillments/${x1}`, { token: tokS });
      expect(del.status).toBe(200);
      const cancels = standIn.calls('fulfillmentCancel');
      expect(cancels).toHaveLength(1);
      expect(cancels[0].variables).toEqual({ id: xGid });
      expect(standIn.fulfillments.get(xGid)!.status).toBe('CANCELLED');
      for (const id of x.ids) {
        expect(await line(shopS, id)).toMatchObject({ fulfillmentStatus: 'unfulfilled', fulfillment: null });
      }
      // order y's fulfillment is a different one: untouched
      expect((await line(shopS, y.ids[0]))!.fulfillmentStatus).toBe('fulfilled');
      // the cancelled lines can be fulfilled again on the platform (quantities returned)
      const again = await fulfil(tokS, x.ids);
      expect(again.body.data.fulfillments.map((f: { type: string }) => f.type)).toEqual([
        'success',
        'success',
      ]);
    });

    it('a platform refusal of the change → 502, a platform outage → 503; the line is unchanged', async () => {
      const [y1] = y.ids;
      const before = await line(shopS, y1);
      standIn.down = true;
      try {
        const put = await t.api.put(`/fulfillments/${y1}`, { trackingNumber: 'DOWN' }, { token: tokS });
        expect(put.status).toBe(503);
        expect(put.body.error).toMatchObject({
          code: 'SERVICE_UNAVAILABLE',
          message: expect.stringMatching(/^The store platform could not complete the request \(errorId/),
        });
        expect((await t.api.delete(`/fulfillments/${y1}`, { token: tokS })).status).toBe(503);
      } finally {
        standIn.down = false;
      }
      expect(await line(shopS, y1)).toEqual(before);
      // the platform no longer knows the fulfillment: it refuses with userErrors → 502
      const gid = `gid://shopify/Fulfillment/${before!.fulfillment!.platformFulfillmentId}`;
      standIn.fulfillments.get(gid)!.status = 'CANCELLED';
      const refused = await t.api.delete(`/fulfillments/${y1}`, { token: tokS });
      expect(refused.status).toBe(502);
      expect(refused.body.error.message).toMatch(
        /^The store platform refused to cancel the fulfillment \(errorId [0-9a-f-]{36}\)$/,
      );
      expect(refused.text).not.toContain('cannot be cancelled');
      expect(await line(shopS, y1)).toEqual(before);
      standIn.fulfillments.get(gid)!.status = 'SUCCESS';
    });

    it('platform down during a vendor fulfilment: per-item errors, nothing fulfilled; a retry with the same Idempotency-Key after it returns creates ONE platform fulfillment', async () => {
      const z = await seedOrder(t, shopS, {
        createdAt: at,
        lines: [
          { vendor: vendorName, price: 1 },
          { vendor: vendorName, price: 2 },
        ],
      });
      standIn.addOrder(z.orderId, { [z.lineItemIds[0]]: 1, [z.lineItemIds[1]]: 1 });
      const key = { 'Idempotency-Key': `vf-${z.orderId}` };
      standIn.down = true;
      let first;
      try {
        first = await fulfil(tokS, z.ids, '/fulfillments', key);
      } finally {
        standIn.down = false;
      }
      expect(first.status).toBe(200);
      expect(first.body.data.fulfillments).toEqual(
        z.ids.map((id) => ({
          type: 'error',
          lineItemId: id,
          message: expect.stringMatching(/^The store platform could not complete the request \(errorId/),
        })),
      );
      for (const id of z.ids) {
        expect(await line(shopS, id)).toMatchObject({
          fulfillmentStatus: 'unfulfilled',
          fulfillment: null,
          fulfillmentLock: null,
        });
      }
      const createsFor = () =>
        standIn
          .calls('fulfillmentCreate')
          .filter((r) =>
            r.variables.fulfillment.lineItemsByFulfillmentOrder.some((g: { fulfillmentOrderId: string }) =>
              g.fulfillmentOrderId.startsWith(`gid://shopify/FulfillmentOrder/${z.orderId}`),
            ),
          ).length;
      expect(createsFor()).toBe(0);

      const retry = await fulfil(tokS, z.ids, '/fulfillments', key);
      expect(retry.status).toBe(200);
      expect(retry.headers.get('idempotent-replayed')).toBeNull();
      expect(retry.body.data.fulfillments.map((f: { type: string }) => f.type)).toEqual([
        'success',
        'success',
      ]);
      expect(createsFor()).toBe(1);
      // the successful answer is kept: the same key again is a replay and calls nothing
      const replay = await fulfil(tokS, z.ids, '/fulfillments', key);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.body).toEqual(retry.body);
      expect(createsFor()).toBe(1);
      expect(
        [...standIn.fulfillments.values()].filter((f) => f.orderId === z.orderId && f.status === 'SUCCESS'),
      ).toHaveLength(1);
    });
  });
});
