/* eslint-disable @typescript-eslint/no-explicit-any */
import { startApp, TestApp } from '../support/app';
import { vendorToken } from '../support/catalog';
import { cents, line, num } from '../support/cents';
import { csvObjects } from '../support/csv';
import { measured } from '../support/db-cost';
import { createMerchantKey, createShop, TestShop } from '../support/factory';
import { createVendor } from '../support/payout-fixtures';
import { deliver, shopifyOrder } from '../support/webhooks';

/** Sale rows of the batch: more than two of the store's cursor batches (100 rows each). */
const ORDERS = 3;
const LINES_PER_ORDER = 80;
/** A price per line whose 10 % commission often lands on a half cent (the half-up trap). */
const priceOf = (i: number) => `${1 + ((i * 37) % 250)}.${String((i * 53) % 100).padStart(2, '0')}`;

/**
 * Issue 28, finding 10: the JSON statement of a large batch. It is streamed: the whole batch in the
 * usual shape, its rows read from the store a cursor batch at a time (never all at once), its totals
 * exact to the cent over every row.
 */
describe('the JSON statement of a large batch (e2e)', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;
  let vendor: { _id: string; vendorName: string };
  let stranger: { _id: string };
  let batchId: string;
  /** The oracle's lines, in statement order (order date, then row id = line order within an order). */
  const lines: Array<ReturnType<typeof line>> = [];
  const DEDUCTION = cents('12.34');

  beforeAll(async () => {
    process.env.QUEUE_PREFIX = `${process.env.QUEUE_PREFIX ?? 'mp-test'}-stmt-large-${process.pid}`;
    t = await startApp();
    shop = await createShop(t, 'stmt-large');
    other = await createShop(t, 'stmt-large-other');
    const mk = await createMerchantKey(t, shop);
    vendor = await createVendor(t, shop, 'Large Vendor', {
      commissionType: 'percentage',
      commissionAmount: 10,
    });
    stranger = await createVendor(t, shop, 'Other Vendor');
    for (let o = 0; o < ORDERS; o++) {
      const lineItems = Array.from({ length: LINES_PER_ORDER }, (_, j) => {
        const i = o * LINES_PER_ORDER + j;
        lines.push(line(priceOf(i), 1 + (i % 3), 10n));
        return {
          title: `Item ${i}`,
          sku: `SKU-${i}`,
          vendor: vendor.vendorName,
          price: priceOf(i),
          quantity: 1 + (i % 3),
        };
      });
      await deliver(
        t,
        shop,
        'orders/create',
        shopifyOrder({
          createdAt: new Date(`2026-03-0${o + 1}T10:00:00Z`),
          financialStatus: 'paid',
          lineItems,
        }),
      );
    }
    const adj = await t.api.post(
      '/v2/payout-adjustments',
      { vendorId: vendor._id, amount: num(DEDUCTION), type: 'DEDUCTION', customItemDate: '2026-03-10' },
      { token: mk.token },
    );
    expect(adj.status).toBe(201);
    const trig = await t.api.post(
      '/v1/payouts/batches',
      { until: '2026-03-31', vendorId: vendor._id },
      { token: shop.token },
    );
    expect(trig.status).toBe(202);
    batchId = trig.body.batchIds[0];
    for (let i = 0; ; i++) {
      const r = await t.api.get(`/v1/payouts/batches/${batchId}`, { token: shop.token });
      if (r.body.status === 'completed') break;
      if (i > 600) throw new Error(`batch ${batchId} still ${r.body.status}`);
      await new Promise((res) => setTimeout(res, 100));
    }
  }, 180_000);

  afterAll(() => t.close());

  const rowsNet = () => lines.reduce((s, l) => s + l.payout, 0n);

  it('v1: every row, in order, each to the cent, totals over the whole batch, read from the store in cursor batches', async () => {
    const m = await measured(t, 'GET', `/v1/payouts/batches/${batchId}/statement`, undefined, {
      token: shop.token,
    });
    expect(m.res.status).toBe(200);
    expect(m.res.headers.get('content-type')).toMatch(/^application\/json/);
    const s = m.res.body;
    const rows = lines.length;
    expect(rows).toBeGreaterThan(200);
    expect(s).toMatchObject({
      batchId,
      status: 'completed',
      vendor: { id: vendor._id },
      period: { from: '2026-03-01T10:00:00.000Z', periodEnd: '2026-03-31' },
      openingBalance: 0,
    });
    const sales = s.rows.filter((r: any) => r.kind === 'sale');
    expect(sales).toHaveLength(rows);
    expect(sales.map((r: any) => r.sku)).toEqual(lines.map((_, i) => `SKU-${i}`));
    sales.forEach((r: any, i: number) => {
      expect(r.amount).toBe(num(lines[i].payout));
      expect(r.figures.commission).toBe(num(lines[i].commission));
    });
    expect(s.rows.at(-1)).toMatchObject({ kind: 'adjustment', amount: -num(DEDUCTION) });
    const net = rowsNet() - DEDUCTION;
    expect(s.totals).toMatchObject({
      saleCount: rows,
      refundCount: 0,
      adjustmentCount: 1,
      sales: num(rowsNet()),
      refunds: 0,
      adjustments: -num(DEDUCTION),
      net: num(net),
    });
    expect(s.totals.figures.sales).toBe(num(lines.reduce((x, l) => x + l.sales, 0n)));
    expect(s.totals.figures.commission).toBe(num(lines.reduce((x, l) => x + l.commission, 0n)));
    expect(s.paid).toBe(num(net));
    expect(s.closingBalance).toBe(0);

    // Memory-bounded: the rows came from the store one cursor batch (≤ 100 documents) at a time: a
    // find and its getMores (a getMore names its cursor, not the collection; the adjustments are one find).
    const reads = m.cost.log.filter(
      (e) => (e.collection === 'line_items' && e.command === 'find') || e.command === 'getMore',
    );
    expect(reads.map((e) => e.documents).reduce((a, b) => a + b, 0)).toBe(rows);
    expect(reads.map((e) => e.documents)).toEqual([100, 100, rows - 200]);
  });

  it('V2: the same document in its envelope, for the shop and for the vendor itself; the CSV agrees to the cent', async () => {
    const v1 = (await t.api.get(`/v1/payouts/batches/${batchId}/statement`, { token: shop.token })).body;
    const asShop = await t.api.get(`/v2/payouts/batches/${batchId}/statement`, { token: shop.token });
    expect(asShop.status).toBe(200);
    // (the transfer's state may move on between two reads: a manual transfer awaits its reference)
    const sameAs = (body: any) => ({ ...body, data: { ...body.data, transfer: null } });
    expect(sameAs(asShop.body)).toEqual({ success: true, data: { ...v1, transfer: null } });
    const tok = await vendorToken(t, shop, vendor._id);
    const asVendor = await t.api.get(`/v2/payouts/batches/${batchId}/statement`, { token: tok });
    expect(sameAs(asVendor.body)).toEqual({ success: true, data: { ...v1, transfer: null } });

    const csv = await t.api.get(`/v1/payouts/batches/${batchId}/statement`, {
      token: shop.token,
      headers: { accept: 'text/csv' },
    });
    const records = csvObjects(csv.text).rows.filter((r) => ['sale', 'adjustment'].includes(r.kind));
    expect(records.map((r) => cents(r.amount))).toEqual([...lines.map((l) => l.payout), -DEDUCTION]);
  });

  it('another vendor, another shop, an unknown and a malformed id: 404 before anything is streamed', async () => {
    const tok = await vendorToken(t, shop, stranger._id);
    expect((await t.api.get(`/v2/payouts/batches/${batchId}/statement`, { token: tok })).status).toBe(404);
    for (const [id, token] of [
      [batchId, other.token],
      ['6740b9f1c2a4e15b3c9d0a99', shop.token],
      ['nope', shop.token],
    ]) {
      const res = await t.api.get(`/v1/payouts/batches/${id}/statement`, { token });
      expect(res.status).toBe(404);
      expect(typeof res.body.error).toBe('string');
    }
  });
});
