/* eslint-disable @typescript-eslint/no-explicit-any */
import { getModelToken } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { CommissionRule } from '../../src/commissions/commission-rule.schema';
import { ShopsRepository } from '../../src/shops/shops.repository';
import { startApp, TestApp } from './app';
import { createVendor, uploadSkus } from './catalog';
import { cents, divHalfUp } from './cents';
import { createShop, TestShop } from './factory';
import { deliver, eventually, platformId, shopifyOrder, shopifyProduct } from './webhooks';

/** Oracle: salesAfterDiscount in cents, a percentage (whole or with 2 decimals) in hundredths. */
export const pct = (sad: bigint, rateHundredths: bigint) => divHalfUp(sad * rateHundredths, 10000n);

/**
 * The shop the commission ladder suites read (DESIGN §13): products ingested with types, rules stored
 * through the model, vendor "Ladder" at 10 %, a SKU record, and one order with a line per level
 * (SKU, product rule, product-type rule with a minimum, vendor); another shop with its own "Ladder".
 */
export class LadderFixture {
  t!: TestApp;
  shop!: TestShop;
  other!: TestShop;
  vendorId!: string;
  rules!: Model<CommissionRule>;
  orderId!: number;
  readonly ORDER_AT = new Date('2026-11-01T10:00:00.000Z');
  readonly P = { sku: platformId(), prod: platformId(), type: platformId(), vendor: platformId() };
  readonly ids: Record<string, string> = {};
  readonly lineIds: number[] = [];

  static async start(): Promise<LadderFixture> {
    const f = new LadderFixture();
    await f.seed();
    return f;
  }

  async insertRule(r: Partial<CommissionRule>): Promise<string> {
    const doc = await this.rules.create({
      shopId: new Types.ObjectId(this.shop.shopId),
      commissionType: 'percentage',
      ...r,
    });
    // stored past the rules API: the shop's rules stamp moves on as a rule write's does (rules-cache.ts)
    await this.t.app.get(ShopsRepository).rulesChanged(this.shop.shopId);
    return String(doc._id);
  }

  /** The order's rows as GET /v1/orders/{id}?lineItems=true answers them. */
  async lines(): Promise<any[]> {
    return (await this.t.api.get(`/v1/orders/${this.orderId}?lineItems=true`, { token: this.shop.token }))
      .body.orders;
  }

  /** Recalculates these lines of the order through the API and waits for the job. */
  async recalculate(lineItemIds: number[]): Promise<void> {
    const { t, shop, orderId } = this;
    const res = await t.api.post(
      '/v1/lineitems/update',
      { items: lineItemIds.map((lineItemId) => ({ orderId, lineItemId, recalculate: true })) },
      { token: shop.token },
    );
    expect(res.status).toBe(200);
    const jobId = res.body.jobId ?? res.body.jobIds?.[0];
    if (jobId)
      await eventually(async () => {
        const job = await t.api.get(`/v1/jobs/${jobId}`, { token: shop.token });
        expect(job.body.job?.state ?? job.body.state).toBe('completed');
      });
  }

  /** The oracle per line: [commission cents, plan, rule]. */
  expected() {
    const sad2 = cents('33.33') * 3n - cents('5.01');
    return [
      { sad: 4000n, commission: cents('1.50') * 2n, plan: 'sku:flat:1.5', rule: null },
      {
        sad: sad2,
        commission: divHalfUp(sad2 * 500n + cents('0.30') * 3n * 10000n, 10000n),
        plan: 'product:percentage_plus_flat:5+0.30',
        rule: { level: 'product', id: this.ids.productMine },
      },
      // 8 % of 10.00 is 0.80, raised to the minimum 2.00
      {
        sad: 1000n,
        commission: cents('2.00'),
        plan: 'productType:percentage:8:min=2.00',
        rule: { level: 'productType', id: this.ids.shirts },
      },
      { sad: 5000n, commission: pct(5000n, 1000n), plan: 'vendor:percentage:10', rule: null },
    ];
  }

  private async seed(): Promise<void> {
    const { P, ids, ORDER_AT } = this;
    const t = (this.t = await startApp());
    this.shop = await createShop(t, 'ladder');
    this.other = await createShop(t, 'ladder-other');
    const shop = this.shop;
    this.rules = t.app.get<Model<CommissionRule>>(getModelToken(CommissionRule.name));
    this.vendorId = (
      await createVendor(t, shop, 'Ladder', { commissionType: 'percentage', commissionAmount: 10 })
    )._id;
    await createVendor(t, this.other, 'Ladder', { commissionType: 'percentage', commissionAmount: 10 });
    await uploadSkus(t, shop, [{ sku: 'LAD-SKU', commissionType: 'flat', commissionRate: 1.5 }]);
    for (const [key, type] of [
      ['sku', 'Shirts'],
      ['prod', 'Shirts'],
      ['type', ' shirts '],
      ['vendor', 'Mugs'],
    ] as const)
      await deliver(t, shop, 'products/create', shopifyProduct({ id: P[key], productType: type }));
    ids.skuProduct = await this.insertRule({
      level: 'product',
      productId: String(P.sku),
      commissionAmount: 50,
    });
    ids.productShop = await this.insertRule({
      level: 'product',
      productId: String(P.prod),
      commissionAmount: 12,
    });
    ids.productMine = await this.insertRule({
      level: 'product',
      productId: String(P.prod),
      vendorId: new Types.ObjectId(this.vendorId),
      commissionType: 'percentage_plus_flat',
      commissionAmount: 5,
      flatAmount: 0.3,
    });
    ids.shirts = await this.insertRule({
      level: 'productType',
      productType: 'Shirts',
      productTypeKey: 'shirts',
      commissionAmount: 8,
      minimum: 2,
    });
    ids.mugsLater = await this.insertRule({
      level: 'productType',
      productType: 'Mugs',
      productTypeKey: 'mugs',
      commissionAmount: 30,
      validFrom: new Date(ORDER_AT.getTime() + 86_400_000),
    });
    const order = shopifyOrder({
      createdAt: ORDER_AT,
      financialStatus: 'paid',
      lineItems: [
        { sku: 'LAD-SKU', vendor: 'Ladder', price: '20.00', quantity: 2, productId: P.sku },
        { sku: 'L-2', vendor: 'Ladder', price: '33.33', quantity: 3, discounts: ['5.01'], productId: P.prod },
        { sku: 'L-3', vendor: 'Ladder', price: '10.00', quantity: 1, productId: P.type },
        { sku: 'L-4', vendor: 'Ladder', price: '25.00', quantity: 2, productId: P.vendor },
      ],
    });
    this.orderId = order.id;
    this.lineIds.push(...order.line_items.map((l: any) => l.id));
    await deliver(t, shop, 'orders/create', order);
  }
}
