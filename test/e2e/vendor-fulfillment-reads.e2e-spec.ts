import { getModelToken } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { LineItem } from '../../src/line-items/line-item.schema';
import { startApp, TestApp } from '../support/app';
import { vendorToken } from '../support/catalog';
import { divHalfUp } from '../support/cents';
import { createShop, TestShop } from '../support/factory';
import { createVendor, SeededOrder, seedOrder } from '../support/payout-fixtures';

const ZERO = { commissionType: 'percentage' as const, commissionAmount: 0 };
const TRACKING = { trackingNumber: 'RD-1', shippingCarrier: 'UPS', trackingUrl: 'https://ups.example/RD-1' };
const DAY = 86_400_000;
type Row = {
  _id: string;
  date: string;
  vendorId: string;
  fulfillmentStatus: string;
  fulfillment: { shipmentStatus: string | null; createdAt: string | null };
};

/** GET /fulfillments, /counts, /stats and the tracking events, checked against the test's own rows. */
describe('vendor fulfillment reads and tracking events (e2e)', () => {
  let t: TestApp;
  let items: Model<LineItem>;
  let shop: TestShop;
  let other: TestShop;
  let tokA: string;
  let tokB: string;
  let tokOther: string;
  let bId: string;
  let o1: SeededOrder; // A, 20 days ago, fulfilled
  let o2: SeededOrder; // A, 10 days ago, unfulfilled
  let o3: SeededOrder; // A, 3 days ago, fulfilled
  let o4: SeededOrder; // A, 1 day ago, two lines, the first fulfilled
  let ob: SeededOrder; // B, 12 days ago, unfulfilled
  let foreign: SeededOrder;
  const now = Date.now();
  const ago = (days: number) => new Date(now - days * DAY);

  const get = async (path: string, token: string) => {
    const res = await t.api.get(path, { token });
    expect([path, res.status]).toEqual([path, 200]);
    return res.body.data;
  };
  /** Every row of a list, walked page by page (2 at a time), checking the paging on the way. */
  const all = async (query: string, token: string, path = '/fulfillments'): Promise<Row[]> => {
    const rows: Row[] = [];
    let after: string | null = null;
    let totalCount = -1;
    for (let guard = 0; guard < 50; guard++) {
      const sep = query ? '&' : '';
      const page = await get(`${path}?${query}${sep}first=2${after ? `&after=${after}` : ''}`, token);
      totalCount = page.totalCount;
      rows.push(...page.items);
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    expect(new Set(rows.map((r) => r._id)).size).toBe(rows.length);
    expect(rows.length).toBe(totalCount);
    const times = rows.map((r) => Date.parse(r.date));
    expect([...times].sort((a, b) => b - a)).toEqual(times); // newest order first
    return rows;
  };
  const ids = (rows: Array<{ _id: string }>) => rows.map((r) => r._id).sort();

  beforeAll(async () => {
    t = await startApp();
    items = t.app.get(getModelToken(LineItem.name));
    shop = await createShop(t, 'vfr');
    other = await createShop(t, 'vfr-other');
    const a = await createVendor(t, shop, 'VFR Alpha', ZERO);
    const b = await createVendor(t, shop, 'VFR Beta', ZERO);
    bId = b._id;
    const ov = await createVendor(t, other, 'VFR Other', ZERO);
    [tokA, tokB, tokOther] = await Promise.all([
      vendorToken(t, shop, a._id),
      vendorToken(t, shop, b._id),
      vendorToken(t, other, ov._id),
    ]);
    const alpha = (price: number) => ({ vendor: 'VFR Alpha', price });
    o1 = await seedOrder(t, shop, { createdAt: ago(20), lines: [alpha(10)] });
    o2 = await seedOrder(t, shop, { createdAt: ago(10), lines: [alpha(11)] });
    o3 = await seedOrder(t, shop, { createdAt: ago(3), lines: [alpha(12)] });
    o4 = await seedOrder(t, shop, { createdAt: ago(1), lines: [alpha(13), alpha(14)] });
    // not paid: not a fulfillment row (as GET /v1/fulfillments)
    await seedOrder(t, shop, { createdAt: ago(15), financialStatus: 'pending', lines: [alpha(15)] });
    ob = await seedOrder(t, shop, { createdAt: ago(12), lines: [{ vendor: 'VFR Beta', price: 16 }] });
    foreign = await seedOrder(t, other, { createdAt: ago(30), lines: [{ vendor: 'VFR Other', price: 17 }] });
    const res = await t.api.post(
      '/fulfillments',
      { lineItemIds: [o1.ids[0], o3.ids[0], o4.ids[0]], ...TRACKING },
      { token: tokA },
    );
    expect(res.body.data.fulfillments.every((f: { type: string }) => f.type === 'success')).toBe(true);
  });
  afterAll(() => t.close());

  it('tracking events: single and bulk (another vendor’s line → "not found" item); an older event arriving late does not override the newer', async () => {
    const [l1] = o1.ids;
    const [l3] = o3.ids;
    const [lb] = ob.ids;
    const delivered = ago(1 / 24);
    const bulk = await t.api.post(
      '/fulfillments/events/bulk',
      {
        events: [
          {
            lineItemId: l3,
            status: 'delivered',
            happenedAt: delivered.toISOString(),
            message: 'Left at door',
          },
          { lineItemId: l3, status: 'in_transit', happenedAt: ago(2).toISOString() },
          { lineItemId: lb, status: 'in_transit' },
          { lineItemId: l1, status: 'in_transit', happenedAt: ago(5 / 24).toISOString() },
          { lineItemId: o2.ids[0], status: 'in_transit' },
        ],
      },
      { token: tokA },
    );
    expect(bulk.status).toBe(200);
    expect(bulk.body.data).toMatchObject({ successCount: 3, failedCount: 2 });
    expect(bulk.body.data.results.map((r: { type: string; message: string }) => [r.type, r.message])).toEqual(
      [
        ['success', 'Recorded'],
        ['success', 'Recorded'],
        ['error', 'Line item not found'],
        ['success', 'Recorded'],
        ['error', 'Line item is not fulfilled; tracking events need a fulfilled line item'],
      ],
    );
    // a late-arriving older event: stored (201), the status stays that of the newest
    const late = await t.api.post(
      `/fulfillments/events/${l3}`,
      { status: 'out_for_delivery', happenedAt: ago(3 / 24).toISOString() },
      { token: tokA },
    );
    expect(late.status).toBe(201);
    expect(late.body.data).toMatchObject({ lineItemId: l3, orderId: o3.orderId, status: 'out_for_delivery' });
    const events = await get(`/v2/fulfillments/events/${l3}`, tokA);
    expect(events.shipmentStatus).toBe('delivered');
    expect(events.events.map((e: { status: string }) => e.status)).toEqual([
      'in_transit',
      'out_for_delivery',
      'delivered',
    ]);
    expect(events.events[2]).toMatchObject({ message: 'Left at door', happenedAt: delivered.toISOString() });
    const stored = await items
      .findOne({ shopId: new Types.ObjectId(shop.shopId), _id: new Types.ObjectId(l3) })
      .lean<LineItem>()
      .exec();
    expect(stored!.fulfillment).toMatchObject({ shipmentStatus: 'delivered', deliveredAt: delivered });
    // fulfillment.updated: one for l3 (the bulk's newest, delivered); the refused late event added none
    const updated = async (id: string) =>
      (
        (await t.api.get('/v1/events?type=fulfillment.updated&limit=250', { token: shop.token })).body
          .events as Array<{ data: { object: { _id: string; fulfillment: { shipmentStatus: string } } } }>
      )
        .map((e) => e.data.object)
        .filter((o) => o._id === id);
    expect((await updated(l3)).map((o) => o.fulfillment.shipmentStatus)).toEqual(['delivered']);
    // a newer event does move it
    const newer = await t.api.post(
      `/v2/fulfillments/events/${l1}`,
      { status: 'failed_delivery', happenedAt: ago(1 / 24).toISOString() },
      { token: shop.token },
    );
    expect(newer.status).toBe(201);
    expect((await get(`/fulfillments/events/${l1}`, tokA)).shipmentStatus).toBe('failed_delivery');
    expect((await updated(l1)).map((o) => o.fulfillment.shipmentStatus).sort()).toEqual([
      'failed_delivery',
      'in_transit',
    ]);
  });

  it('tracking events: unfulfilled → 409; another vendor’s or shop’s line → 404; bad body → 422', async () => {
    const post = (id: string, token: string, body: unknown = { status: 'in_transit' }) =>
      t.api.post(`/fulfillments/events/${id}`, body, { token });
    const conflict = await post(o2.ids[0], tokA);
    expect(conflict.status).toBe(409);
    expect(conflict.body.error.code).toBe('CONFLICT');
    for (const [id, token] of [
      [o1.ids[0], tokB],
      [o1.ids[0], tokOther],
      [o1.ids[0], other.token],
      [foreign.ids[0], tokA],
      ['nope', tokA],
    ] as const) {
      expect((await post(id, token)).status).toBe(404);
      expect((await t.api.get(`/fulfillments/events/${id}`, { token })).status).toBe(404);
    }
    for (const body of [{ status: 'lost' }, { status: 'delivered', happenedAt: 'yesterday' }, {}]) {
      expect((await post(o1.ids[0], tokA, body)).status).toBe(422);
    }
    const many = Array.from({ length: 101 }, () => ({ lineItemId: o1.ids[0], status: 'in_transit' }));
    for (const events of [[], many]) {
      expect((await t.api.post('/fulfillments/events/bulk', { events }, { token: tokA })).status).toBe(422);
    }
  });

  it('GET /fulfillments: the vendor’s rows only, filters and paging, against the test’s rows', async () => {
    const rowsA = await all('', tokA);
    const mine = [...o1.ids, ...o2.ids, ...o3.ids, ...o4.ids];
    expect(ids(rowsA)).toEqual([...mine].sort());
    // a vendor's vendorId filter is ignored: still its own rows
    expect(ids(await all(`vendorId=${bId}`, tokA, '/v2/fulfillments'))).toEqual([...mine].sort());
    expect(ids(await all('fulfillmentStatus=fulfilled', tokA))).toEqual(
      [o1.ids[0], o3.ids[0], o4.ids[0]].sort(),
    );
    expect(ids(await all('shipmentStatus=delivered', tokA))).toEqual([o3.ids[0]]);
    const window = `dateMin=${ago(11).toISOString()}&dateMax=${ago(2).toISOString()}`;
    expect(ids(await all(window, tokA))).toEqual([o2.ids[0], o3.ids[0]].sort());
    // the shop token on /v2: every vendor, or one
    expect(ids(await all('', shop.token, '/v2/fulfillments'))).toEqual([...mine, ...ob.ids].sort());
    expect(ids(await all(`vendorId=${bId}`, shop.token, '/v2/fulfillments'))).toEqual(ob.ids);
    // other shop: none of these
    expect(ids(await all('', other.token, '/v2/fulfillments'))).toEqual(foreign.ids);
    expect(await all('', tokB)).toHaveLength(1);
    for (const q of [
      'first=0',
      'dateMin=someday',
      'fulfillmentStatus=shipped',
      'first=2&last=2',
      'after=garbage',
    ]) {
      expect((await t.api.get(`/fulfillments?${q}`, { token: tokA })).status).toBe(422);
    }
    const inverted = `dateMin=${ago(1).toISOString()}&dateMax=${ago(2).toISOString()}`;
    expect((await t.api.get(`/fulfillments/counts?${inverted}`, { token: tokA })).status).toBe(422);
  });

  it('GET /fulfillments/counts equals the rows counted by the test', async () => {
    const oracle = (rows: Row[]) => {
      const ship: Record<string, number> = { in_transit: 0, out_for_delivery: 0, delivered: 0 };
      Object.assign(ship, { failed_delivery: 0, other: 0, none: 0 });
      for (const r of rows.filter((x) => x.fulfillmentStatus === 'fulfilled')) {
        const s = r.fulfillment.shipmentStatus;
        ship[s === null ? 'none' : s in ship ? s : 'other'] += 1;
      }
      const fulfilled = rows.filter((r) => r.fulfillmentStatus === 'fulfilled').length;
      return { total: rows.length, fulfilled, unfulfilled: rows.length - fulfilled, shipmentStatus: ship };
    };
    const rowsA = await all('', tokA);
    const countsA = await get('/fulfillments/counts', tokA);
    expect(countsA).toEqual(oracle(rowsA));
    // the figures the scenario set up, so the oracle itself is pinned
    expect(countsA).toMatchObject({ total: 5, fulfilled: 3, unfulfilled: 2 });
    expect(countsA.shipmentStatus).toMatchObject({ delivered: 1, failed_delivery: 1, none: 1 });
    expect(await get('/v2/fulfillments/counts', shop.token)).toEqual(
      oracle(await all('', shop.token, '/v2/fulfillments')),
    );
    expect(await get(`/v2/fulfillments/counts?vendorId=${bId}`, shop.token)).toMatchObject({
      total: 1,
      unfulfilled: 1,
    });
    const window = `dateMin=${ago(11).toISOString()}&dateMax=${ago(2).toISOString()}`;
    expect(await get(`/fulfillments/counts?${window}`, tokA)).toEqual(oracle(await all(window, tokA)));
    expect((await get('/v2/fulfillments/counts', other.token)).total).toBe(1);
    // a status the platform sent that is none of the four (fulfillments/update webhook): "other"
    const l4 = { shopId: new Types.ObjectId(shop.shopId), _id: new Types.ObjectId(o4.ids[0]) };
    await items.updateOne(l4, { $set: { 'fulfillment.shipmentStatus': 'confirmed' } });
    const withOther = await get('/fulfillments/counts', tokA);
    expect(withOther).toEqual(oracle(await all('', tokA)));
    expect(withOther.shipmentStatus).toMatchObject({ other: 1, none: 0, delivered: 1 });
    await items.updateOne(l4, { $set: { 'fulfillment.shipmentStatus': null } });
  });

  it('GET /fulfillments/stats equals the figures computed by the test from the rows', async () => {
    const oracle = (rows: Row[], at: number) => {
      const spans = rows
        .filter((r) => r.fulfillmentStatus === 'fulfilled' && r.fulfillment.createdAt)
        .map((r) => BigInt(Date.parse(r.fulfillment.createdAt!) - Date.parse(r.date)));
      const n = BigInt(spans.length);
      const sum = spans.reduce((x, y) => x + y, 0n);
      const onTime = BigInt(spans.filter((s) => s <= BigInt(7 * DAY)).length);
      return {
        averageDaysToFulfill: n === 0n ? null : Number(divHalfUp(sum * 100n, n * BigInt(DAY))) / 100,
        unfulfilledFor7Days: rows.filter(
          (r) => r.fulfillmentStatus === 'unfulfilled' && Date.parse(r.date) < at - 7 * DAY,
        ).length,
        fulfilledOnTimePercentage: n === 0n ? null : Number(divHalfUp(onTime * 10000n, n)) / 100,
      };
    };
    const rowsA = await all('', tokA);
    const statsA = await get('/fulfillments/stats', tokA);
    expect(statsA).toEqual(oracle(rowsA, Date.now()));
    // 3 fulfilled (20, 3 and 1 days after their orders): 2 within 7 days; o2 waits 10 days
    expect(statsA).toMatchObject({ unfulfilledFor7Days: 1, fulfilledOnTimePercentage: 66.67 });
    expect(statsA.averageDaysToFulfill).toBeCloseTo(8, 1);
    expect(await get('/v2/fulfillments/stats', shop.token)).toEqual(
      oracle(await all('', shop.token, '/v2/fulfillments'), Date.now()),
    );
    expect(await get('/fulfillments/stats', tokB)).toEqual({
      averageDaysToFulfill: null,
      unfulfilledFor7Days: 1,
      fulfilledOnTimePercentage: null,
    });
  });
});
