/* eslint-disable @typescript-eslint/no-explicit-any */
import { startApp, TestApp } from '../support/app';
import { createVendor, uploadSkus } from '../support/catalog';
import { cents, divHalfUp, fmt } from '../support/cents';
import { createShop, TestShop } from '../support/factory';
import { deliver, platformId, shopifyOrder, shopifyProduct } from '../support/webhooks';

/*
 * The README's "The commission ladder in one order", exactly as its table says, through the rules API
 * and a signed order webhook: a vendor at 10 %, an order of 2026-11-02 with one line per level. The
 * oracle is written here in BigInt cents (a flat amount is per unit, DESIGN §13).
 */
describe('README: the commission ladder in one order (e2e)', () => {
  let t: TestApp;
  let shop: TestShop;
  let orderId: number;
  const P = { tee: platformId(), cap: platformId(), mug: platformId(), bag: platformId() };

  const rule = async (body: Record<string, unknown>) => {
    const res = await t.api.post('/v1/commissions/rules', body, { token: shop.token });
    expect(res.status).toBe(201);
  };

  beforeAll(async () => {
    t = await startApp();
    shop = await createShop(t, 'readme-ladder');
    await createVendor(t, shop, 'Readme Vendor', { commissionType: 'percentage', commissionAmount: 10 });
    await uploadSkus(t, shop, [{ sku: 'TEE-RED', commissionType: 'percentage', commissionRate: 14 }]);
    for (const [id, type] of [
      [P.tee, 'Shirts'],
      [P.cap, 'Hats'],
      [P.mug, 'Mugs'],
      [P.bag, 'Bags'],
    ] as const)
      await deliver(t, shop, 'products/create', shopifyProduct({ id, productType: type }));
    await rule({
      level: 'product',
      productId: String(P.cap),
      commissionType: 'flat',
      commissionAmount: 4.25,
      maximum: 6,
    });
    await rule({
      level: 'productType',
      productType: 'Mugs',
      commissionType: 'percentage_plus_flat',
      commissionAmount: 5,
      flatAmount: 0.3,
      validFrom: '2026-11-01T00:00:00.000Z',
      validTo: '2026-12-01T00:00:00.000Z',
    });
    // December's Mugs rule: not in force at the order's date
    await rule({
      level: 'productType',
      productType: 'Mugs',
      commissionType: 'percentage',
      commissionAmount: 20,
      validFrom: '2026-12-01T00:00:00.000Z',
    });
    const order = shopifyOrder({
      createdAt: new Date('2026-11-02T10:00:00.000Z'),
      financialStatus: 'paid',
      lineItems: [
        { sku: 'TEE-RED', vendor: 'Readme Vendor', price: '20.00', quantity: 2, productId: P.tee },
        { sku: 'CAP-BLK', vendor: 'Readme Vendor', price: '25.00', quantity: 2, productId: P.cap },
        { sku: 'MUG-WHT', vendor: 'Readme Vendor', price: '12.00', quantity: 3, productId: P.mug },
        { sku: 'BAG-TOTE', vendor: 'Readme Vendor', price: '30.00', quantity: 1, productId: P.bag },
      ],
    });
    orderId = order.id;
    await deliver(t, shop, 'orders/create', order);
  });
  afterAll(() => t.close());

  it('prices each line as the README table says, to the cent', async () => {
    const pct = (sales: bigint, rate: bigint) => divHalfUp(sales * rate, 100n);
    const capped = (c: bigint, max: bigint) => (c > max ? max : c);
    const want: Array<[string, bigint, string]> = [
      ['TEE-RED', pct(cents('20.00') * 2n, 14n), 'sku:percentage:14'],
      ['CAP-BLK', capped(cents('4.25') * 2n, cents('6.00')), 'product:flat:4.25:max=6.00'],
      [
        'MUG-WHT',
        pct(cents('12.00') * 3n, 5n) + cents('0.30') * 3n,
        'productType:percentage_plus_flat:5+0.30',
      ],
      ['BAG-TOTE', pct(cents('30.00'), 10n), 'vendor:percentage:10'],
    ];
    // the README's own figures
    expect(want.map(([, c]) => fmt(c))).toEqual(['5.60', '6.00', '2.70', '3.00']);
    const res = await t.api.get(`/v1/orders/${orderId}?lineItems=true`, { token: shop.token });
    expect(res.status).toBe(200);
    const got = res.body.orders.map((l: any) => [l.sku, l.commission, l.commissionPlan]);
    expect(got).toEqual(want.map(([sku, c, plan]) => [sku, Number(fmt(c)), plan]));
  });
});
