import { startApp, TestApp } from '../support/app';
import { amount, day, payoutOf, refundScenario, share } from '../support/refund-scenario';
import { platformId } from '../support/webhooks';

process.env.QUEUE_PREFIX = `${process.env.QUEUE_PREFIX ?? 'mp-test'}-rf-sample`;

/**
 * Shopify's own test notification for `refunds/create` (the admin's "Send test notification", and
 * the sample body in Shopify's webhook reference) carries `created_at: null` and `processed_at: null`.
 * Such a refund was refused ("refund.created_at must be a date-time") and never applied (finding
 * 11). It is now dated at the delivery's `X-Shopify-Triggered-At` (stored with the delivery), else at
 * its receipt. Figures to the cent against the BigInt-cents oracle (10 % commission).
 */
describe('refunds/create with null dates (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  /** The sample body's shape (Shopify's reference), ids of an order this shop has. */
  const sampleRefund = (orderId: number, lineItemId: number) => ({
    id: platformId(),
    order_id: orderId,
    created_at: null,
    note: 'Things were damaged',
    user_id: null,
    processed_at: null,
    restock: false,
    duties: [],
    total_duties_set: {
      shop_money: { amount: '0.00', currency_code: 'USD' },
      presentment_money: { amount: '0.00', currency_code: 'USD' },
    },
    return: null,
    admin_graphql_api_id: 'gid://shopify/Refund/890088186047892319',
    refund_line_items: [
      {
        id: platformId(),
        quantity: 1,
        line_item_id: lineItemId,
        location_id: null,
        restock_type: 'no_restock',
        subtotal: 50.0,
        total_tax: 0.0,
        subtotal_set: {
          shop_money: { amount: '50.00', currency_code: 'USD' },
          presentment_money: { amount: '50.00', currency_code: 'USD' },
        },
        total_tax_set: {
          shop_money: { amount: '0.00', currency_code: 'USD' },
          presentment_money: { amount: '0.00', currency_code: 'USD' },
        },
        line_item: { id: lineItemId, quantity: 2, price: '50.00', vendor: null, sku: null },
      },
    ],
    transactions: [],
    order_adjustments: [],
  });

  async function refunded(prefix: string, headers: Record<string, string>) {
    const s = await refundScenario(t, prefix);
    const o = await s.order([{ price: '50.00', quantity: 2 }], day(-3));
    await s.send('orders/create', o);
    const before = Date.now();
    const res = await s.send('refunds/create', sampleRefund(o.id, o.line_items[0].id), { headers });
    const after = Date.now();
    const refunds = await s.rows('&type=refund');
    const delivery = await t.api.get(`/v1/webhooks/deliveries/${res.body.deliveryId}`, {
      token: s.shop.token,
    });
    expect(delivery.status).toBe(200);
    return { s, refunds, delivery: delivery.body, before, after };
  }

  it('dated at X-Shopify-Triggered-At, which the delivery keeps; figures pro rata to the cent', async () => {
    const triggered = new Date(Date.now() - 3_600_000);
    // Shopify sends nanoseconds; the instant is kept to the millisecond
    const header = triggered.toISOString().replace(/Z$/, '123456Z');
    const { s, refunds, delivery } = await refunded('rf-sample-trig', { 'x-shopify-triggered-at': header });
    expect(delivery).toMatchObject({ state: 'processed', triggeredAt: triggered.toISOString() });
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({
      type: 'refund',
      date: triggered.toISOString(),
      payout: amount(share(payoutOf('50.00', 2, 10), 1, 2)),
    });
    await s.reconcile();
  });

  it('without the header (or with one that names no time, or a future one): dated at its receipt', async () => {
    const cases: Array<Record<string, string>> = [
      {},
      { 'x-shopify-triggered-at': 'yesterday' },
      { 'x-shopify-triggered-at': new Date(Date.now() + 86_400_000).toISOString() },
    ];
    for (const [i, headers] of cases.entries()) {
      const { refunds, delivery, before, after } = await refunded(`rf-sample-recv${i}`, headers);
      expect(delivery.state).toBe('processed');
      expect(refunds).toHaveLength(1);
      const at = new Date(refunds[0].date).getTime();
      expect(at).toBeGreaterThanOrEqual(before - 1000);
      expect(at).toBeLessThanOrEqual(after + 1000);
      expect(refunds[0].payout).toBe(amount(share(payoutOf('50.00', 2, 10), 1, 2)));
    }
  });
});
