/* eslint-disable @typescript-eslint/no-explicit-any */
import { shopScope } from '../../src/common/tenancy';
import { MetricsService } from '../../src/ops/metrics.service';
import { PayoutReconcileService } from '../../src/payouts/payout-reconcile.service';
import { startApp, TestApp } from '../support/app';
import { createMerchantKey, createShop } from '../support/factory';
import { createVendor } from '../support/payout-fixtures';
import { shopifyRefund } from '../support/refunds';
import { DAY } from '../support/test-clock';
import { nextVersion, platformId, sendWebhook, shopifyOrder, waitForWebhooks } from '../support/webhooks';

// Refunds into refund rows, netting and carried-forward balances (issue 17, DESIGN §6 and §8),
// end to end over HTTP on the real store and Redis. Every figure is checked to the cent against an
// oracle in BigInt cents written here, apart from the money function.
process.env.QUEUE_PREFIX = `${process.env.QUEUE_PREFIX ?? 'mp-test'}-refunds`;

// ---- the oracle (BigInt cents, half-up away from zero) ----------------------------------------
const c = (amount: string | number): bigint => BigInt(Math.round(Number(amount) * 100));
const half = (n: bigint, d: bigint): bigint => {
  const neg = n < 0n !== d < 0n;
  const a = n < 0n ? -n : n;
  const b = d < 0n ? -d : d;
  const q = (2n * a + b) / (2n * b);
  return neg ? -q : q;
};
const amount = (cents: bigint): number => Number(cents) / 100;
/** Payout of a line at a percentage commission (no settings): sales − half-up(sales × rate / 100). */
const payoutOf = (price: string, qty: number, rate: number): bigint => {
  const sales = c(price) * BigInt(qty);
  return sales - half(sales * BigInt(rate), 100n);
};
/** A refund row of k of n units (not the last): −half-up(figure × k / n). */
const share = (figure: bigint, k: number, n: number): bigint => -half(figure * BigInt(k), BigInt(n));

const ymd = (d: Date) => d.toISOString().slice(0, 10);
const day = (offset: number) => new Date(Date.now() + offset * DAY);

describe('refunds, netting and vendor balances (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  /** A shop with vendors at 10 %, and the steps every scenario takes. */
  async function scenario(prefix: string, vendorNames = ['alpha']) {
    const shop = await createShop(t, prefix);
    const vendors: Array<{ _id: string; vendorName: string }> = [];
    for (const name of vendorNames) {
      vendors.push(
        await createVendor(t, shop, `${prefix} ${name}`, {
          commissionType: 'percentage',
          commissionAmount: 10,
        }),
      );
    }
    const send = async (topic: string, payload: unknown) => {
      const res = await sendWebhook(t, shop, topic, payload);
      expect(res.status).toBe(200);
      await waitForWebhooks(t, shop, [res.webhookId]);
      return res;
    };
    const order = async (
      lines: Array<{ vendor?: number; price: string; quantity: number }>,
      createdAt: Date,
      extra: Record<string, unknown> = {},
    ) => {
      const payload = shopifyOrder({
        createdAt,
        financialStatus: 'paid',
        lineItems: lines.map((l) => ({
          id: platformId(),
          vendor: vendors[l.vendor ?? 0].vendorName,
          price: l.price,
          quantity: l.quantity,
        })),
        ...extra,
      });
      return payload;
    };
    const batch = async (until: Date, vendorIndex = 0) => {
      const res = await t.api.post(
        '/v1/payouts/batches',
        { until: ymd(until), vendorId: vendors[vendorIndex]._id },
        { token: shop.token },
      );
      expect(res.status).toBe(202);
      const id = res.body.batchIds[0];
      for (let i = 0; i < 200; i++) {
        const b = await t.api.get(`/v1/payouts/batches/${id}`, { token: shop.token });
        if (['completed', 'carried_forward', 'failed'].includes(b.body.status)) return b.body;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error('batch did not settle');
    };
    const balance = async (vendorIndex = 0) => {
      const res = await t.api.get(`/v1/vendors/${vendors[vendorIndex]._id}/balance`, { token: shop.token });
      expect(res.status).toBe(200);
      return res.body;
    };
    const rows = async (query = '') => {
      const res = await t.api.get(`/v1/payouts?limit=250${query}`, { token: shop.token });
      expect(res.status).toBe(200);
      return res.body.payouts as any[];
    };
    /** payouts:reconcile's service: every vendor balance proven against the rows. */
    const reconcile = async () => {
      const proof = await t.app.get(PayoutReconcileService).reconcile(shopScope(shop.shopId));
      expect(proof.vendors.filter((v) => !v.ok)).toEqual([]);
      return proof;
    };
    return { shop, vendors, send, order, batch, balance, rows, reconcile };
  }

  it('a refund of 1 of 2 units before the payout: the next batch pays 45.00 (orders/updated with refunds[])', async () => {
    const s = await scenario('rf-before');
    const o = await s.order([{ price: '50.00', quantity: 2 }], day(-6));
    await s.send('orders/create', o);
    const refund = shopifyRefund({
      orderId: o.id,
      processedAt: day(-5),
      lines: [{ lineItemId: o.line_items[0].id, quantity: 1 }],
      amount: '50.00',
    });
    const updated = nextVersion(o, { financial_status: 'partially_refunded', refunds: [refund] });
    updated.line_items = [{ ...o.line_items[0], current_quantity: 1 }];
    await s.send('orders/updated', updated);

    const list = await s.rows();
    const sale = list.find((r) => r.type === 'sale');
    const back = list.find((r) => r.type === 'refund');
    // the sale row keeps the 2 units ordered: payout 90.00, never rewritten by the refund
    expect(sale).toMatchObject({ quantity: 2, payout: amount(payoutOf('50.00', 2, 10)), refundId: null });
    expect(back).toMatchObject({
      refundId: String(refund.id),
      quantity: 1,
      payout: amount(share(payoutOf('50.00', 2, 10), 1, 2)),
      date: refund.processed_at,
      payoutStatus: 'unpaid',
    });
    expect((await s.rows('&type=refund')).map((r) => r._id)).toEqual([back._id]);
    expect((await s.rows('&type=sale')).map((r) => r._id)).toEqual([sale._id]);

    expect(await s.balance()).toMatchObject({ due: 45, pending: 0, paidToDate: 0, carriedForward: 0 });
    const b = await s.batch(day(-1));
    expect(b).toMatchObject({ status: 'completed', total: 45, net: 45, refundCount: 1, refundTotal: -45 });
    expect(await s.balance()).toMatchObject({ due: 0, paidToDate: 45, carriedForward: 0 });
    await s.reconcile();
    // metrics: refund rows by shop and the amount clawed back
    const metrics = await t.app.get(MetricsService).registry.metrics();
    expect(metrics).toContain(`marketplace_refund_rows_total{shop="${s.shop.shopId}"} 1`);
    expect(metrics).toContain(`marketplace_refund_clawed_back_total{shop="${s.shop.shopId}"} 45`);
  });

  it('the same refund after the payout: −45.00 + 18.00 carries −27.00 forward; a later sale is paid net', async () => {
    const s = await scenario('rf-after');
    const o = await s.order([{ price: '50.00', quantity: 2 }], day(-10));
    await s.send('orders/create', o);
    expect(await s.batch(day(-8))).toMatchObject({ status: 'completed', total: 90 });

    const refund = shopifyRefund({
      orderId: o.id,
      processedAt: day(-4),
      lines: [{ lineItemId: o.line_items[0].id, quantity: 1 }],
    });
    await s.send('refunds/create', refund);
    await s.send('orders/create', await s.order([{ price: '20.00', quantity: 1 }], day(-4)));
    const second = await s.batch(day(-3));
    const net = share(payoutOf('50.00', 2, 10), 1, 2) + payoutOf('20.00', 1, 10); // −45.00 + 18.00
    expect(amount(net)).toBe(-27);
    expect(second).toMatchObject({
      status: 'carried_forward',
      total: 0,
      net: -27,
      openingBalance: 0,
      closingBalance: -27,
    });
    expect(await s.balance()).toMatchObject({
      due: -27,
      paidToDate: 90,
      carriedForward: -27,
      lastBatch: { batchId: second._id, status: 'carried_forward', net: -27, total: 0 },
    });
    // every row stays due: the refund row is unpaid and held by no batch
    expect((await s.rows('&type=refund'))[0]).toMatchObject({ payoutStatus: 'unpaid', batchId: null });

    await s.send('orders/create', await s.order([{ price: '50.00', quantity: 1 }], day(-2)));
    const third = await s.batch(day(-1));
    const paid = net + payoutOf('50.00', 1, 10); // −27.00 + 45.00
    expect(third).toMatchObject({
      status: 'completed',
      total: amount(paid),
      openingBalance: -27,
      closingBalance: 0,
      refundCount: 1,
      refundTotal: -45,
      lineItemCount: 3,
    });
    expect(await s.balance()).toMatchObject({ due: 0, paidToDate: 90 + 18, carriedForward: 0 });
    const refundRow = (await s.rows('&type=refund'))[0];
    expect(refundRow).toMatchObject({ payoutStatus: 'paid', paid: -45, balance: 0, batchId: third._id });
    await s.reconcile();

    // the audit trail: the refund recorded by the platform, the batch carried forward
    const audit = async (action: string) =>
      (await t.api.get(`/v1/audit-events?limit=250&action=${action}`, { token: s.shop.token })).body;
    const recorded = await audit('refund.record');
    expect(recorded.total).toBe(1);
    const carried = await audit('payout_batch.carry_forward');
    expect(carried.total).toBe(1);
    expect(JSON.stringify([recorded, carried])).toContain('"platform"');
    expect(JSON.stringify(carried)).toContain(second._id);
  });

  it('a full refund after the payout nets every figure to exactly 0.00 over the two batches', async () => {
    const s = await scenario('rf-full');
    const o = await s.order([{ price: '33.33', quantity: 1 }], day(-9));
    await s.send('orders/create', o);
    const first = await s.batch(day(-8));
    expect(first.total).toBe(amount(payoutOf('33.33', 1, 10)));
    await s.send(
      'refunds/create',
      shopifyRefund({
        orderId: o.id,
        processedAt: day(-3),
        lines: [{ lineItemId: o.line_items[0].id, quantity: 1 }],
      }),
    );
    const second = await s.batch(day(-2));
    expect(second).toMatchObject({ status: 'carried_forward', net: -first.total });
    const lines = (await t.api.get(`/v1/orders/${o.id}?lineItems=true`, { token: s.shop.token })).body.orders;
    expect(lines).toHaveLength(2);
    for (const f of [
      'sales',
      'salesAfterDiscount',
      'commission',
      'payout',
      'tax',
      'shipping',
      'costOfItem',
    ]) {
      expect(lines.reduce((n: bigint, l: any) => n + c(l[f]), 0n)).toBe(0n);
    }
    expect(amount(c(first.total) + c(second.net))).toBe(0);
    await s.reconcile();
  });

  it('two partial refunds adding up to the whole line: the remainder rule nets it to exactly 0.00', async () => {
    const s = await scenario('rf-two');
    const o = await s.order([{ price: '33.33', quantity: 3 }], day(-9));
    await s.send('orders/create', o);
    const lineId = o.line_items[0].id;
    await s.send(
      'refunds/create',
      shopifyRefund({ orderId: o.id, processedAt: day(-5), lines: [{ lineItemId: lineId, quantity: 1 }] }),
    );
    await s.send(
      'refunds/create',
      shopifyRefund({ orderId: o.id, processedAt: day(-4), lines: [{ lineItemId: lineId, quantity: 2 }] }),
    );
    const lines = (await t.api.get(`/v1/orders/${o.id}?lineItems=true`, { token: s.shop.token })).body.orders;
    const sale = lines.find((l: any) => l.type === 'sale');
    const [r1, r2] = lines
      .filter((l: any) => l.type === 'refund')
      .sort((a: any, b: any) => a.refundedQuantity - b.refundedQuantity);
    // sales 99.99, commission 10.00, payout 89.99; one third: −33.33 / −3.33 / −30.00; the rest takes the remainder
    expect(sale).toMatchObject({ sales: 99.99, commission: 10, payout: 89.99 });
    for (const f of ['sales', 'commission', 'payout']) {
      expect(r1[f]).toBe(amount(share(c(sale[f]), 1, 3)));
      expect(c(sale[f]) + c(r1[f]) + c(r2[f])).toBe(0n);
    }
    expect(r2).toMatchObject({ sales: -66.66, commission: -6.67, payout: -59.99, refundedQuantity: 2 });
    const b = await s.batch(day(-1));
    expect(b).toMatchObject({ status: 'carried_forward', net: 0, total: 0 });
    await s.reconcile();
  });

  it('a refund spanning two vendors’ lines: one refund row for each vendor', async () => {
    const s = await scenario('rf-two-vendors', ['alpha', 'beta']);
    const o = await s.order(
      [
        { vendor: 0, price: '40.00', quantity: 2 },
        { vendor: 1, price: '15.50', quantity: 2 },
      ],
      day(-5),
    );
    await s.send('orders/create', o);
    await s.send(
      'refunds/create',
      shopifyRefund({
        orderId: o.id,
        processedAt: day(-3),
        lines: [
          { lineItemId: o.line_items[0].id, quantity: 1 },
          { lineItemId: o.line_items[1].id, quantity: 2 },
        ],
      }),
    );
    const refunds = await s.rows('&type=refund');
    expect(refunds).toHaveLength(2);
    const ofVendor = (i: number) => refunds.find((r) => r.vendorId === s.vendors[i]._id);
    expect(ofVendor(0).payout).toBe(amount(share(payoutOf('40.00', 2, 10), 1, 2)));
    expect(ofVendor(1).payout).toBe(-amount(payoutOf('15.50', 2, 10)));
    expect((await s.balance(0)).due).toBe(
      amount(payoutOf('40.00', 2, 10) + share(payoutOf('40.00', 2, 10), 1, 2)),
    );
    expect((await s.balance(1)).due).toBe(0);
    await s.reconcile();
  });

  it('a shipping-only refund is recorded on the order as unattributed and changes no vendor figure', async () => {
    const s = await scenario('rf-ship');
    const o = await s.order([{ price: '25.00', quantity: 1 }], day(-4), { shipping: ['5.00'] });
    await s.send('orders/create', o);
    const before = await s.balance();
    const refund = shopifyRefund({
      orderId: o.id,
      processedAt: day(-2),
      adjustments: [{ kind: 'shipping_refund', amount: '-5.00' }],
      amount: '5.00',
    });
    await s.send('refunds/create', refund);
    expect(await s.rows('&type=refund')).toEqual([]);
    expect(await s.balance()).toEqual(before);
    const read = await t.api.get(`/v1/orders/${o.id}`, { token: s.shop.token });
    expect(read.body.unattributedRefunds).toEqual([
      {
        refundId: String(refund.id),
        kind: 'shipping_refund',
        amount: -5,
        reason: 'Shipping refund',
        processedAt: refund.processed_at,
      },
    ]);
    await s.reconcile();
  });

  it('the same refund in refunds/create and orders/updated, each repeated, is counted once', async () => {
    const s = await scenario('rf-dup');
    const o = await s.order([{ price: '50.00', quantity: 2 }], day(-5));
    await s.send('orders/create', o);
    const refund = shopifyRefund({
      orderId: o.id,
      processedAt: day(-3),
      lines: [{ lineItemId: o.line_items[0].id, quantity: 1 }],
    });
    const updated = nextVersion(o, { financial_status: 'partially_refunded', refunds: [refund] });
    await Promise.all([
      s.send('refunds/create', refund),
      s.send('orders/updated', updated),
      s.send('refunds/create', refund),
    ]);
    await s.send('orders/updated', nextVersion(updated));
    await s.send('orders/paid', nextVersion(updated, {}, 2000));
    expect(await s.rows('&type=refund')).toHaveLength(1);
    expect((await s.balance()).due).toBe(45);
    await s.reconcile();
  });

  it('a refund that arrives before its order is kept and applied when the order arrives', async () => {
    const s = await scenario('rf-early');
    const o = await s.order([{ price: '50.00', quantity: 2 }], day(-5));
    const refund = shopifyRefund({
      orderId: o.id,
      processedAt: day(-3),
      lines: [{ lineItemId: o.line_items[0].id, quantity: 1 }],
    });
    const early = await s.send('refunds/create', refund);
    const delivery = await t.api.get(`/v1/webhooks/deliveries/${early.body.deliveryId}`, {
      token: s.shop.token,
    });
    expect(delivery.body).toMatchObject({
      state: 'processed',
      result: expect.stringMatching(/kept until order/),
    });
    expect(await s.rows()).toEqual([]);
    await s.send('orders/create', o);
    const refunds = await s.rows('&type=refund');
    expect(refunds).toHaveLength(1);
    expect(refunds[0].payout).toBe(-45);
    expect((await s.balance()).due).toBe(45);
    await s.reconcile();
  });

  it('orders/cancelled with its refund after the payout claws the whole line back', async () => {
    const s = await scenario('rf-cancel');
    const o = await s.order([{ price: '12.35', quantity: 3 }], day(-9));
    await s.send('orders/create', o);
    const paid = await s.batch(day(-8));
    expect(paid.total).toBe(amount(payoutOf('12.35', 3, 10)));
    const refund = shopifyRefund({
      orderId: o.id,
      processedAt: day(-2),
      lines: [{ lineItemId: o.line_items[0].id, quantity: 3 }],
    });
    await s.send(
      'orders/cancelled',
      nextVersion(o, {
        financial_status: 'refunded',
        cancelled_at: day(-2).toISOString(),
        refunds: [refund],
      }),
    );
    const b = await s.batch(day(-1));
    expect(b).toMatchObject({ status: 'carried_forward', net: -paid.total, closingBalance: -paid.total });
    expect(await s.balance()).toMatchObject({ carriedForward: -paid.total, due: -paid.total });
    await s.reconcile();
  });

  it('a refund cut while its line had no vendor follows the line to the vendor created later', async () => {
    const s = await scenario('rf-late-vendor');
    const o = shopifyOrder({
      createdAt: day(-6),
      financialStatus: 'paid',
      lineItems: [{ id: platformId(), vendor: 'rf late vendor', price: '50.00', quantity: 2 }],
    });
    await s.send('orders/create', o);
    await s.send(
      'refunds/create',
      shopifyRefund({
        orderId: o.id,
        processedAt: day(-4),
        lines: [{ lineItemId: o.line_items[0].id, quantity: 1 }],
      }),
    );
    expect(await s.rows()).toEqual([]); // no vendor yet: not a payout row
    const late = await createVendor(t, s.shop, 'RF Late Vendor', {
      commissionType: 'percentage',
      commissionAmount: 10,
    });
    await s.send('orders/updated', nextVersion(o, { financial_status: 'partially_refunded' }));
    const rows = await s.rows();
    expect(rows.map((r) => [r.type, r.vendorId, r.payout]).sort()).toEqual([
      ['refund', late._id, -45],
      ['sale', late._id, 90],
    ]);
    const balance = await t.api.get(`/v1/vendors/${late._id}/balance`, { token: s.shop.token });
    expect(balance.body.due).toBe(45);
    await s.reconcile();
  });

  it('GET /v1/report and the V2 order totals agree with the rows (sale and refund)', async () => {
    const s = await scenario('rf-report');
    const o = await s.order([{ price: '19.99', quantity: 3 }], day(-5));
    await s.send('orders/create', o);
    await s.send(
      'refunds/create',
      shopifyRefund({
        orderId: o.id,
        processedAt: day(-3),
        lines: [{ lineItemId: o.line_items[0].id, quantity: 1 }],
      }),
    );
    const all = await s.rows();
    const payout = all.reduce((n, r) => n + c(r.payout), 0n);
    const report = await t.api.get(`/v1/report/${s.vendors[0]._id}`, { token: s.shop.token });
    expect(report.body.total).toBe(2);
    expect(report.body.totals.payout).toBe(amount(payout));
    expect(report.body.totals.sales).toBe(amount(c('59.97') + share(c('59.97'), 1, 3)));
    const v2 = await t.api.get('/v2/orders', { token: s.shop.token });
    const summary = v2.body.data.orders.find((x: any) => x.orderId === o.id);
    expect(summary).toMatchObject({
      totalPayout: amount(payout),
      totalQuantity: 3,
      lineItemCount: 1,
      vendorPayoutStatus: 'unpaid',
    });
  });

  it('the balance: another shop or an unknown vendor gets 404, a merchant token 403', async () => {
    const s = await scenario('rf-tenancy');
    const other = await createShop(t, 'rf-tenancy-other');
    const path = `/v1/vendors/${s.vendors[0]._id}/balance`;
    expect((await t.api.get(path, { token: other.token })).status).toBe(404);
    expect(
      (await t.api.get('/v1/vendors/6740b9f1c2a4e15b3c9d0a99/balance', { token: s.shop.token })).status,
    ).toBe(404);
    expect((await t.api.get('/v1/vendors/nope/balance', { token: s.shop.token })).status).toBe(404);
    const mk = await createMerchantKey(t, s.shop);
    expect((await t.api.get(path, { token: mk.token })).status).toBe(403);
    expect(await s.balance()).toEqual({
      vendorId: s.vendors[0]._id,
      due: 0,
      pending: 0,
      paidToDate: 0,
      carriedForward: 0,
      lastBatch: null,
    });
  });
});
