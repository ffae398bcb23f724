/* eslint-disable @typescript-eslint/no-explicit-any */
import { startApp, TestApp } from '../support/app';
import { createVendor } from '../support/payout-fixtures';
import { amount, c, day, payoutOf, refundScenario, share } from '../support/refund-scenario';
import { shopifyRefund } from '../support/refunds';
import { nextVersion, platformId, shopifyOrder } from '../support/webhooks';
import { MetricsService } from '../../src/ops/metrics.service';

// Refunds into refund rows (issue 17, DESIGN §6) end to end over HTTP on the real store and Redis,
// every figure checked to the cent against the BigInt-cents oracle of test/support/refund-scenario.ts.
process.env.QUEUE_PREFIX = `${process.env.QUEUE_PREFIX ?? 'mp-test'}-refunds`;

describe('refund rows (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());
  const scenario = (prefix: string, vendorNames?: string[]) => refundScenario(t, prefix, vendorNames);

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
    // refund rows come only when asked for (finding 12), after the sale rows
    const lines = (
      await t.api.get(`/v1/orders/${o.id}?lineItems=true&includeRefunds=true`, { token: s.shop.token })
    ).body.orders;
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

  it('Shopify’s sample partially_refunded order: figures from the ordered quantity, shipping split over all lines', async () => {
    // The platform's sample shape (3 × 199.00, discounts 3.34 / 3.33 / 3.33, shipping 10.00, two
    // lines refunded: current_quantity 0), with ids a safe integer (its own order id is beyond 2^53).
    const s = await scenario('rf-sample');
    const o = await s.order(
      [
        { price: '199.00', quantity: 1 },
        { price: '199.00', quantity: 1 },
        { price: '199.00', quantity: 1 },
      ],
      day(-3),
      { shipping: ['10.00'], financialStatus: 'partially_refunded' },
    );
    const discounts = ['3.34', '3.33', '3.33'];
    o.line_items.forEach((l: any, i: number) => {
      l.discount_allocations = [{ amount: discounts[i], discount_application_index: 0 }];
      l.current_quantity = i < 2 ? 0 : 1;
    });
    await s.send('orders/create', o);
    const read = (await t.api.get(`/v1/orders/${o.id}?lineItems=true`, { token: s.shop.token })).body.orders;
    // in the order's line order (the read's order among equal dates is not the payload's)
    const position = (l: any) => o.line_items.findIndex((x: any) => String(x.id) === String(l.lineItemId));
    const lines = [...read].sort((a: any, b: any) => position(a) - position(b));
    expect(lines.map(position)).toEqual([0, 1, 2]);
    expect(lines.map((l: any) => [l.sales, l.salesAfterDiscount, l.shipping])).toEqual([
      [199, amount(c('199.00') - c('3.34')), 3.33],
      [199, amount(c('199.00') - c('3.33')), 3.33],
      [199, amount(c('199.00') - c('3.33')), 3.34],
    ]);
    for (const l of lines) {
      for (const f of ['sales', 'salesAfterDiscount', 'commission', 'payout', 'shipping'])
        expect(l[f]).toBeGreaterThan(0);
    }
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
});
