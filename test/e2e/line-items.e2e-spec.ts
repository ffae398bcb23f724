/* eslint-disable @typescript-eslint/no-explicit-any */
import { getModelToken } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { LineItem } from '../../src/line-items/line-item.schema';
import { startApp, TestApp } from '../support/app';
import { createVendor, listSkus, setVendorCommission, uploadSkus } from '../support/catalog';
import { createMerchantKey, createShop, TestShop } from '../support/factory';
import { deliver, eventually, shopifyOrder } from '../support/webhooks';

describe('POST /v1/lineitems/update (e2e)', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;
  let acme: { _id: string };

  beforeAll(async () => {
    t = await startApp();
    shop = await createShop(t, 'li');
    other = await createShop(t, 'li-other');
    acme = await createVendor(t, shop, 'acme', { commissionType: 'percentage', commissionAmount: 10 });
  });
  afterAll(() => t.close());

  const update = (body: unknown, s: TestShop = shop) =>
    t.api.post('/v1/lineitems/update', body, { token: s.token });
  const lines = async (orderId: number, s: TestShop = shop): Promise<any[]> =>
    (await t.api.get(`/v1/orders/${orderId}?lineItems=true`, { token: s.token })).body.orders;

  /** An ingested order with `n` acme lines (sku per line, price 10 × qty 2 by default). */
  async function order(skus: string[], over: { price?: string; quantity?: number; vendor?: string } = {}) {
    const o = shopifyOrder({
      financialStatus: 'paid',
      lineItems: skus.map((sku) => ({
        sku,
        vendor: over.vendor ?? 'Acme',
        price: over.price ?? '10.00',
        quantity: over.quantity ?? 2,
      })),
    });
    await deliver(t, shop, 'orders/create', o);
    return { orderId: o.id as number, lineItemIds: o.line_items.map((l: any) => l.id as number) };
  }

  /** FIXTURE: freezing is the payout engine's job; tests set the flag directly. */
  async function freeze(orderId: number, lineItemId: number) {
    await t.app
      .get<Model<LineItem>>(getModelToken(LineItem.name))
      .updateOne(
        { shopId: new Types.ObjectId(shop.shopId), orderId, lineItemId },
        { $set: { frozen: true, paid: 18, balance: 0, payoutStatus: 'paid', batchId: 'batch-test' } },
      )
      .exec();
  }

  describe('validation (422 {error})', () => {
    const item = { lineItemId: 1, orderId: 1, recalculate: true };
    it.each<[string, unknown]>([
      ['both modes at once', { items: [item], bySku: 'A', recalculate: true }],
      ['neither mode', { recalculate: true }],
      ['an empty body', {}],
      ['more than 100 items', { items: Array.from({ length: 101 }, () => item) }],
      ['an empty items array', { items: [] }],
      ['items that is not an array', { items: item }],
      ['an element without lineItemId', { items: [{ orderId: 1, recalculate: true }] }],
      ['an element without orderId', { items: [{ lineItemId: 1, recalculate: true }] }],
      ['a string lineItemId', { items: [{ ...item, lineItemId: '1' }] }],
      ['a fractional orderId', { items: [{ ...item, orderId: 1.5 }] }],
      ['an element with neither fields nor recalculate', { items: [{ lineItemId: 1, orderId: 1 }] }],
      [
        'an element with recalculate false and no fields',
        { items: [{ lineItemId: 1, orderId: 1, recalculate: false }] },
      ],
      ['an element with empty fields', { items: [{ lineItemId: 1, orderId: 1, fields: {} }] }],
      ['an unknown field name', { items: [{ lineItemId: 1, orderId: 1, fields: { vendorName: 'x' } }] }],
      ['a field of the wrong type', { items: [{ lineItemId: 1, orderId: 1, fields: { commission: '5' } }] }],
      ['a numeric commissionPlan', { items: [{ lineItemId: 1, orderId: 1, fields: { commissionPlan: 5 } }] }],
      ['fields that is not an object', { items: [{ lineItemId: 1, orderId: 1, fields: [1] }] }],
      ['a non-boolean recalculate', { items: [{ lineItemId: 1, orderId: 1, recalculate: 'yes' }] }],
      ['an unknown element key', { items: [{ ...item, frozen: false }] }],
      ['top-level fields in items mode', { items: [item], fields: { deduction: 1 } }],
      ['bySku without fields or recalculate', { bySku: 'A' }],
      ['bySku with recalculate false and no fields', { bySku: 'A', recalculate: false }],
      ['bySku with an unknown field', { bySku: 'A', fields: { paid: 1 } }],
      ['an empty bySku', { bySku: '', recalculate: true }],
      ['a blank bySku', { bySku: '   ', recalculate: true }],
      ['an unknown top-level key', { bySku: 'A', recalculate: true, dryRun: true }],
    ])('refuses %s', async (_name, body) => {
      const res = await update(body);
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ error: expect.any(String) });
    });

    it('accepts exactly 100 items', async () => {
      const res = await update({
        items: Array.from({ length: 100 }, (_, i) => ({ lineItemId: i + 1, orderId: 1, recalculate: true })),
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ success: false, updated: 0, recalculateQueued: 0, results: [] });
      expect(res.body.errors).toHaveLength(100);
    });

    it('needs a shop token (merchant token → 403)', async () => {
      const mk = await createMerchantKey(t, shop);
      expect(
        (await t.api.post('/v1/lineitems/update', { bySku: 'A', recalculate: true }, { token: mk.token }))
          .status,
      ).toBe(403);
      expect((await t.api.post('/v1/lineitems/update', { bySku: 'A', recalculate: true })).status).toBe(401);
    });
  });

  it('reports every per-item outcome exactly: updated, queued, both, not found, frozen', async () => {
    const o = await order(['OUT-1', 'OUT-2', 'OUT-3', 'OUT-4']);
    await freeze(o.orderId, o.lineItemIds[3]);
    const res = await update({
      items: [
        { lineItemId: o.lineItemIds[0], orderId: o.orderId, fields: { deduction: 1.01 } },
        { lineItemId: o.lineItemIds[1], orderId: o.orderId, recalculate: true },
        {
          lineItemId: o.lineItemIds[2],
          orderId: o.orderId,
          fields: { commissionPlan: 'manual' },
          recalculate: true,
        },
        { lineItemId: 999, orderId: o.orderId, fields: { deduction: 1 } },
        { lineItemId: o.lineItemIds[3], orderId: o.orderId, fields: { deduction: 1 } },
        { lineItemId: o.lineItemIds[0], orderId: 12345, recalculate: true },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: false,
      matched: 4,
      updated: 2,
      recalculateQueued: 2,
      jobId: expect.any(String),
      results: [
        { lineItemId: o.lineItemIds[0], orderId: o.orderId, status: 'updated' },
        { lineItemId: o.lineItemIds[1], orderId: o.orderId, status: 'recalculate_queued' },
        { lineItemId: o.lineItemIds[2], orderId: o.orderId, status: 'updated_and_recalculate_queued' },
      ],
      errors: [
        { lineItemId: 999, orderId: o.orderId, error: 'Line item not found' },
        {
          lineItemId: o.lineItemIds[3],
          orderId: o.orderId,
          error: 'Line item is frozen (paid out) and was skipped',
        },
        { lineItemId: o.lineItemIds[0], orderId: 12345, error: 'Line item not found' },
      ],
    });
    const after = await lines(o.orderId);
    const byId = new Map(after.map((l) => [l.lineItemId, l]));
    expect(byId.get(o.lineItemIds[0])).toMatchObject({ deduction: 1.01, payout: 18 }); // fields only: payout untouched
    expect(byId.get(o.lineItemIds[3])).toMatchObject({ deduction: 0, frozen: true, paid: 18 });
    // The recalculation of line 3 overwrote the hand-written plan with the computed one.
    await eventually(async () => {
      expect((await lines(o.orderId)).find((l) => l.lineItemId === o.lineItemIds[2]).commissionPlan).toBe(
        'vendor:percentage:10',
      );
    });
  });

  it('success is true when nothing went wrong; a written payout moves balance and payoutStatus', async () => {
    const o = await order(['PAY-1']);
    const res = await update({
      items: [{ lineItemId: o.lineItemIds[0], orderId: o.orderId, fields: { payout: 12.35, sales: 30 } }],
    });
    expect(res.body).toEqual({
      success: true,
      matched: 1,
      updated: 1,
      recalculateQueued: 0,
      jobId: null,
      results: [{ lineItemId: o.lineItemIds[0], orderId: o.orderId, status: 'updated' }],
      errors: [],
    });
    expect((await lines(o.orderId))[0]).toMatchObject({
      payout: 12.35,
      balance: 12.35,
      payoutStatus: 'unpaid',
      sales: 30,
    });
  });

  it('writes fields first, then the queued recalculation keeps them (deduction) and recomputes the rest', async () => {
    const o = await order(['SEQ-1']); // 10 × 2 = 20, 10 % → commission 2, payout 18
    const res = await update({
      items: [
        {
          lineItemId: o.lineItemIds[0],
          orderId: o.orderId,
          fields: { deduction: 3, salesAfterDiscount: 15 },
          recalculate: true,
        },
      ],
    });
    expect(res.body.results[0].status).toBe('updated_and_recalculate_queued');
    await eventually(async () => {
      expect((await lines(o.orderId))[0]).toMatchObject({
        deduction: 3,
        salesAfterDiscount: 15,
        commission: 1.5,
        payout: 10.5,
      });
    });
  });

  it('costOfItem sets the SKU cost of goods (created with no commission) visible in GET /v1/commissions/sku', async () => {
    const o = await order(['COST-NEW-1'], { quantity: 3 });
    const res = await update({
      items: [{ lineItemId: o.lineItemIds[0], orderId: o.orderId, fields: { costOfItem: 10 } }],
    });
    expect(res.body.success).toBe(true);
    expect((await lines(o.orderId))[0]).toMatchObject({ costOfItem: 10, profit: 20 });
    const skus = await listSkus(t, shop);
    expect(skus.find((s) => s.sku === 'COST-NEW-1')).toEqual({
      sku: 'COST-NEW-1',
      costOfGoods: 3.33,
      commissionType: null,
      commissionAmount: null,
    });
    // The cost-only record does not override the vendor's rate on recalculation.
    await update({ items: [{ lineItemId: o.lineItemIds[0], orderId: o.orderId, recalculate: true }] });
    await eventually(async () => {
      expect((await lines(o.orderId))[0]).toMatchObject({
        commissionPlan: 'vendor:percentage:10',
        costOfItem: 9.99,
      });
    });
  });

  it('costOfItem on a SKU with an uploaded commission keeps that commission', async () => {
    await uploadSkus(t, shop, [{ sku: 'COST-UP-1', commissionType: 'flat', commissionRate: 1 }]);
    const o = await order(['COST-UP-1'], { quantity: 2 });
    await update({
      items: [{ lineItemId: o.lineItemIds[0], orderId: o.orderId, fields: { costOfItem: 8 } }],
    });
    const sku = (await listSkus(t, shop)).find((s) => s.sku === 'COST-UP-1');
    expect(sku).toEqual({ sku: 'COST-UP-1', costOfGoods: 4, commissionType: 'flat', commissionAmount: 1 });
  });

  it('a recalculation after a vendor commission change produces the new figures', async () => {
    const vendor = await createVendor(t, shop, 'Rate Changer', {
      commissionType: 'percentage',
      commissionAmount: 10,
    });
    const o = await order(['RC-1', 'RC-2'], { vendor: 'rate changer', price: '25.00', quantity: 2 });
    expect((await lines(o.orderId))[0]).toMatchObject({ commission: 5, payout: 45 });
    await setVendorCommission(t, shop, vendor._id, { commissionType: 'flat', commissionAmount: 3 });
    // Nothing changes until a recalculation is asked for.
    expect((await lines(o.orderId))[0]).toMatchObject({ commission: 5 });
    const res = await update({
      items: o.lineItemIds.map((lineItemId: number) => ({
        lineItemId,
        orderId: o.orderId,
        recalculate: true,
      })),
    });
    expect(res.body).toMatchObject({ success: true, updated: 0, recalculateQueued: 2 });
    await eventually(async () => {
      for (const l of await lines(o.orderId)) {
        expect(l).toMatchObject({ commission: 6, commissionPlan: 'vendor:flat:3', payout: 44, balance: 44 });
      }
    });
    // The order summary follows.
    await eventually(async () => {
      const list = await t.api.get('/v2/orders?first=100', { token: shop.token });
      expect(list.body.data.orders.find((x: any) => x.orderId === o.orderId)).toMatchObject({
        totalCommission: 12,
        totalPayout: 88,
      });
    });
  });

  it('a line without a vendor is assigned on a later recalculation once the vendor exists', async () => {
    const o = await order(['LATE-1'], { vendor: 'Late Comer' });
    expect((await lines(o.orderId))[0]).toMatchObject({
      vendorId: null,
      vendorName: 'late comer',
      commission: 0,
    });
    const late = await createVendor(t, shop, 'late comer', {
      commissionType: 'percentage',
      commissionAmount: 20,
    });
    await update({ bySku: 'LATE-1', recalculate: true });
    await eventually(async () => {
      expect((await lines(o.orderId))[0]).toMatchObject({
        vendorId: late._id,
        commission: 4,
        commissionPlan: 'vendor:percentage:20',
      });
    });
  });

  describe('by-SKU mode', () => {
    it('applies fields to every matched line, lists frozen ones in errors, one result per line', async () => {
      const a = await order(['BULK-1', 'OTHER-1']);
      const b = await order(['BULK-1']);
      const c = await order(['BULK-1']);
      await freeze(c.orderId, c.lineItemIds[0]);
      const res = await update({ bySku: 'BULK-1', fields: { deduction: 2 } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        success: false,
        matched: 3,
        updated: 2,
        recalculateQueued: 0,
        jobId: null,
        results: [
          { lineItemId: a.lineItemIds[0], orderId: a.orderId, status: 'updated' },
          { lineItemId: b.lineItemIds[0], orderId: b.orderId, status: 'updated' },
        ],
        errors: [
          {
            lineItemId: c.lineItemIds[0],
            orderId: c.orderId,
            error: 'Line item is frozen (paid out) and was skipped',
          },
        ],
      });
      expect((await lines(a.orderId)).map((l) => [l.sku, l.deduction])).toEqual(
        expect.arrayContaining([
          ['BULK-1', 2],
          ['OTHER-1', 0],
        ]),
      );
      expect((await lines(c.orderId))[0].deduction).toBe(0);
    });

    it('recalculates with a newly uploaded SKU commission', async () => {
      const o = await order(['SKUREC-1'], { price: '50.00', quantity: 1 });
      await uploadSkus(t, shop, [
        { sku: 'SKUREC-1', commissionType: 'percentage', commissionRate: 14, costOfGoods: 20 },
      ]);
      const res = await update({ bySku: 'SKUREC-1', recalculate: true });
      expect(res.body).toEqual({
        success: true,
        matched: 1,
        updated: 0,
        recalculateQueued: 1,
        jobId: expect.any(String),
        results: [{ lineItemId: o.lineItemIds[0], orderId: o.orderId, status: 'recalculate_queued' }],
        errors: [],
      });
      await eventually(async () => {
        expect((await lines(o.orderId))[0]).toMatchObject({
          commission: 7,
          commissionPlan: 'sku:percentage:14',
          costOfItem: 20,
          payout: 43,
        });
      });
    });

    it('fields and recalculate together; costOfItem sets the SKU record from the newest line', async () => {
      const o = await order(['BOTH-1'], { quantity: 4 });
      const res = await update({ bySku: 'BOTH-1', fields: { costOfItem: 10 }, recalculate: true });
      expect(res.body).toMatchObject({ success: true, updated: 1, recalculateQueued: 1 });
      expect(res.body.results).toEqual([
        { lineItemId: o.lineItemIds[0], orderId: o.orderId, status: 'updated_and_recalculate_queued' },
      ]);
      expect((await listSkus(t, shop)).find((s) => s.sku === 'BOTH-1')).toMatchObject({ costOfGoods: 2.5 });
      await eventually(async () => expect((await lines(o.orderId))[0]).toMatchObject({ costOfItem: 10 }));
    });

    it('an unmatched SKU answers success with no results', async () => {
      const res = await update({ bySku: 'NO-SUCH-SKU', recalculate: true });
      expect(res.body).toEqual({
        success: true,
        matched: 0,
        updated: 0,
        recalculateQueued: 0,
        jobId: null,
        results: [],
        errors: [],
      });
    });
  });

  it("another shop's line items are not found and never touched", async () => {
    const o = await order(['ISO-1']);
    const res = await update(
      { items: [{ lineItemId: o.lineItemIds[0], orderId: o.orderId, fields: { deduction: 5 } }] },
      other,
    );
    expect(res.body).toEqual({
      success: false,
      matched: 0,
      updated: 0,
      recalculateQueued: 0,
      jobId: null,
      results: [],
      errors: [{ lineItemId: o.lineItemIds[0], orderId: o.orderId, error: 'Line item not found' }],
    });
    const bySku = await update({ bySku: 'ISO-1', fields: { deduction: 5 } }, other);
    expect(bySku.body).toMatchObject({ success: true, updated: 0, results: [] });
    expect((await lines(o.orderId))[0].deduction).toBe(0);
    expect(acme._id).toBeDefined();
  });
});
