import { Types } from 'mongoose';
import { startApp, TestApp } from '../support/app';
import { cents } from '../support/cents';
import { measured } from '../support/db-cost';
import { createMerchantKey, createShop, TestShop } from '../support/factory';
import { SeededOrder, seedOrder } from '../support/payout-fixtures';
import { fulfilmentKit, fulfilmentOf, TRACKING, vendorWithToken } from '../support/vendor-fulfillments';

const NOT_FOUND = 'Line item not found';
const ALREADY = 'Line item is already fulfilled';

/**
 * The vendor and V2 shop fulfillment surface (DESIGN §12): POST/PUT/DELETE /fulfillments, through
 * the one engine of POST /v1/fulfillments, on the local platform. The Shopify adapter:
 * vendor-fulfillments-shopify.e2e-spec.ts; reads and tracking events: vendor-fulfillment-reads.
 */
describe('vendor fulfillments (e2e)', () => {
  let t: TestApp;
  let kit: ReturnType<typeof fulfilmentKit>;
  let shop: TestShop; // local platform
  let other: TestShop;
  let tokA: string;
  let tokB: string;
  let tokOther: string;
  let merchant: string;
  let oA: SeededOrder; // A, A, B
  let oA2: SeededOrder; // A
  let oOther: SeededOrder;

  const at = new Date('2026-10-01T10:00:00Z');
  const line: ReturnType<typeof fulfilmentKit>['line'] = (...a) => kit.line(...a);
  const fulfil: ReturnType<typeof fulfilmentKit>['fulfil'] = (...a) => kit.fulfil(...a);

  beforeAll(async () => {
    t = await startApp();
    kit = fulfilmentKit(t);
    shop = await createShop(t, 'vful');
    other = await createShop(t, 'vful-other');
    [tokA, tokB, tokOther] = (
      await Promise.all([
        vendorWithToken(t, shop, 'VF Alpha'),
        vendorWithToken(t, shop, 'VF Beta'),
        vendorWithToken(t, other, 'VF Other'),
      ])
    ).map((v) => v.token);
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
  });
  afterAll(() => t.close());

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

    // the shop's order summary is rolled up from every vendor's lines, not the caller's alone
    const orders = await t.api.get('/v2/orders?first=100', { token: shop.token });
    const summary = orders.body.data.orders.find((o: { orderId: number }) => o.orderId === oA.orderId);
    expect(summary).toMatchObject({ fulfillmentStatus: 'partial', lineItemCount: 3 });
    expect(cents(summary.totalSales.toFixed(2))).toBe(cents('10.00') + cents('12.00') + cents('7.00'));

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
    expect(fulfilmentOf(await line(shop, b1))).toEqual(fulfilmentOf(before));
    expect((await line(other, foreign))!.fulfillment!.trackingNumber).toBe(TRACKING.trackingNumber);
  });

  it('a vendor fulfils 100 lines of 4 orders (local platform) in a bounded number of database commands', async () => {
    const orders: SeededOrder[] = [];
    for (let o = 0; o < 4; o++) {
      const lines = Array.from({ length: 25 }, (_, i) => ({ vendor: 'VF Alpha', price: 1 + i }));
      orders.push(await seedOrder(t, shop, { createdAt: new Date(at.getTime() - o * 86_400_000), lines }));
    }
    const lineItemIds = orders.flatMap((o) => o.ids);
    expect(lineItemIds).toHaveLength(100);
    const started = Date.now();
    const m = await measured(t, 'POST', '/fulfillments', { lineItemIds, ...TRACKING }, { token: tokA });
    const ms = Date.now() - started;
    expect(m.res.status).toBe(200);
    expect(m.res.body.data.fulfillments.filter((f: { type: string }) => f.type === 'success')).toHaveLength(
      100,
    );
    // claim (1 statement), read (1), shop platform (1), record (1 bulk write), audit and events (5),
    // order summaries (2): independent of the line and order counts, never one command per line.
    process.stdout.write(
      `[vendor-fulfillments] 100 lines / 4 orders: ${m.commands} commands, ${ms} ms\n${m.describe()}\n`,
    );
    expect([m.commands, m.describe()]).toEqual([expect.any(Number), expect.any(String)]);
    expect(m.commands).toBeLessThanOrEqual(12);
  });
});
