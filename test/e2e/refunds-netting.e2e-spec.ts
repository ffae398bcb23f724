/* eslint-disable @typescript-eslint/no-explicit-any */
import { startApp, TestApp } from '../support/app';
import { createMerchantKey, createShop } from '../support/factory';
import { amount, c, day, payoutOf, refundScenario, share } from '../support/refund-scenario';
import { shopifyRefund } from '../support/refunds';
import { nextVersion } from '../support/webhooks';

// Refunds after a payout, netting and carried-forward balances (issue 17, DESIGN §8) end to end,
// every figure checked to the cent against the BigInt-cents oracle; payouts:reconcile after each.
process.env.QUEUE_PREFIX = `${process.env.QUEUE_PREFIX ?? 'mp-test'}-refunds-netting`;

describe('netting and vendor balances (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());
  const scenario = (prefix: string, vendorNames?: string[]) => refundScenario(t, prefix, vendorNames);

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
    // Its statement: the −27.00 carried in is the refund and the 18.00 sale, settled and listed here.
    const statement = (await t.api.get(`/v1/payouts/batches/${third._id}/statement`, { token: s.shop.token }))
      .body;
    expect(statement.rows.map((r: { kind: string }) => r.kind).sort()).toEqual(['refund', 'sale', 'sale']);
    expect(statement).toMatchObject({ openingBalance: -27, paid: amount(paid), closingBalance: 0 });
    expect(statement.totals).toMatchObject({ refunds: -45, net: amount(paid) });
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
    const lines = (
      await t.api.get(`/v1/orders/${o.id}?lineItems=true&includeRefunds=true`, { token: s.shop.token })
    ).body.orders;
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
