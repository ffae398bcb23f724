/* eslint-disable @typescript-eslint/no-explicit-any */
import type { TestApp } from '../support/app';
import { cents, divHalfUp, fmt } from '../support/cents';
import type { TestShop } from '../support/factory';
import { VendorOrdersFixture } from '../support/vendor-orders-fixture';

/**
 * An order's timeline (derived from stored data) and its notes with per-vendor visibility (DESIGN
 * §12, issue 30 part 2), for vendor and shop tokens, never across shops.
 */
describe('vendor orders: timeline and notes (e2e)', () => {
  let f: VendorOrdersFixture;
  let t: TestApp;
  let shop: TestShop;
  let acme: { _id: string };
  let globex: { _id: string };
  let acmeToken: string;
  let globexToken: string;
  let foreign: Record<string, any>;
  let batchId: string;
  let base: number;

  beforeAll(async () => {
    f = await VendorOrdersFixture.start();
    ({ t, shop, acme, globex, acmeToken, globexToken, foreign, batchId, base } = f);
  });
  afterAll(() => f.t.close());

  const get = (path: string, token: string) => f.get(path, token);
  const byKey = (key: string) => f.byKey(key);
  const at = (minutes: number) => VendorOrdersFixture.at(minutes);

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
