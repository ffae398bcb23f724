import { getModelToken } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { LineItem } from '../../src/line-items/line-item.schema';
import { Shop } from '../../src/shops/shop.schema';
import { ShopifyStandIn } from '../standins/shopify-standin';
import { startApp, TestApp } from '../support/app';
import { createShop, TestShop } from '../support/factory';
import { createVendor, seedOrder } from '../support/payout-fixtures';

describe('store platform: shopify adapter against a local stand-in (e2e)', () => {
  const standIn = new ShopifyStandIn();
  let t: TestApp;
  let shop: TestShop;
  let localShop: TestShop;
  let vendor: { _id: string; vendorName: string };
  let items: Model<LineItem>;

  const fulfil = (ids: string[], trackingNumber = '1Z999', s: TestShop = shop) =>
    t.api.post(
      '/v1/fulfillments',
      {
        trackingNumber,
        shippingCarrier: 'UPS',
        trackingUrl: `https://ups.example/${trackingNumber}`,
        lineItemsToFulfill: ids,
      },
      { token: s.token },
    );
  const order = (s: TestShop, vendorName: string, quantities: number[]) =>
    seedOrder(t, s, {
      createdAt: new Date('2025-06-01T10:00:00Z'),
      lines: quantities.map((quantity) => ({ vendor: vendorName, price: 10, quantity })),
    });

  beforeAll(async () => {
    await standIn.start();
    process.env.SHOPIFY_API_BASE_URL = standIn.url;
    process.env.DATA_ENCRYPTION_KEY = 'c0ffee'.repeat(10) + 'c0ff';
    t = await startApp();
    items = t.app.get(getModelToken(LineItem.name));
    shop = await createShop(t, 'plat');
    localShop = await createShop(t, 'plat-local');
    vendor = await createVendor(t, shop, 'Platform Vendor');
  });
  afterAll(async () => {
    await t.close();
    await standIn.stop();
    delete process.env.SHOPIFY_API_BASE_URL;
    delete process.env.DATA_ENCRYPTION_KEY;
  });

  it('the platform is local by default; shopify needs a token; the token is write-only and stored encrypted', async () => {
    expect((await t.api.get('/v1/shop/platform', { token: shop.token })).body).toMatchObject({
      platform: 'local',
      accessTokenSet: false,
    });
    const missing = await t.api.put('/v1/shop/platform', { platform: 'shopify' }, { token: shop.token });
    expect(missing.status).toBe(422);
    for (const body of [
      { platform: 'magento' },
      { platform: 'shopify', accessToken: '' },
      { platform: 'shopify', accessToken: 5 },
    ]) {
      expect((await t.api.put('/v1/shop/platform', body, { token: shop.token })).status).toBe(422);
    }
    const set = await t.api.put(
      '/v1/shop/platform',
      { platform: 'shopify', accessToken: standIn.token },
      { token: shop.token },
    );
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ platform: 'shopify', accessTokenSet: true, updatedAt: expect.any(String) });
    expect(set.text).not.toContain(standIn.token);
    expect((await t.api.get('/v1/shop/platform', { token: shop.token })).text).not.toContain(standIn.token);
    const stored = await t.app
      .get<Model<Shop>>(getModelToken(Shop.name))
      .findOne({ _id: new Types.ObjectId(shop.shopId) })
      .lean<Shop>()
      .exec();
    expect(stored!.settings.platform).toBe('shopify');
    expect(stored!.settings.platformAccessTokenEnc).toMatch(/^v2\.[0-9a-f]{8}\./);
    expect(stored!.settings.platformAccessTokenEnc).not.toContain(standIn.token);
    // another shop is still local
    expect((await t.api.get('/v1/shop/platform', { token: localShop.token })).body.platform).toBe('local');
  });

  it('creates one platform fulfillment per fulfillment order, with the tracking and the token', async () => {
    const o1 = await order(shop, vendor.vendorName, [2, 1]);
    const o2 = await order(shop, vendor.vendorName, [1]);
    standIn.addOrder(o1.orderId, { [o1.lineItemIds[0]]: 2, [o1.lineItemIds[1]]: 1 });
    standIn.addOrder(o2.orderId, { [o2.lineItemIds[0]]: 1 });
    const ids = [...o1.ids, ...o2.ids];
    standIn.requests = [];
    const res = await fulfil(ids, '1Z999AA1');
    expect(res.status).toBe(200);
    expect(res.body.fulfillments.map((f: { type: string }) => f.type)).toEqual([
      'success',
      'success',
      'success',
    ]);
    expect(
      standIn.requests.every(
        (r) => r.token === standIn.token && r.path === '/admin/api/2025-01/graphql.json',
      ),
    ).toBe(true);
    const mutations = standIn.requests.filter((r) => r.query.includes('fulfillmentCreate'));
    expect(mutations).toHaveLength(2);
    expect(mutations[0].variables.fulfillment).toEqual({
      lineItemsByFulfillmentOrder: [
        {
          fulfillmentOrderId: `gid://shopify/FulfillmentOrder/${o1.orderId}0`,
          fulfillmentOrderLineItems: [
            { id: `gid://shopify/FulfillmentOrderLineItem/${o1.lineItemIds[0]}9`, quantity: 2 },
            { id: `gid://shopify/FulfillmentOrderLineItem/${o1.lineItemIds[1]}9`, quantity: 1 },
          ],
        },
      ],
      trackingInfo: { company: 'UPS', number: '1Z999AA1', url: 'https://ups.example/1Z999AA1' },
      notifyCustomer: false,
    });
    const stored = await items
      .find({ shopId: new Types.ObjectId(shop.shopId), _id: { $in: ids.map((i) => new Types.ObjectId(i)) } })
      .lean<LineItem[]>()
      .exec();
    const byLine = new Map(stored.map((l) => [l.lineItemId, l]));
    expect(byLine.get(o1.lineItemIds[0])!.fulfillment).toMatchObject({
      status: 'success',
      trackingNumber: '1Z999AA1',
      trackingCompany: 'UPS',
    });
    expect(byLine.get(o1.lineItemIds[0])!.fulfillment!.platformFulfillmentId).toMatch(/^\d+$/);
    expect(byLine.get(o1.lineItemIds[0])!.fulfillment!.platformFulfillmentId).toBe(
      byLine.get(o1.lineItemIds[1])!.fulfillment!.platformFulfillmentId,
    );
    expect(byLine.get(o2.lineItemIds[0])!.fulfillment!.platformFulfillmentId).not.toBe(
      byLine.get(o1.lineItemIds[0])!.fulfillment!.platformFulfillmentId,
    );
    expect(stored.every((l) => l.fulfillmentStatus === 'fulfilled' && l.fulfillmentLock === null)).toBe(true);

    // again: already fulfilled here, the platform is not asked
    standIn.requests = [];
    const again = await fulfil([ids[0]]);
    expect(again.body.fulfillments[0]).toMatchObject({
      type: 'error',
      message: 'Line item is already fulfilled',
    });
    expect(standIn.requests).toHaveLength(0);
  });

  it('a platform refusal is a per-item error; the line stays unfulfilled and can be fulfilled later', async () => {
    const o = await order(shop, vendor.vendorName, [1]);
    standIn.addOrder(o.orderId, { [o.lineItemIds[0]]: 1 });
    const [id] = o.ids;
    const refused = await fulfil([id], 'REFUSE');
    expect(refused.status).toBe(200);
    // The platform's own words are logged under the error id, never shown (issue 18).
    expect(refused.body.fulfillments).toEqual([
      {
        type: 'error',
        lineItemId: id,
        message: expect.stringMatching(
          /^The store platform refused the fulfillment \(errorId [0-9a-f-]{36}\)$/,
        ),
      },
    ]);
    expect(refused.text).not.toContain('on hold');
    const unfulfilled = await t.api.get('/v1/fulfillments?fulfillment=unfulfilled&limit=250', {
      token: shop.token,
    });
    expect(unfulfilled.body.fulfillments.map((r: { _id: string }) => r._id)).toContain(id);
    const ok = await fulfil([id], '1Z999AA2');
    expect(ok.body.fulfillments[0].type).toBe('success');
  });

  it('HTTP errors, unknown orders and nothing left to fulfil are per-item errors', async () => {
    const [o4, o5, o6] = [
      await order(shop, vendor.vendorName, [1]),
      await order(shop, vendor.vendorName, [1]),
      await order(shop, vendor.vendorName, [1]),
    ];
    standIn.failWith500.add(o4.orderId);
    standIn.addOrder(o6.orderId, { [o6.lineItemIds[0]]: 0 });
    const ids = [o4.ids[0], o5.ids[0], o6.ids[0]];
    const res = await fulfil(ids);
    expect(res.body.fulfillments).toEqual([
      {
        type: 'error',
        lineItemId: ids[0],
        message: expect.stringMatching(
          /^The store platform could not complete the request \(errorId [0-9a-f-]{36}\)$/,
        ),
      },
      { type: 'error', lineItemId: ids[1], message: `The store platform does not know order ${o5.orderId}` },
      {
        type: 'error',
        lineItemId: ids[2],
        message: 'The store platform has nothing left to fulfil for this line item',
      },
    ]);
    const stored = await items
      .find({
        shopId: new Types.ObjectId(shop.shopId),
        orderId: { $in: [o4.orderId, o5.orderId, o6.orderId] },
      })
      .lean<LineItem[]>()
      .exec();
    expect(stored.every((l) => l.fulfillmentStatus === 'unfulfilled' && l.fulfillmentLock === null)).toBe(
      true,
    );
  });

  it('a wrong token is refused by the platform and reported per item', async () => {
    const s = await createShop(t, 'plat-badtoken');
    const v = await createVendor(t, s, 'Bad Token Vendor');
    await t.api.put(
      '/v1/shop/platform',
      { platform: 'shopify', accessToken: 'shpat_wrong' },
      { token: s.token },
    );
    const o = await order(s, v.vendorName, [1]);
    standIn.addOrder(o.orderId, { [o.lineItemIds[0]]: 1 });
    const [id] = o.ids;
    const res = await fulfil([id], '1Z1', s);
    expect(res.body.fulfillments[0]).toEqual({
      type: 'error',
      lineItemId: id,
      message: expect.stringMatching(
        /^The store platform refused the access token; set a valid one with PUT \/v1\/shop\/platform \(errorId [0-9a-f-]{36}\)$/,
      ),
    });
  });

  it('a shop on the local platform never calls the store platform', async () => {
    const v = await createVendor(t, localShop, 'Local Vendor');
    const [id] = (await order(localShop, v.vendorName, [1])).ids;
    standIn.requests = [];
    const res = await fulfil([id], '1Z2', localShop);
    expect(res.body.fulfillments[0].type).toBe('success');
    expect(standIn.requests).toHaveLength(0);
    const stored = await items
      .findOne({ shopId: new Types.ObjectId(localShop.shopId), _id: new Types.ObjectId(id) })
      .lean<LineItem>()
      .exec();
    expect(stored!.fulfillment!.platformFulfillmentId).toMatch(/^local-/);
  });

  it('switching back to local keeps the stored token', async () => {
    const res = await t.api.put('/v1/shop/platform', { platform: 'local' }, { token: shop.token });
    expect(res.body).toMatchObject({ platform: 'local', accessTokenSet: true });
    const back = await t.api.put('/v1/shop/platform', { platform: 'shopify' }, { token: shop.token });
    expect(back.status).toBe(200);
  });
});
