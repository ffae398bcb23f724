import { Types } from 'mongoose';
import type { TestApp } from '../support/app';
import { cents, fmt } from '../support/cents';
import { createMerchantKey, type TestShop } from '../support/factory';
import { LadderFixture, pct } from '../support/commission-ladder-fixture';

/*
 * The commission ladder's preview of a hypothetical line (DESIGN §13), and the errors and tenancy of
 * preview and explain: 422 bad input or unknown vendor, 404 another shop's line, 403 a merchant key.
 */
describe('commission ladder: preview and errors (e2e)', () => {
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
});
