/* eslint-disable @typescript-eslint/no-explicit-any */
import { startApp, TestApp } from '../support/app';
import { vendorToken } from '../support/catalog';
import { csvObjects } from '../support/csv';
import { createMerchantKey, createShop, TestMerchantKey, TestShop } from '../support/factory';
import { createVendor } from '../support/payout-fixtures';
import { deliver, shopifyOrder } from '../support/webhooks';

import { cents, fmt, line, num } from '../support/cents';

const STATEMENT_HEADER = [
  'batchId',
  'vendorId',
  'vendorName',
  'kind',
  'date',
  'rowId',
  'orderId',
  'orderName',
  'lineItemId',
  'refundId',
  'refundLineItemId',
  'adjustmentId',
  'description',
  'sku',
  'quantity',
  'sales',
  'discount',
  'salesAfterDiscount',
  'tax',
  'shipping',
  'commission',
  'costOfItem',
  'taxOnCommissions',
  'tcs',
  'totalGlobalDeductions',
  'deduction',
  'payout',
  'amount',
];

describe('statements, CSV exports and the vendor’s own money (e2e)', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;
  let mk: TestMerchantKey;
  let a: { _id: string; vendorName: string };
  let b: { _id: string; vendorName: string };
  let batchId: string;
  let batchB: string;
  let tokA: string;
  let tokB: string;
  const NAME_A = '=HYPERLINK("http://evil.example","Click")';
  const TOTE = 'Tote, canvas "large"\nedition';
  const PLUS = "+cmd|' /C calc'!A0";
  // A's sale lines (10 %): 2 × 50.00, 1 × 19.99, 3 × 0.35 (commission 0.105 → 0.11, the half-up trap)
  const linesA = [line('50.00', 2, 10n), line('19.99', 1, 10n), line('0.35', 3, 10n)];
  const ADJ = cents('5.25');

  const waitBatch = async (id: string) => {
    for (let i = 0; i < 300; i++) {
      const r = await t.api.get(`/v1/payouts/batches/${id}`, { token: shop.token });
      if (r.body.status === 'completed') return r.body;
      await new Promise((res) => setTimeout(res, 100));
    }
    throw new Error(`batch ${id} did not complete`);
  };
  const csv = (path: string, token: string) => t.api.get(path, { token, headers: { accept: 'text/csv' } });

  beforeAll(async () => {
    process.env.QUEUE_PREFIX = `${process.env.QUEUE_PREFIX ?? 'mp-test'}-stmt-${process.pid}`;
    t = await startApp();
    shop = await createShop(t, 'stmt');
    other = await createShop(t, 'stmt-other');
    mk = await createMerchantKey(t, shop);
    a = await createVendor(t, shop, NAME_A, { commissionType: 'percentage', commissionAmount: 10 });
    b = await createVendor(t, shop, 'Stmt Beta', { commissionType: 'percentage', commissionAmount: 10 });
    await deliver(
      t,
      shop,
      'orders/create',
      shopifyOrder({
        createdAt: new Date('2026-03-01T10:00:00Z'),
        financialStatus: 'paid',
        lineItems: [
          { title: TOTE, sku: 'TOTE-L', vendor: NAME_A, price: '50.00', quantity: 2 },
          { title: 'Lamp', vendor: 'Stmt Beta', price: '10.00', quantity: 1 },
        ],
      }),
    );
    await deliver(
      t,
      shop,
      'orders/create',
      shopifyOrder({
        createdAt: new Date('2026-03-02T10:00:00Z'),
        financialStatus: 'paid',
        lineItems: [{ title: PLUS, sku: '-SKU-1', vendor: NAME_A, price: '19.99', quantity: 1 }],
      }),
    );
    await deliver(
      t,
      shop,
      'orders/create',
      shopifyOrder({
        createdAt: new Date('2026-03-03T10:00:00Z'),
        financialStatus: 'paid',
        lineItems: [{ title: '@pins', sku: 'PIN', vendor: NAME_A, price: '0.35', quantity: 3 }],
      }),
    );
    const adj = await t.api.post(
      '/v2/payout-adjustments',
      {
        vendorId: a._id,
        amount: 5.25,
        type: 'ADDITION',
        comments: '@bonus, "march"',
        customItemDate: '2026-03-04',
      },
      { token: mk.token },
    );
    expect(adj.status).toBe(201);
    const trig = await t.api.post('/v1/payouts/batches', { until: '2026-03-31' }, { token: shop.token });
    expect(trig.status).toBe(202);
    const batches = trig.body.batches as Array<{ _id: string; vendorId: string }>;
    batchId = batches.find((x) => x.vendorId === a._id)!._id;
    batchB = batches.find((x) => x.vendorId === b._id)!._id;
    await waitBatch(batchId);
    await waitBatch(batchB);
    tokA = await vendorToken(t, shop, a._id);
    tokB = await vendorToken(t, shop, b._id);
  }, 120_000);

  afterAll(() => t.close());

  describe('GET /v1/payouts/batches/{id}/statement', () => {
    it('JSON: vendor, period, opening balance, every settled row with figures and ids, totals, closing', async () => {
      const res = await t.api.get(`/v1/payouts/batches/${batchId}/statement`, { token: shop.token });
      expect(res.status).toBe(200);
      const s = res.body;
      expect(s).toMatchObject({
        batchId,
        status: 'completed',
        vendor: { id: a._id, name: NAME_A.toLowerCase() },
        period: { periodEnd: '2026-03-31', from: '2026-03-01T10:00:00.000Z' },
        openingBalance: 0,
      });
      const sales = s.rows.filter((r: any) => r.kind === 'sale');
      expect(sales.map((r: any) => r.description)).toEqual([TOTE, PLUS, '@pins']);
      sales.forEach((r: any, i: number) => {
        expect(r.figures.sales).toBe(num(linesA[i].sales));
        expect(r.figures.commission).toBe(num(linesA[i].commission));
        expect(r.figures.payout).toBe(num(linesA[i].payout));
        expect(r.amount).toBe(num(linesA[i].payout));
        expect(typeof r.orderId).toBe('number');
        expect(typeof r.lineItemId).toBe('number');
        expect(r.refundId).toBeNull();
      });
      const adj = s.rows.filter((r: any) => r.kind === 'adjustment');
      expect(adj).toHaveLength(1);
      expect(adj[0]).toMatchObject({ amount: num(ADJ), figures: null, description: '@bonus, "march"' });
      expect(adj[0].adjustmentId).toMatch(/^ADJ-/);
      const payoutSum = linesA.reduce((x, l) => x + l.payout, 0n);
      const net = payoutSum + ADJ;
      expect(s.totals).toMatchObject({
        saleCount: 3,
        refundCount: 0,
        adjustmentCount: 1,
        sales: num(payoutSum),
        refunds: 0,
        adjustments: num(ADJ),
        net: num(net),
      });
      expect(s.totals.figures.sales).toBe(num(linesA.reduce((x, l) => x + l.sales, 0n)));
      expect(s.totals.figures.commission).toBe(num(linesA.reduce((x, l) => x + l.commission, 0n)));
      expect(s.totals.figures.payout).toBe(num(payoutSum));
      expect(s.paid).toBe(num(net)); // 114.18: what the batch paid
      expect(s.closingBalance).toBe(0);
    });

    it('CSV: RFC 4180, header, quoting of commas/quotes/newlines, formula cells neutralised, plain amounts', async () => {
      const res = await csv(`/v1/payouts/batches/${batchId}/statement`, shop.token);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
      expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="statement-2026-03-31-/);
      expect(res.text).toContain('"Tote, canvas ""large""\nedition"'); // quoted, quotes doubled, LF kept
      const { header, rows } = csvObjects(res.text);
      expect(header).toEqual(STATEMENT_HEADER);
      expect(rows.map((r) => r.kind)).toEqual([
        'opening_balance',
        'sale',
        'sale',
        'sale',
        'adjustment',
        'paid',
        'closing_balance',
      ]);
      for (const r of rows) expect(r.vendorName).toBe(`'${NAME_A.toLowerCase()}`);
      const [, tote, plus, pins, adj, paid, closing] = rows;
      expect(tote.description).toBe(TOTE);
      expect(plus.description).toBe(`'${PLUS}`);
      expect(plus.sku).toBe("'-SKU-1");
      expect(pins.description).toBe("'@pins");
      expect(adj.description).toBe(`'@bonus, "march"`);
      expect(tote.amount).toBe(fmt(linesA[0].payout)); // 90.00
      expect(pins.commission).toBe('0.11');
      expect(pins.payout).toBe('0.94');
      expect(adj.amount).toBe('5.25');
      const net = linesA.reduce((x, l) => x + l.payout, 0n) + ADJ;
      expect(paid.amount).toBe(fmt(-net)); // -114.18: a negative amount stays a plain number
      expect(closing.amount).toBe('0.00');
      // The rows and the paid line add up to the closing balance (the opening line is information:
      // what a previous batch carried forward is settled among the rows).
      const sum = rows.slice(1, -1).reduce((x, r) => x + cents(r.amount), 0n);
      expect(fmt(sum)).toBe(closing.amount);
    });

    it('is audited when exported as CSV', async () => {
      const res = await t.api.get(
        `/v1/audit-events?action=payout_batch.statement.export&resourceId=${batchId}`,
        { token: shop.token },
      );
      expect(res.status).toBe(200);
      expect(res.body.total).toBeGreaterThanOrEqual(1);
      expect(res.body.events[0]).toMatchObject({
        actor: { kind: 'shop' },
        resource: { type: 'payout_batch', id: batchId },
      });
    });

    it('another shop, an unknown and a malformed id answer 404', async () => {
      for (const [id, token] of [
        [batchId, other.token],
        ['6742c1d2e3f4a5b6c7d8e9f0', shop.token],
        ['not-an-id', shop.token],
      ]) {
        const res = await t.api.get(`/v1/payouts/batches/${id}/statement`, { token });
        expect(res.status).toBe(404);
        expect((await csv(`/v1/payouts/batches/${id}/statement`, token)).status).toBe(404);
      }
    });
  });

  describe('GET /v1/payouts as CSV', () => {
    it('exports the filtered rows with every figure (a vendor filter; limit/offset do not apply)', async () => {
      const res = await csv(`/v1/payouts?vendorId=${a._id}&limit=1`, shop.token);
      expect(res.status).toBe(200);
      const { header, rows } = csvObjects(res.text);
      expect(header.slice(0, 5)).toEqual(['rowId', 'type', 'date', 'vendorId', 'vendorName']);
      expect(rows).toHaveLength(3);
      expect(rows.map((r) => r.lineItemName)).toEqual(["'@pins", `'${PLUS}`, TOTE]); // newest first
      expect(rows.every((r) => r.type === 'sale' && r.payoutStatus === 'paid' && r.batchId === batchId)).toBe(
        true,
      );
      expect(rows.map((r) => r.payout)).toEqual(['0.94', '17.99', '90.00']);
    });

    it('a bad filter is a 422 before anything is streamed', async () => {
      const res = await csv('/v1/payouts?status=nope', shop.token);
      expect(res.status).toBe(422);
    });
  });

  describe('the vendor’s own money (V2)', () => {
    it('GET /v2/payouts: a vendor sees only its own rows with figures, cursor paging', async () => {
      const first = await t.api.get('/v2/payouts?first=2', { token: tokA });
      expect(first.status).toBe(200);
      expect(first.body.data.totalCount).toBe(3);
      expect(first.body.data.items.map((r: any) => r.lineItemName)).toEqual(['@pins', PLUS]);
      expect(first.body.data.items[0].figures).toMatchObject({ sales: 1.05, commission: 0.11, payout: 0.94 });
      const next = await t.api.get(
        `/v2/payouts?first=2&after=${encodeURIComponent(first.body.data.pageInfo.endCursor)}`,
        { token: tokA },
      );
      expect(next.body.data.items.map((r: any) => r.lineItemName)).toEqual([TOTE]);
      expect(next.body.data.pageInfo.hasNextPage).toBe(false);
      const own = await t.api.get('/v2/payouts', { token: tokB });
      expect(own.body.data.items.map((r: any) => r.vendorId)).toEqual([b._id]);
      const refunds = await t.api.get('/v2/payouts?type=refund', { token: tokA });
      expect(refunds.body.data.totalCount).toBe(0);
    });

    it('GET /v2/payouts/batches/{id}/statement: own batch as JSON and CSV; another vendor’s → 404', async () => {
      const own = await t.api.get(`/v2/payouts/batches/${batchId}/statement`, { token: tokA });
      expect(own.status).toBe(200);
      const v1 = await t.api.get(`/v1/payouts/batches/${batchId}/statement`, { token: shop.token });
      expect(own.body).toEqual({ success: true, data: v1.body });
      const ownCsv = await csv(`/v2/payouts/batches/${batchId}/statement`, tokA);
      expect(ownCsv.status).toBe(200);
      expect(csvObjects(ownCsv.text).rows).toHaveLength(7);
      const foreign = await t.api.get(`/v2/payouts/batches/${batchId}/statement`, { token: tokB });
      expect(foreign.status).toBe(404);
      expect(foreign.body).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
      expect((await csv(`/v2/payouts/batches/${batchId}/statement`, tokB)).status).toBe(404);
      expect((await t.api.get(`/v2/payouts/batches/${batchB}/statement`, { token: tokB })).status).toBe(200);
      expect(
        (await t.api.get(`/v2/payouts/batches/${batchId}/statement`, { token: other.token })).status,
      ).toBe(404);
    });

    it('GET /v2/balance: the vendor’s own balance', async () => {
      const res = await t.api.get('/v2/balance', { token: tokA });
      expect(res.status).toBe(200);
      const paid = linesA.reduce((x, l) => x + l.payout, 0n) + ADJ;
      expect(res.body.data).toMatchObject({ due: 0, pending: 0, paidToDate: num(paid), carriedForward: 0 });
      expect(res.body.data.lastBatch.batchId).toBe(batchId);
    });

    it('a merchant token is refused (403) and a shop token cannot read a balance (403)', async () => {
      for (const path of ['/v2/payouts', `/v2/payouts/batches/${batchId}/statement`, '/v2/balance']) {
        const res = await t.api.get(path, { token: mk.token });
        expect(res.status).toBe(403);
      }
      expect((await t.api.get('/v2/balance', { token: shop.token })).status).toBe(403);
    });
  });
});
