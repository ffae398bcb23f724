import { startApp, TestApp } from '../support/app';
import { vendorToken } from '../support/catalog';
import { createShop, TestShop } from '../support/factory';
import { createVendor, SeededOrder, seedOrder } from '../support/payout-fixtures';

const ZERO = { commissionType: 'percentage' as const, commissionAmount: 0 };
const TRACKING = { trackingNumber: 'TT-1', shippingCarrier: 'UPS', trackingUrl: 'https://ups.example/TT-1' };
interface Entry {
  type: string;
  at: string;
  message: string;
  data: Record<string, unknown>;
}

/**
 * `tracking_updated` on the order timeline (DESIGN §12): a tracking event posted for a vendor's line
 * shows on that vendor's timeline and the shop's, at the event's time, never on another vendor's.
 */
describe('order timeline: tracking events (e2e)', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;
  let tokA: string;
  let tokB: string;
  let tokOther: string;
  let order: SeededOrder; // one order, a line of A and a line of B
  const base = Date.now() - 48 * 3_600_000; // events must not lie in the future
  const at = (hours: number) => new Date(base + hours * 3_600_000);

  const timeline = async (path: string, token: string): Promise<Entry[]> => {
    const res = await t.api.get(path, { token });
    expect([path, res.status]).toEqual([path, 200]);
    return res.body.data.entries;
  };
  const tracking = (entries: Entry[]) => entries.filter((e) => e.type === 'tracking_updated');

  beforeAll(async () => {
    t = await startApp();
    shop = await createShop(t, 'vot');
    other = await createShop(t, 'vot-other');
    const a = await createVendor(t, shop, 'VOT Alpha', ZERO);
    const b = await createVendor(t, shop, 'VOT Beta', ZERO);
    const ov = await createVendor(t, other, 'VOT Other', ZERO);
    [tokA, tokB, tokOther] = await Promise.all([
      vendorToken(t, shop, a._id),
      vendorToken(t, shop, b._id),
      vendorToken(t, other, ov._id),
    ]);
    order = await seedOrder(t, shop, {
      createdAt: at(0),
      lines: [
        { vendor: 'VOT Alpha', price: 10, sku: 'VOT-A1' },
        { vendor: 'VOT Beta', price: 20, sku: 'VOT-B1' },
      ],
    });
    for (const [token, id] of [
      [tokA, order.ids[0]],
      [tokB, order.ids[1]],
    ]) {
      const f = await t.api.post('/fulfillments', { lineItemIds: [id], ...TRACKING }, { token });
      expect(f.body.data.fulfillments.map((x: { type: string }) => x.type)).toEqual(['success']);
    }
  });
  afterAll(() => t.close());

  it('vendor A’s event is on A’s timeline and the shop’s, at its time, never on B’s; B’s only on B’s and the shop’s', async () => {
    const [lineA, lineB] = order.ids;
    const postA = await t.api.post(
      `/fulfillments/events/${lineA}`,
      { status: 'in_transit', happenedAt: at(30).toISOString(), message: 'Left the depot' },
      { token: tokA },
    );
    expect(postA.status).toBe(201);
    // an older event arriving later: still on the timeline, at its own time (history, oldest first)
    const lateA = await t.api.post(
      `/fulfillments/events/${lineA}`,
      { status: 'out_for_delivery', happenedAt: at(20).toISOString() },
      { token: tokA },
    );
    expect(lateA.status).toBe(201);
    const postB = await t.api.post(
      `/fulfillments/events/${lineB}`,
      { status: 'delivered', happenedAt: at(25).toISOString() },
      { token: tokB },
    );
    expect(postB.status).toBe(201);

    const expectA = [
      { at: at(20).toISOString(), lineItemId: lineA, status: 'out_for_delivery', message: null },
      { at: at(30).toISOString(), lineItemId: lineA, status: 'in_transit', message: 'Left the depot' },
    ];
    const expectB = [{ at: at(25).toISOString(), lineItemId: lineB, status: 'delivered', message: null }];
    const shape = (entries: Entry[]) =>
      tracking(entries).map((e) => ({
        at: e.at,
        lineItemId: e.data.lineItemId,
        status: e.data.status,
        message: e.data.message,
      }));

    for (const path of [`/orders/${order.orderId}/timeline`, `/v2/orders/${order.orderId}/timeline`]) {
      const a = await timeline(path, tokA);
      expect(shape(a)).toEqual(expectA);
      expect(tracking(a).every((e) => e.data.vendorId === tracking(a)[0].data.vendorId)).toBe(true);
      expect(tracking(a).map((e) => e.message)).toEqual([
        'VOT-A1: out for delivery',
        'VOT-A1: in transit (Left the depot)',
      ]);
      expect(shape(await timeline(path, tokB))).toEqual(expectB);
    }
    const all = await timeline(`/v2/orders/${order.orderId}/timeline`, shop.token);
    expect(shape(all)).toEqual([expectA[0], expectB[0], expectA[1]]);
    // the whole timeline stays oldest first with the tracking entries in place
    const times = all.map((e) => Date.parse(e.at));
    expect([...times].sort((x, y) => x - y)).toEqual(times);
    expect(all.filter((e) => e.type === 'fulfilled').map((e) => e.data.lineItemId)).toEqual(
      expect.arrayContaining([lineA, lineB]),
    );
  });

  it('another shop’s vendor or shop token cannot read the timeline (404)', async () => {
    for (const token of [tokOther, other.token]) {
      for (const path of [`/orders/${order.orderId}/timeline`, `/v2/orders/${order.orderId}/timeline`]) {
        expect([path, (await t.api.get(path, { token })).status]).toEqual([path, 404]);
      }
    }
  });
});
