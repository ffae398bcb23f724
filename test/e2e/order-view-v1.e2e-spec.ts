/* eslint-disable @typescript-eslint/no-explicit-any */
import { startApp, TestApp } from '../support/app';
import { createShop, TestShop } from '../support/factory';
import { amount, c, day, payoutOf, refundScenario } from '../support/refund-scenario';
import { shopifyRefund } from '../support/refunds';

process.env.QUEUE_PREFIX = `${process.env.QUEUE_PREFIX ?? 'mp-test'}-order-view`;

/**
 * GET /v1/orders/{id}?lineItems=true keeps its v1 contract once an order has refund rows (finding
 * 12): one row per order line (its sale row), so a client that looks a line up by `lineItemId` reads
 * the sale; refund rows only with `includeRefunds=true`, after every sale row, told apart by `type`.
 * Figures to the cent against the BigInt-cents oracle (10 % commission, no settings).
 */
describe('v1 order view with refunds (e2e)', () => {
  let t: TestApp;
  let other: TestShop;
  let s: Awaited<ReturnType<typeof refundScenario>>;
  let order: Record<string, any>;
  let refund: Record<string, any>;

  const view = async (query: string, token = s.shop.token) =>
    t.api.get(`/v1/orders/${order.id}?${query}`, { token });

  beforeAll(async () => {
    t = await startApp();
    s = await refundScenario(t, 'order-view');
    other = await createShop(t, 'order-view-other');
    order = await s.order(
      [
        { price: '20.00', quantity: 1 },
        { price: '10.00', quantity: 2 },
      ],
      day(-2),
    );
    await s.send('orders/create', order);
    refund = shopifyRefund({
      orderId: order.id,
      lines: [{ lineItemId: order.line_items[0].id, quantity: 1, subtotal: '20.00' }],
      amount: '20.00',
    });
    await s.send('refunds/create', refund);
  });
  afterAll(() => t.close());

  it('lineItems=true: one row per order line, the sale rows only, as before refunds existed', async () => {
    const res = await view('lineItems=true');
    expect(res.status).toBe(200);
    const rows = res.body.orders as any[];
    expect(rows.map((r) => [r.lineItemId, r.type])).toEqual([
      [order.line_items[0].id, 'sale'],
      [order.line_items[1].id, 'sale'],
    ]);
    // a v1 client's lookup by lineItemId reads the sale, not the refund
    const refunded = rows.find((r) => r.lineItemId === order.line_items[0].id);
    expect(refunded).toMatchObject({
      quantity: 1,
      sales: amount(c('20.00')),
      payout: amount(payoutOf('20.00', 1, 10)),
    });
    expect(rows.find((r) => r.lineItemId === order.line_items[1].id)).toMatchObject({
      quantity: 2,
      sales: amount(c('20.00')),
      payout: amount(payoutOf('10.00', 2, 10)),
    });
    expect((await view('lineItems=true&includeRefunds=false')).body.orders).toEqual(rows);
  });

  it('includeRefunds=true: the refund rows after every sale row, each with its type', async () => {
    const res = await view('lineItems=true&includeRefunds=true');
    expect(res.status).toBe(200);
    const rows = res.body.orders as any[];
    expect(rows.map((r) => [r.lineItemId, r.type])).toEqual([
      [order.line_items[0].id, 'sale'],
      [order.line_items[1].id, 'sale'],
      [order.line_items[0].id, 'refund'],
    ]);
    expect(rows[2]).toMatchObject({
      refundId: String(refund.id),
      refundedQuantity: 1,
      sales: amount(-c('20.00')),
      payout: amount(-payoutOf('20.00', 1, 10)),
    });
  });

  it('a bad includeRefunds, or includeRefunds without lineItems=true, is a 422; another shop gets 404', async () => {
    const bad = await view('lineItems=true&includeRefunds=yes');
    expect(bad.status).toBe(422);
    expect(bad.body.error).toContain('includeRefunds');
    const alone = await view('includeRefunds=true');
    expect(alone.status).toBe(422);
    expect(alone.body.error).toContain('includeRefunds');
    expect((await view('lineItems=true&includeRefunds=true', other.token)).status).toBe(404);
  });
});
