/* eslint-disable @typescript-eslint/no-explicit-any */
import { startApp, TestApp } from '../support/app';
import { createVendor, vendorToken } from '../support/catalog';
import { cents, divHalfUp, fmt } from '../support/cents';
import { expectedFigures, type OracleRow } from '../support/dashboard-oracle';
import { createMerchantKey, createShop, TestShop } from '../support/factory';
import { seedOrder } from '../support/payout-fixtures';
import { shopifyRefund } from '../support/refunds';
import { payBatch, transferIn } from '../support/transfers';
import { deliver, eventually, shopifyFulfillment, shopifyProduct } from '../support/webhooks';

const DAY = 24 * 3600 * 1000;
const at = (iso: string) => new Date(iso);
const dayStr = (d: Date) => d.toISOString().slice(0, 10);

describe('dashboards: GET /dashboard (vendor), GET /v2/dashboard (shop) (e2e)', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;
  const vendors = new Map<string, { _id: string; rate: bigint; token?: string }>();
  const rows: OracleRow[] = [];
  let merchantToken: string;
  let otherToken: string;
  const now = new Date();
  const today = Date.parse(`${dayStr(now)}T00:00:00.000Z`);

  async function order(
    createdAt: Date,
    lines: Array<{ vendor: string; price: string; quantity: number }>,
    opts: { cancelled?: boolean } = {},
  ) {
    const seeded = await seedOrder(t, shop, {
      createdAt,
      cancelled: opts.cancelled,
      lines: lines.map((l) => ({ vendor: l.vendor, price: Number(l.price), quantity: l.quantity })),
    });
    lines.forEach((l) => {
      const sad = cents(l.price) * BigInt(l.quantity);
      const commission = divHalfUp(sad * vendors.get(l.vendor)!.rate, 100n);
      rows.push({
        vendor: l.vendor,
        orderId: seeded.orderId,
        type: 'sale',
        date: createdAt,
        cancelled: !!opts.cancelled,
        fulfilled: false,
        sad,
        commission,
        payout: sad - commission,
      });
    });
    return seeded;
  }

  /** Refunds k of the line's n units (not the last refund of the line): each figure −half-up(x·k/n). */
  async function refund(
    seeded: { orderId: number; lineItemIds: number[] },
    line: number,
    k: number,
    n: number,
    date: Date,
  ) {
    await deliver(
      t,
      shop,
      'refunds/create',
      shopifyRefund({
        orderId: seeded.orderId,
        createdAt: date,
        lines: [{ lineItemId: seeded.lineItemIds[line], quantity: k }],
      }),
    );
    const sale = rows.filter((r) => r.orderId === seeded.orderId && r.type === 'sale')[line];
    const part = (x: bigint) => (k === n ? -x : -divHalfUp(x * BigInt(k), BigInt(n)));
    rows.push({
      ...sale,
      type: 'refund',
      date,
      sad: part(sale.sad),
      commission: part(sale.commission),
      payout: part(sale.payout),
    });
  }

  beforeAll(async () => {
    t = await startApp();
    shop = await createShop(t, 'dash');
    other = await createShop(t, 'dash-other');
    const rates: Array<[string, bigint]> = [
      ['Acme', 10n],
      ['Globex', 20n],
      ['Initech', 0n],
      ['Umbrella', 5n],
      ['Hooli', 15n],
      ['Tiny', 0n],
    ];
    for (const [name, rate] of rates) {
      const v = await createVendor(t, shop, name, {
        commissionType: 'percentage',
        commissionAmount: Number(rate),
      });
      vendors.set(name, { _id: v._id, rate });
    }
    vendors.get('Acme')!.token = await vendorToken(t, shop, vendors.get('Acme')!._id);
    vendors.get('Globex')!.token = await vendorToken(t, shop, vendors.get('Globex')!._id);
    merchantToken = (await createMerchantKey(t, shop)).token;
    const otherAcme = await createVendor(t, other, 'Acme');
    otherToken = await vendorToken(t, other, otherAcme._id);

    // March 2026 (custom dates): lines on the first and last instants, just outside both ends, a
    // shared order, a partly refunded line, a cancelled (fulfilled) and fully refunded order, one
    // fulfilled line of an order not cancelled.
    const a1 = await order(at('2026-03-01T00:00:00.000Z'), [
      { vendor: 'Acme', price: '12.35', quantity: 2 },
      { vendor: 'Globex', price: '40.00', quantity: 1 },
    ]);
    await deliver(
      t,
      shop,
      'fulfillments/create',
      shopifyFulfillment({ orderId: a1.orderId, lineItemIds: [a1.lineItemIds[0]] }),
    );
    rows.find((r) => r.orderId === a1.orderId && r.vendor === 'Acme')!.fulfilled = true;
    await order(at('2026-03-31T23:59:59.999Z'), [{ vendor: 'Acme', price: '10.01', quantity: 1 }]);
    await order(at('2026-02-28T23:59:59.999Z'), [{ vendor: 'Acme', price: '99.99', quantity: 1 }]);
    await order(at('2026-04-01T00:00:00.000Z'), [{ vendor: 'Acme', price: '77.77', quantity: 1 }]);
    const a5 = await order(
      at('2026-03-10T10:00:00.000Z'),
      [{ vendor: 'Acme', price: '50.00', quantity: 1 }],
      {
        cancelled: true,
      },
    );
    // the cancelled order's line was fulfilled first: in neither side of the fulfilment rate
    await deliver(
      t,
      shop,
      'fulfillments/create',
      shopifyFulfillment({ orderId: a5.orderId, lineItemIds: [a5.lineItemIds[0]] }),
    );
    rows.find((r) => r.orderId === a5.orderId)!.fulfilled = true;
    const a5Detail = await t.api.get(`/orders/${a5.orderId}`, { token: vendors.get('Acme')!.token! });
    expect(a5Detail.body.data.lineItems.map((l: any) => l.fulfillmentStatus)).toEqual(['fulfilled']);
    await refund(a5, 0, 1, 1, at('2026-03-11T10:00:00.000Z'));
    const a6 = await order(at('2026-03-05T10:00:00.000Z'), [{ vendor: 'Acme', price: '7.77', quantity: 3 }]);
    await refund(a6, 0, 1, 3, at('2026-03-20T10:00:00.000Z'));
    await order(at('2026-03-15T10:00:00.000Z'), [{ vendor: 'Globex', price: '100.00', quantity: 1 }]);
    for (const [i, name] of ['Initech', 'Umbrella', 'Hooli', 'Tiny'].entries()) {
      await order(at(`2026-03-1${i}T08:00:00.000Z`), [
        { vendor: name, price: `${(4 - i) * 11}.11`, quantity: 1 },
      ]);
    }
    // The last 7 days and the 7 before (range=7d), with their boundary instants.
    await order(new Date(today - 6 * DAY), [{ vendor: 'Acme', price: '30.00', quantity: 1 }]);
    await order(new Date(now.getTime() - 60_000), [{ vendor: 'Acme', price: '20.00', quantity: 1 }]);
    await order(new Date(today - 6 * DAY - 1), [{ vendor: 'Acme', price: '25.00', quantity: 1 }]);
    await order(new Date(today - 13 * DAY), [{ vendor: 'Acme', price: '15.00', quantity: 1 }]);
    await order(new Date(today - 13 * DAY - 1), [{ vendor: 'Acme', price: '1000.00', quantity: 1 }]);
    for (const i of [1, 2])
      await deliver(t, shop, 'products/create', shopifyProduct({ title: `P${i}`, vendor: 'Acme' }));
  });
  afterAll(() => t.close());

  const expected = (from: Date, to: Date, vendor?: string) => expectedFigures(rows, from, to, vendor);
  const asCents = (n: number) => fmt(cents(String(n)));
  const dashboard = (q: string, token: string, path = '/dashboard') => t.api.get(`${path}${q}`, { token });

  it('custom dates: every figure equals the oracle over the rows, both boundary instants in, neighbours out', async () => {
    for (const vendor of ['Acme', 'Globex']) {
      const res = await dashboard('?dateStart=2026-03-01&dateEnd=2026-03-31', vendors.get(vendor)!.token!);
      expect(res.status).toBe(200);
      const d = res.body.data;
      const e = expected(at('2026-03-01T00:00:00.000Z'), at('2026-04-01T00:00:00.000Z'), vendor);
      expect({
        netSales: asCents(d.netSales),
        totalOrders: d.totalOrders,
        refunds: asCents(d.refunds),
        earnings: asCents(d.earnings),
        cancelledSales: asCents(d.cancelledSales),
        avgOrderValue: asCents(d.avgOrderValue),
      }).toEqual({
        netSales: e.netSales,
        totalOrders: e.totalOrders,
        refunds: e.refunds,
        earnings: e.earnings,
        cancelledSales: e.cancelledSales,
        avgOrderValue: e.avgOrderValue,
      });
      expect(d.fulfillmentRate).toBeCloseTo(e.fulfilled / e.lines, 4);
      expect(d.period).toEqual({ start: '2026-03-01', end: '2026-03-31', range: null });
      expect(d.comparison).toBeNull();
    }
    // Acme's figures spelled out once: 24.70 + 10.01 + 23.31 sold in 3 orders; 7.77 refunded; the
    // cancelled 50.00 (and its refund) only in cancelledSales.
    const acme = (await dashboard('?dateStart=2026-03-01&dateEnd=2026-03-31', vendors.get('Acme')!.token!))
      .body.data;
    expect(acme).toMatchObject({
      netSales: 50.25,
      totalOrders: 3,
      refunds: 7.77,
      cancelledSales: 50,
      avgOrderValue: 19.34,
    });
    expect(acme.fulfillmentRate).toBe(0.3333);
  });

  it('range=7d compares with the 7 days before (boundary instants on both sides), changePercent null on 0', async () => {
    const res = await dashboard('?range=7d', vendors.get('Acme')!.token!);
    expect(res.status).toBe(200);
    const d = res.body.data;
    const cur = expected(new Date(today - 6 * DAY), new Date(today + DAY), 'Acme');
    const prev = expected(new Date(today - 13 * DAY), new Date(today - 6 * DAY), 'Acme');
    expect(cur.netSales).toBe('50.00');
    expect(prev.netSales).toBe('40.00');
    expect(asCents(d.netSales)).toBe(cur.netSales);
    expect(d.comparison.netSales).toEqual({ current: 50, previous: 40, changePercent: 25 });
    expect(d.comparison.totalOrders).toEqual({ current: 2, previous: 2, changePercent: 0 });
    expect(d.comparison.refunds).toEqual({ current: 0, previous: 0, changePercent: null });
    expect(d.comparison.earnings).toEqual({
      current: Number(cur.earnings),
      previous: Number(prev.earnings),
      changePercent: 25,
    });
    expect(d.period).toEqual({ start: dayStr(new Date(today - 6 * DAY)), end: dayStr(now), range: '7d' });
    // neither form = range=30d
    const def = await dashboard('', vendors.get('Acme')!.token!);
    expect(def.body.data).toEqual((await dashboard('?range=30d', vendors.get('Acme')!.token!)).body.data);
    expect(def.body.data.period.range).toBe('30d');
  });

  it('shop dashboard: totals, commission, top 5 vendors by net sales, against the oracle', async () => {
    const res = await dashboard('?dateStart=2026-03-01&dateEnd=2026-03-31', shop.token, '/v2/dashboard');
    expect(res.status).toBe(200);
    const d = res.body.data;
    const e = expected(at('2026-03-01T00:00:00.000Z'), at('2026-04-01T00:00:00.000Z'));
    expect(asCents(d.totalRevenue)).toBe(e.netSales);
    expect(asCents(d.commissionRevenue)).toBe(e.commission);
    expect(d.totalOrders).toBe(e.totalOrders);
    expect(asCents(d.avgOrderValue)).toBe(e.avgOrderValue);
    expect(d.fulfillmentRate).toBeCloseTo(e.fulfilled / e.lines, 4);
    expect(d).toMatchObject({ productsCount: 2, activeVendors: 6, totalPayouts: 0 });
    const ranked = [...vendors.keys()]
      .map((name) => ({
        name,
        ...expected(at('2026-03-01T00:00:00.000Z'), at('2026-04-01T00:00:00.000Z'), name),
      }))
      .sort((a, b) => Number(cents(b.netSales) - cents(a.netSales)))
      .slice(0, 5);
    expect(d.topVendors.map((v: any) => [v.vendorId, asCents(v.netSales), v.orders])).toEqual(
      ranked.map((r) => [vendors.get(r.name)!._id, r.netSales, r.totalOrders]),
    );
    expect(d.topVendors.map((v: any) => v.vendorName)).not.toContain('tiny');
  });

  it('shop dashboard: pendingPayouts = Σ of every vendor’s due + pending, totalPayouts = paid transfers of the period', async () => {
    const owed = fmt(rows.reduce((a, r) => a + r.payout, 0n));
    const created = await payBatch(t, shop, vendors.get('Globex')!._id, 12.34);
    await transferIn(t, shop, created._id, 'awaiting_reference');
    await t.api.post(
      `/v1/payouts/transfers/${created._id}/confirm`,
      { reference: 'R-1' },
      { token: shop.token },
    );
    await eventually(async () => {
      const d = (await dashboard('?range=7d', shop.token, '/v2/dashboard')).body.data;
      expect(asCents(d.pendingPayouts)).toBe(owed);
      expect(d.totalPayouts).toBe(12.34);
    });
  });

  it('refuses bad periods with 422', async () => {
    for (const q of [
      '?range=2w',
      '?range=7d&dateStart=2026-03-01&dateEnd=2026-03-02',
      '?dateStart=2026-03-01',
      '?dateEnd=2026-03-01',
      '?dateStart=2026-02-30&dateEnd=2026-03-02',
      '?dateStart=2026-03-02&dateEnd=2026-03-01',
      '?dateStart=2020-01-01&dateEnd=2026-03-01',
      '?dateStart=03/01/2026&dateEnd=2026-03-02',
    ]) {
      for (const [path, token] of [
        ['/dashboard', vendors.get('Acme')!.token!],
        ['/v2/dashboard', shop.token],
      ]) {
        const res = await dashboard(q, token, path);
        expect([q, res.status]).toEqual([q, 422]);
        expect(res.body.error.code).toBe('VALIDATION_ERROR');
      }
    }
  });

  it('credentials: vendor only on /dashboard, shop only on /v2/dashboard; another shop sees none of it', async () => {
    expect((await dashboard('', shop.token)).status).toBe(403);
    expect((await dashboard('', merchantToken)).status).toBe(403);
    expect((await dashboard('', vendors.get('Acme')!.token!, '/v2/dashboard')).status).toBe(403);
    expect((await dashboard('', merchantToken, '/v2/dashboard')).status).toBe(403);
    const o = await dashboard('?dateStart=2026-03-01&dateEnd=2026-03-31', otherToken);
    expect(o.body.data).toMatchObject({
      netSales: 0,
      totalOrders: 0,
      refunds: 0,
      earnings: 0,
      cancelledSales: 0,
    });
    const os = await dashboard('?dateStart=2026-03-01&dateEnd=2026-03-31', other.token, '/v2/dashboard');
    expect(os.body.data).toMatchObject({ totalOrders: 0, totalRevenue: 0, topVendors: [], productsCount: 0 });
  });
});
