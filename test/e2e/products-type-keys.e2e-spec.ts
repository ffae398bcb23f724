/* eslint-disable @typescript-eslint/no-explicit-any */
import { getModelToken } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { productsCommands } from '../../src/cli/products.commands';
import { CommissionRule } from '../../src/commissions/commission-rule.schema';
import { Product } from '../../src/products/product.schema';
import { productObjectId } from '../../src/products/products.repository';
import { ShopsRepository } from '../../src/shops/shops.repository';
import { startApp, TestApp } from '../support/app';
import { createVendor } from '../support/catalog';
import { cents, divHalfUp, fmt } from '../support/cents';
import { createShop, TestShop } from '../support/factory';
import { deliver, eventually, platformId, shopifyOrder, shopifyProduct } from '../support/webhooks';

/*
 * `products:type-keys` (issue 31 follow-up): a product stored by a version before the commission
 * ladder has no `productTypeKey`, so no product-type rule reaches its lines. The command sets the
 * key, queues the recalculation of the lines of products whose type has a rule, and does nothing
 * more when run again. Figures checked to the cent against a BigInt oracle.
 */
describe('products:type-keys backfill (e2e)', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;
  let products: Model<Product>;
  const command = productsCommands.find((c) => c.name === 'products:type-keys')!;
  const LAMP = platformId();
  const OTHER_LAMP = platformId();
  let orderId: number;
  let lineItemId: number;
  // Oracle: 40.00 × 2 at the vendor's 10 %, then at the 25 % "Lamps" rule.
  const SAD = cents('40.00') * 2n;
  const atVendor = divHalfUp(SAD * 1000n, 10000n);
  const atRule = divHalfUp(SAD * 2500n, 10000n);

  /** Stores the product as the webhook does, then removes the key: what an earlier version left. */
  const storeAsOldVersion = async (s: TestShop, productId: number, productType: string) => {
    await deliver(t, s, 'products/create', shopifyProduct({ id: productId, productType }));
    const filter = {
      _id: productObjectId(s.shopId, String(productId)),
      shopId: new Types.ObjectId(s.shopId),
    };
    const res = await products.collection.updateOne(filter, { $unset: { productTypeKey: '' } });
    expect(res.modifiedCount).toBe(1);
  };
  const stored = (s: TestShop, productId: number) =>
    products.collection.findOne({
      _id: productObjectId(s.shopId, String(productId)),
      shopId: new Types.ObjectId(s.shopId),
    });
  const line = async (): Promise<any> => {
    const res = await t.api.get(`/v1/orders/${orderId}?lineItems=true`, { token: shop.token });
    expect(res.status).toBe(200);
    return res.body.orders.find((l: any) => l.lineItemId === lineItemId);
  };

  beforeAll(async () => {
    t = await startApp();
    shop = await createShop(t, 'typekeys');
    other = await createShop(t, 'typekeys-other');
    products = t.app.get<Model<Product>>(getModelToken(Product.name));
    const rules = t.app.get<Model<CommissionRule>>(getModelToken(CommissionRule.name));
    await createVendor(t, shop, 'Lumen', { commissionType: 'percentage', commissionAmount: 10 });
    await createVendor(t, other, 'Lumen', { commissionType: 'percentage', commissionAmount: 10 });
    await storeAsOldVersion(shop, LAMP, ' Lamps ');
    await storeAsOldVersion(other, OTHER_LAMP, 'Lamps');
    // Only `shop` has a rule for the type (the rules CRUD is another branch's: stored through the model).
    await rules.create({
      shopId: new Types.ObjectId(shop.shopId),
      level: 'productType',
      productType: 'Lamps',
      productTypeKey: 'lamps',
      commissionType: 'percentage',
      commissionAmount: 25,
    });
    await t.app.get(ShopsRepository).rulesChanged(shop.shopId); // past the API: the stamp moves on
    const order = shopifyOrder({
      financialStatus: 'paid',
      lineItems: [{ sku: 'TK-LAMP', vendor: 'Lumen', price: '40.00', quantity: 2, productId: LAMP }],
    });
    orderId = order.id;
    lineItemId = order.line_items[0].id;
    await deliver(t, shop, 'orders/create', order);
  });
  afterAll(() => t.close());

  it('before the backfill the rule does not reach the product: the vendor rate prices the line', async () => {
    expect((await stored(shop, LAMP))?.productTypeKey).toBeUndefined();
    const l = await line();
    expect([l.commission, l.commissionPlan]).toEqual([Number(fmt(atVendor)), 'vendor:percentage:10']);
  });

  it('sets the key on every shop, then the recalculation prices the line by the type rule, to the cent', async () => {
    const out = await command.run(t.app, {});
    expect(out.updated).toBeGreaterThanOrEqual(2);
    expect(out.scanned).toBeGreaterThanOrEqual(out.updated as number);
    expect(out.recalculationJobs).toBeGreaterThanOrEqual(1);
    expect((await stored(shop, LAMP))?.productTypeKey).toBe('lamps');
    expect((await stored(other, OTHER_LAMP))?.productTypeKey).toBe('lamps');
    const l = await eventually(async () => {
      const got = await line();
      expect(got.commission).toBe(Number(fmt(atRule)));
      return got;
    });
    expect(l.commissionPlan).toBe('productType:percentage:25');
    expect(l.payout).toBe(Number(fmt(SAD - atRule)));
  });

  it('re-running changes nothing and queues nothing', async () => {
    const out = await command.run(t.app, {});
    expect(out).toMatchObject({ updated: 0, recalculationJobs: 0 });
    expect((await stored(shop, LAMP))?.productTypeKey).toBe('lamps');
  });
});
