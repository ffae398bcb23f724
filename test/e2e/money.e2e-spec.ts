/* eslint-disable @typescript-eslint/no-explicit-any */
import { calculateLineItem, MoneySettings, recalculateLineItem, splitShipping } from '../../src/common/money';
import { startApp, TestApp } from '../support/app';
import { createVendor, uploadSkus } from '../support/catalog';
import { createShop, TestShop } from '../support/factory';
import { deliver, eventually, shopifyOrder } from '../support/webhooks';

/** The figures a shop sees over HTTP are the engine's, under every shop setting, before and after recalculation. */
describe('money figures end to end (e2e)', () => {
  let t: TestApp;
  let shop: TestShop;

  beforeAll(async () => {
    t = await startApp();
    shop = await createShop(t, 'money');
    await createVendor(t, shop, 'Fifteen', { commissionType: 'percentage', commissionAmount: 15 });
    await createVendor(t, shop, 'Half', { commissionType: 'percentage', commissionAmount: 50 });
    await uploadSkus(t, shop, [
      { sku: 'FLAT-SKU', commissionType: 'flat', commissionRate: 0.75, costOfGoods: 1.1 },
    ]);
  });
  afterAll(() => t.close());

  const lines = async (orderId: number): Promise<any[]> =>
    (await t.api.get(`/v1/orders/${orderId}?lineItems=true`, { token: shop.token })).body.orders;
  const settings = async (s: Partial<MoneySettings>): Promise<MoneySettings> =>
    (await t.api.put('/v1/shop/settings', s, { token: shop.token })).body.settings;

  it('applies every shop setting at ingestion, then the new settings on recalculation', async () => {
    const s1 = await settings({
      taxOnCommissionRate: 18,
      tcsRate: 1,
      globalDeductionRate: 2,
      payShippingToVendor: true,
      payTaxToVendor: true,
    });
    const order = shopifyOrder({
      financialStatus: 'paid',
      shipping: ['4.99', '2.00'],
      lineItems: [
        { sku: 'M-1', vendor: 'Fifteen', price: '24.99', quantity: 3, discounts: ['7.50'], taxes: ['6.75'] },
        { sku: 'FLAT-SKU', vendor: 'Fifteen', price: '9.95', quantity: 7, taxes: ['3.10', '0.25'] },
        { sku: 'M-3', vendor: 'Half', price: '0.01', quantity: 1 },
      ],
    });
    await deliver(t, shop, 'orders/create', order);
    const shares = splitShipping('6.99', [74.97, 69.65, 0.01]);
    expect(shares.reduce((a, b) => a + b, 0)).toBeCloseTo(6.99, 10);
    const expected = [
      calculateLineItem(
        {
          price: '24.99',
          quantity: 3,
          discounts: ['7.50'],
          taxes: ['6.75'],
          shipping: shares[0],
          rate: { source: 'vendor', type: 'percentage', amount: 15 },
          costOfGoods: null,
        },
        s1,
      ),
      calculateLineItem(
        {
          price: '9.95',
          quantity: 7,
          taxes: ['3.10', '0.25'],
          shipping: shares[1],
          rate: { source: 'sku', type: 'flat', amount: 0.75 },
          costOfGoods: 1.1,
        },
        s1,
      ),
      calculateLineItem(
        {
          price: '0.01',
          quantity: 1,
          shipping: shares[2],
          rate: { source: 'vendor', type: 'percentage', amount: 50 },
          costOfGoods: null,
        },
        s1,
      ),
    ];
    let got = await lines(order.id);
    const byLine = (id: number) => got.find((l) => l.lineItemId === id);
    order.line_items.forEach((l: any, i: number) => expect(byLine(l.id)).toMatchObject(expected[i]));
    expect(byLine(order.line_items[0].id)).toMatchObject({
      commission: 10.12,
      taxOnCommissions: 1.82,
      tcs: 0.67,
      totalGlobalDeductions: 1.35,
    });
    expect(byLine(order.line_items[1].id)).toMatchObject({ commission: 5.25, costOfItem: 7.7, tax: 3.35 });
    expect(byLine(order.line_items[2].id)).toMatchObject({ commission: 0.01 }); // 0.005 rounds half-up

    // New settings: stored figures keep until a recalculation, which keeps sales/tax/shipping and recomputes the rest.
    const s2 = await settings({ taxOnCommissionRate: 0, payShippingToVendor: false, tcsRate: 0.5 });
    got = await lines(order.id);
    expect(byLine(order.line_items[0].id).payout).toBe(expected[0].payout);
    await t.api.post(
      '/v1/lineitems/update',
      {
        items: order.line_items.map((l: any) => ({ lineItemId: l.id, orderId: order.id, recalculate: true })),
      },
      { token: shop.token },
    );
    await eventually(async () => {
      got = await lines(order.id);
      order.line_items.forEach((l: any, i: number) => {
        const stored = byLine(l.id);
        const rate = [
          { source: 'vendor', type: 'percentage', amount: 15 },
          { source: 'sku', type: 'flat', amount: 0.75 },
          { source: 'vendor', type: 'percentage', amount: 50 },
        ][i] as any;
        expect(stored).toMatchObject(
          recalculateLineItem({ ...expected[i], quantity: l.quantity }, rate, i === 1 ? 1.1 : null, s2),
        );
      });
    });
    expect(byLine(order.line_items[0].id)).toMatchObject({
      taxOnCommissions: 0,
      tcs: 0.34,
      shipping: shares[0],
    });
  });

  it('keeps 2 dp and exact sums at large quantities', async () => {
    await settings({
      taxOnCommissionRate: 0,
      tcsRate: 0,
      globalDeductionRate: 0,
      payShippingToVendor: false,
      payTaxToVendor: false,
    });
    const order = shopifyOrder({
      lineItems: [{ sku: 'BIG', vendor: 'Fifteen', price: '12345.67', quantity: 100000 }],
    });
    await deliver(t, shop, 'orders/create', order);
    expect((await lines(order.id))[0]).toMatchObject({
      sales: 1234567000,
      commission: 185185050,
      payout: 1049381950,
    });
    const list = await t.api.get('/v2/orders?first=100', { token: shop.token });
    expect(list.body.data.orders.find((o: any) => o.orderId === order.id)).toMatchObject({
      totalSales: 1234567000,
      totalQuantity: 100000,
    });
  });
});
