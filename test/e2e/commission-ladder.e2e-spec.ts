/* eslint-disable @typescript-eslint/no-explicit-any */
import { Types } from 'mongoose';
import { shopScope } from '../../src/common/tenancy';
import { RuleDryRun } from '../../src/line-items/rule-dry-run.service';
import type { TestApp } from '../support/app';
import { cents, divHalfUp, fmt } from '../support/cents';
import { type TestShop } from '../support/factory';
import { LadderFixture, pct } from '../support/commission-ladder-fixture';
import { shopifyRefund } from '../support/refunds';
import { deliver, eventually, platformId, shopifyOrder, shopifyProduct } from '../support/webhooks';

/*
 * The commission ladder end to end (DESIGN §13): one order line per level priced at ingestion, figures
 * to the cent against a BigInt oracle written here; explain, dates, the dry-run against the real
 * recalculation, a clamp, and a product type arriving late. The shop: test/support/commission-ladder-fixture.ts;
 * preview and errors: commission-ladder-preview.e2e-spec.ts.
 */
describe('commission ladder (e2e)', () => {
  let f: LadderFixture;
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;
  let vendorId: string;
  let orderId: number;
  let lineIds: number[];
  let ids: Record<string, string>;
  let P: LadderFixture['P'];
  let ORDER_AT: Date;

  beforeAll(async () => {
    f = await LadderFixture.start();
    ({ t, shop, other, vendorId, orderId, lineIds, ids, P, ORDER_AT } = f);
  });
  afterAll(() => f.t.close());

  const insertRule: LadderFixture['insertRule'] = (r) => f.insertRule(r);
  const lines = () => f.lines();
  const recalculate = (lineItemIds: number[]) => f.recalculate(lineItemIds);
  const expected = () => f.expected();

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
  it('a refund row of a rule-priced line carries the line’s commission rule; explain still explains the sale line', async () => {
    const [, ruled] = lineIds;
    await deliver(
      t,
      shop,
      'refunds/create',
      shopifyRefund({
        orderId,
        processedAt: new Date(ORDER_AT.getTime() + 3_600_000),
        lines: [{ lineItemId: ruled, quantity: 1 }],
      }),
    );
    const withRefunds = async (): Promise<any[]> =>
      (await t.api.get(`/v1/orders/${orderId}?lineItems=true&includeRefunds=true`, { token: shop.token }))
        .body.orders;
    const refundRow = async () =>
      (await withRefunds()).find((l) => l.lineItemId === ruled && l.type === 'refund');
    await eventually(async () => expect(await refundRow()).toBeDefined());
    const row = await refundRow();
    const rule = { level: 'product', id: ids.productMine };
    expect(row).toMatchObject({
      commissionPlan: 'product:percentage_plus_flat:5+0.30',
      commissionRule: rule,
    });
    // one of three units: the commission given back is a third of the sale line's, to the cent
    const sale = (await lines()).find((l) => l.lineItemId === ruled && l.type !== 'refund');
    expect(sale.commissionRule).toEqual(rule);
    expect(cents(String(row.commission.toFixed(2)))).toBe(-divHalfUp(cents(sale.commission.toFixed(2)), 3n));
    const explained = await t.api.get(`/v1/orders/${orderId}/lineitems/${ruled}/commission`, {
      token: shop.token,
    });
    expect(explained.status).toBe(200);
    expect(explained.body.stored).toMatchObject({ commission: sale.commission, commissionRule: rule });
  });
});
