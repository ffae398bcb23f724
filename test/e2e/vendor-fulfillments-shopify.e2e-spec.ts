import { ShopifyStandIn } from '../standins/shopify-standin';
import { startApp, TestApp } from '../support/app';
import { createShop, TestShop } from '../support/factory';
import { SeededOrder, seedOrder } from '../support/payout-fixtures';
import { fulfilmentKit, fulfilmentOf, vendorWithToken } from '../support/vendor-fulfillments';

/**
 * POST/PUT/DELETE /fulfillments on the shopify platform: the Shopify Admin GraphQL stand-in
 * (test/standins/shopify-standin.ts) receives one fulfillment per order, the tracking update and the
 * cancel; its outages and refusals leave the lines unchanged; Idempotency-Key retries after an outage.
 */
describe('vendor fulfillments on the shopify platform (e2e)', () => {
  const standIn = new ShopifyStandIn();
  let t: TestApp;
  let kit: ReturnType<typeof fulfilmentKit>;
  let shopS: TestShop;
  let tokS: string;
  const at = new Date('2026-10-01T10:00:00Z');
  const line: ReturnType<typeof fulfilmentKit>['line'] = (...a) => kit.line(...a);
  const fulfil: ReturnType<typeof fulfilmentKit>['fulfil'] = (...a) => kit.fulfil(...a);

  beforeAll(async () => {
    await standIn.start();
    process.env.SHOPIFY_API_BASE_URL = standIn.url;
    process.env.DATA_ENCRYPTION_KEY = 'c0ffee'.repeat(10) + 'c0ff';
    t = await startApp();
    kit = fulfilmentKit(t);
    shopS = await createShop(t, 'vful-shopify');
    tokS = (await vendorWithToken(t, shopS, 'VF Shopify')).token;
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
    expect(again.body.data.fulfillments.map((f: { type: string }) => f.type)).toEqual(['success', 'success']);
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
    expect(fulfilmentOf(await line(shopS, y1))).toEqual(fulfilmentOf(before));
    // the platform no longer knows the fulfillment: it refuses with userErrors → 502
    const gid = `gid://shopify/Fulfillment/${before!.fulfillment!.platformFulfillmentId}`;
    standIn.fulfillments.get(gid)!.status = 'CANCELLED';
    const refused = await t.api.delete(`/fulfillments/${y1}`, { token: tokS });
    expect(refused.status).toBe(502);
    expect(refused.body.error.message).toMatch(
      /^The store platform refused to cancel the fulfillment \(errorId [0-9a-f-]{36}\)$/,
    );
    expect(refused.text).not.toContain('cannot be cancelled');
    expect(fulfilmentOf(await line(shopS, y1))).toEqual(fulfilmentOf(before));
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
    expect(retry.body.data.fulfillments.map((f: { type: string }) => f.type)).toEqual(['success', 'success']);
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
