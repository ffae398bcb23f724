/* eslint-disable @typescript-eslint/no-explicit-any */
import { getModelToken } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { CommissionRule } from '../../src/commissions/commission-rule.schema';
import { shopScope } from '../../src/common/tenancy';
import { RuleDryRun } from '../../src/line-items/rule-dry-run.service';
import { ShopsRepository } from '../../src/shops/shops.repository';
import { startApp, TestApp } from '../support/app';
import { createVendor, uploadSkus } from '../support/catalog';
import { cents, divHalfUp, fmt } from '../support/cents';
import { createMerchantKey, createShop, TestShop } from '../support/factory';
import { deliver, eventually, platformId, shopifyOrder, shopifyProduct } from '../support/webhooks';

/*
 * The commission ladder end to end (DESIGN §13): products ingested with types, rules stored through
 * the model (the rules CRUD is another branch's), one order line per level, figures to the cent
 * against a BigInt oracle written here; explain, preview, the dry-run against the real
 * recalculation, dates, a clamp, and tenancy.
 */
describe('commission ladder (e2e)', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;
  let vendorId: string;
  let rules: Model<CommissionRule>;
  const ORDER_AT = new Date('2026-11-01T10:00:00.000Z');
  const P = { sku: platformId(), prod: platformId(), type: platformId(), vendor: platformId() };
  const ids: Record<string, string> = {};
  let orderId: number;
  const lineIds: number[] = [];

  const insertRule = async (r: Partial<CommissionRule>): Promise<string> => {
    const doc = await rules.create({
      shopId: new Types.ObjectId(shop.shopId),
      commissionType: 'percentage',
      ...r,
    });
    // stored past the rules API: the shop's rules stamp moves on as a rule write's does (rules-cache.ts)
    await t.app.get(ShopsRepository).rulesChanged(shop.shopId);
    return String(doc._id);
  };
  const lines = async (): Promise<any[]> =>
    (await t.api.get(`/v1/orders/${orderId}?lineItems=true`, { token: shop.token })).body.orders;
  const recalculate = async (lineItemIds: number[]) => {
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
  };
  // Oracle: salesAfterDiscount in cents, a percentage (whole or with 2 decimals) in hundredths.
  const pct = (sad: bigint, rateHundredths: bigint) => divHalfUp(sad * rateHundredths, 10000n);

  beforeAll(async () => {
    t = await startApp();
    shop = await createShop(t, 'ladder');
    other = await createShop(t, 'ladder-other');
    rules = t.app.get<Model<CommissionRule>>(getModelToken(CommissionRule.name));
    vendorId = (await createVendor(t, shop, 'Ladder', { commissionType: 'percentage', commissionAmount: 10 }))
      ._id;
    await createVendor(t, other, 'Ladder', { commissionType: 'percentage', commissionAmount: 10 });
    await uploadSkus(t, shop, [{ sku: 'LAD-SKU', commissionType: 'flat', commissionRate: 1.5 }]);
    for (const [key, type] of [
      ['sku', 'Shirts'],
      ['prod', 'Shirts'],
      ['type', ' shirts '],
      ['vendor', 'Mugs'],
    ] as const)
      await deliver(t, shop, 'products/create', shopifyProduct({ id: P[key], productType: type }));
    ids.skuProduct = await insertRule({ level: 'product', productId: String(P.sku), commissionAmount: 50 });
    ids.productShop = await insertRule({ level: 'product', productId: String(P.prod), commissionAmount: 12 });
    ids.productMine = await insertRule({
      level: 'product',
      productId: String(P.prod),
      vendorId: new Types.ObjectId(vendorId),
      commissionType: 'percentage_plus_flat',
      commissionAmount: 5,
      flatAmount: 0.3,
    });
    ids.shirts = await insertRule({
      level: 'productType',
      productType: 'Shirts',
      productTypeKey: 'shirts',
      commissionAmount: 8,
      minimum: 2,
    });
    ids.mugsLater = await insertRule({
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
    orderId = order.id;
    lineIds.push(...order.line_items.map((l: any) => l.id));
    await deliver(t, shop, 'orders/create', order);
  });
  afterAll(() => t.close());

  // The oracle per line: [commission cents, plan, rule].
  const expected = () => {
    const sad2 = cents('33.33') * 3n - cents('5.01');
    return [
      { sad: 4000n, commission: cents('1.50') * 2n, plan: 'sku:flat:1.5', rule: null },
      {
        sad: sad2,
        commission: divHalfUp(sad2 * 500n + cents('0.30') * 3n * 10000n, 10000n),
        plan: 'product:percentage_plus_flat:5+0.30',
        rule: { level: 'product', id: ids.productMine },
      },
      // 8 % of 10.00 is 0.80, raised to the minimum 2.00
      {
        sad: 1000n,
        commission: cents('2.00'),
        plan: 'productType:percentage:8:min=2.00',
        rule: { level: 'productType', id: ids.shirts },
      },
      { sad: 5000n, commission: pct(5000n, 1000n), plan: 'vendor:percentage:10', rule: null },
    ];
  };

  it('prices one line per level at ingestion, to the cent', async () => {
    const got = await lines();
    const want = expected();
    expect(want[2].commission).toBeGreaterThan(pct(1000n, 800n)); // the clamp matters
    expect(got.map((l) => l.lineItemId)).toEqual(lineIds);
    got.forEach((l, i) => {
      expect([i, l.commission, l.commissionPlan, l.commissionRule]).toEqual([
        i,
        Number(fmt(want[i].commission)),
        want[i].plan,
        want[i].rule,
      ]);
      expect(l.payout).toBe(Number(fmt(want[i].sad - want[i].commission)));
    });
  });

  it('explains each line: the applied level and why the others did not apply', async () => {
    const levels = ['sku', 'product', 'productType', 'vendor'];
    for (const [i, lineItemId] of lineIds.entries()) {
      const res = await t.api.get(`/v1/orders/${orderId}/lineitems/${lineItemId}/commission`, {
        token: shop.token,
      });
      expect(res.status).toBe(200);
      expect(res.body.applied.level).toBe(levels[i]);
      expect(res.body.figures.commission).toBe(Number(fmt(expected()[i].commission)));
      expect(res.body.figures).toEqual(res.body.stored);
      expect(res.body.candidates.filter((c: any) => c.matched)).toHaveLength(1);
    }
    const prod = await t.api.get(`/v1/orders/${orderId}/lineitems/${lineIds[1]}/commission`, {
      token: shop.token,
    });
    const why = Object.fromEntries(prod.body.candidates.map((c: any) => [c.ruleId ?? c.level, c.reason]));
    expect(why).toMatchObject({
      sku: 'no_record',
      [ids.productMine]: 'matched',
      [ids.productShop]: 'beaten_by_vendor_rule',
      [ids.shirts]: 'more_specific_applied',
      vendor: 'more_specific_applied',
    });
    const mug = await t.api.get(`/v1/orders/${orderId}/lineitems/${lineIds[3]}/commission`, {
      token: shop.token,
    });
    const later = mug.body.candidates.find((c: any) => c.ruleId === ids.mugsLater);
    expect(later).toMatchObject({ matched: false, reason: 'not_in_force' });
    expect(later.detail).toContain('starts 2026-11-02T10:00:00.000Z');
    expect(mug.body.inputs).toMatchObject({
      productType: 'Mugs',
      vendorId,
      orderCreatedAt: ORDER_AT.toISOString(),
    });
  });

  it('a rule starting after the order date changes nothing on recalculation', async () => {
    const figures = async () =>
      (await lines()).map((l) => [l.commission, l.commissionPlan, l.commissionRule, l.payout, l.balance]);
    const before = await figures();
    await recalculate(lineIds);
    expect(await figures()).toEqual(before);
  });

  it('the dry-run of a rule in force at the order date equals what the recalculation then does', async () => {
    const candidate = {
      id: new Types.ObjectId().toHexString(),
      level: 'product' as const,
      productId: String(P.vendor),
      productTypeKey: null,
      vendorId: null,
      commissionType: 'flat' as const,
      commissionAmount: 4.25,
      flatAmount: null,
      minimum: null,
      maximum: 6,
      validFrom: new Date('2026-10-01T00:00:00.000Z'),
      validTo: null,
    };
    const dry = await t.app.get(RuleDryRun).evaluate(shopScope(shop.shopId), candidate);
    // flat 4.25 × 2 = 8.50, capped at 6.00; the vendor's 10 % was 5.00
    const delta = -(cents('6.00') - pct(5000n, 1000n));
    expect(dry.affectedLines.count).toBe(1);
    expect(dry.affectedLines.sample.map((s) => s.lineItemId)).toEqual([lineIds[3]]);
    expect(dry.payoutDelta).toBe(Number(fmt(delta)));
    // A product-type candidate limited to the vendor: every stored product of the type, the vendor's lines.
    const mugs = await t.app.get(RuleDryRun).evaluate(shopScope(shop.shopId), {
      ...candidate,
      level: 'productType',
      productId: null,
      productTypeKey: 'mugs',
      vendorId,
      commissionType: 'percentage',
      commissionAmount: 20,
      maximum: null,
    });
    expect(mugs.affectedLines.sample.map((s) => s.lineItemId)).toEqual([lineIds[3]]);
    expect(mugs.payoutDelta).toBe(Number(fmt(-(pct(5000n, 2000n) - pct(5000n, 1000n)))));
    const otherVendor = await t.app.get(RuleDryRun).evaluate(shopScope(shop.shopId), {
      ...candidate,
      level: 'productType',
      productId: null,
      productTypeKey: 'mugs',
      vendorId: new Types.ObjectId().toHexString(),
    });
    expect(otherVendor.affectedLines.count).toBe(0);
    // Another shop's scope sees none of these lines.
    expect(
      (await t.app.get(RuleDryRun).evaluate(shopScope(other.shopId), candidate)).affectedLines.count,
    ).toBe(0);

    // The same through the API: POST /v1/commissions/rules?dryRun=true writes nothing and answers the same numbers.
    const body = {
      level: 'product',
      productId: String(P.vendor),
      commissionType: 'flat',
      commissionAmount: 4.25,
      maximum: 6,
      validFrom: '2026-10-01T00:00:00.000Z',
    };
    const viaApi = await t.api.post('/v1/commissions/rules?dryRun=true', body, { token: shop.token });
    expect(viaApi.status).toBe(200);
    expect(viaApi.body).toMatchObject({ affectedLines: 1, payoutDelta: Number(fmt(delta)) });
    expect(viaApi.body.affectedLineSample.map((x: { lineItemId: number }) => x.lineItemId)).toEqual([
      lineIds[3],
    ]);

    const before = await lines();
    const created = await t.api.post('/v1/commissions/rules', body, { token: shop.token });
    expect(created.status).toBe(201);
    const ruleId = created.body._id;
    await recalculate(lineIds);
    const after = await lines();
    const change = after.reduce(
      (sum, l, i) => sum + cents(String(l.payout.toFixed(2))) - cents(before[i].payout.toFixed(2)),
      0n,
    );
    expect(change).toBe(delta);
    expect(after[3]).toMatchObject({
      commission: 6,
      commissionPlan: 'product:flat:4.25:max=6.00',
      commissionRule: { level: 'product', id: ruleId },
    });
  });

  it('previews a hypothetical line: the stored product type, the rules at orderDate, the figures', async () => {
    const res = await t.api.post(
      '/v1/commissions/preview',
      {
        vendorId,
        productId: String(P.type),
        price: 40,
        quantity: 1,
        discount: 2.5,
        orderDate: ORDER_AT.toISOString(),
      },
      { token: shop.token },
    );
    expect(res.status).toBe(200);
    const sad = cents('40.00') - cents('2.50');
    expect(res.body.inputs.productType).toBe(' shirts ');
    expect(res.body.applied).toMatchObject({ level: 'productType', ruleId: ids.shirts });
    expect(res.body.figures).toMatchObject({
      commission: Number(fmt(pct(sad, 800n))),
      payout: Number(fmt(sad - pct(sad, 800n))),
      commissionPlan: 'productType:percentage:8:min=2.00',
    });
    const given = await t.api.post(
      '/v1/commissions/preview',
      { vendorId, productType: 'MUGS', price: 10, quantity: 3 },
      { token: shop.token },
    );
    expect(given.status).toBe(200);
    expect(given.body.applied).toMatchObject({ level: 'productType', ruleId: ids.mugsLater }); // in force now
    expect(given.body.figures.commission).toBe(Number(fmt(pct(3000n, 3000n))));
  });

  it('answers 422 for an unknown vendor or bad input, 404 for another shop’s line, 403 for a merchant key', async () => {
    const unknown = await t.api.post(
      '/v1/commissions/preview',
      { vendorId: new Types.ObjectId().toHexString(), price: 10, quantity: 1 },
      { token: shop.token },
    );
    expect(unknown.status).toBe(422);
    const foreign = await t.api.post(
      '/v1/commissions/preview',
      { vendorId, price: 10, quantity: 1 },
      { token: other.token },
    );
    expect(foreign.status).toBe(422);
    const tooMuch = await t.api.post(
      '/v1/commissions/preview',
      { vendorId, price: 10, quantity: 1, discount: 10.01 },
      { token: shop.token },
    );
    expect(tooMuch.status).toBe(422);
    const bad = await t.api.post(
      '/v1/commissions/preview',
      { vendorId, price: 10, quantity: 0 },
      { token: shop.token },
    );
    expect(bad.status).toBe(422);
    const cross = await t.api.get(`/v1/orders/${orderId}/lineitems/${lineIds[0]}/commission`, {
      token: other.token,
    });
    expect(cross.status).toBe(404);
    const mk = await createMerchantKey(t, shop);
    const byKey = await t.api.get(`/v1/orders/${orderId}/lineitems/${lineIds[0]}/commission`, {
      token: mk.token,
    });
    expect(byKey.status).toBe(403);
    const previewByKey = await t.api.post(
      '/v1/commissions/preview',
      { vendorId, price: 10, quantity: 1 },
      { token: mk.token },
    );
    expect(previewByKey.status).toBe(403);
    const junk = await t.api.get(`/v1/orders/abc/lineitems/${lineIds[0]}/commission`, { token: shop.token });
    expect(junk.status).toBe(404);
  });

  it('a product whose type arrives after its order gets its unpaid lines repriced', async () => {
    const late = platformId();
    await insertRule({
      level: 'productType',
      productType: 'Hats',
      productTypeKey: 'hats',
      commissionAmount: 15,
    });
    const order = shopifyOrder({
      createdAt: ORDER_AT,
      financialStatus: 'paid',
      lineItems: [{ sku: 'HAT', vendor: 'Ladder', price: '19.99', quantity: 1, productId: late }],
    });
    await deliver(t, shop, 'orders/create', order);
    const read = async () =>
      (await t.api.get(`/v1/orders/${order.id}?lineItems=true`, { token: shop.token })).body.orders[0];
    expect((await read()).commission).toBe(Number(fmt(pct(1999n, 1000n))));
    await deliver(t, shop, 'products/create', shopifyProduct({ id: late, productType: 'Hats' }));
    await eventually(async () => {
      const l = await read();
      expect([l.commission, l.commissionPlan]).toEqual([
        Number(fmt(pct(1999n, 1500n))),
        'productType:percentage:15',
      ]);
    });
  });
});
