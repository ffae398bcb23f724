/* eslint-disable @typescript-eslint/no-explicit-any */
import { getModelToken } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { VendorBalance } from '../../src/balances/vendor-balance.schema';
import { VendorBalancesRepository } from '../../src/balances/vendor-balances.repository';
import { shopScope } from '../../src/common/tenancy';
import { VendorTally } from '../../src/line-items/vendor-tally.service';
import { SellerTaxYear } from '../../src/reports/seller-tax-year.schema';
import { SellerTaxReconcile } from '../../src/reports/seller-tax-reconcile.service';
import { SellerTaxMaintenanceProcessor } from '../../src/reports/seller-tax.processor';
import { SellerTaxSummaries } from '../../src/reports/seller-tax-summaries.service';
import { startApp, TestApp } from '../support/app';
import { measured } from '../support/db-cost';
import { c, refundScenario } from '../support/refund-scenario';

// The seller tax report's stored quarters (ADR 0057): the report reads one document per vendor and
// year, recomputed from the rows where the tally marked them. These tests change rows between
// reads, open the crash windows of a refresh by hand (a refresh that died before its write, a mark
// bumped while a refresh ran, a stored figure that drifted with no mark) and check the figures to
// the cent against sums written here, and the reconcile proof.
process.env.QUEUE_PREFIX = `${process.env.QUEUE_PREFIX ?? 'mp-test'}-tax-years`;

const YEAR = 2025;
const Q1 = new Date(Date.UTC(YEAR, 1, 10, 12));
const Q3 = new Date(Date.UTC(YEAR, 7, 10, 12));

describe("the seller tax report's stored quarters (e2e)", () => {
  let t: TestApp;
  let balances: Model<VendorBalance>;
  let years: Model<SellerTaxYear>;
  beforeAll(async () => {
    t = await startApp();
    balances = t.app.get<Model<VendorBalance>>(getModelToken(VendorBalance.name));
    years = t.app.get<Model<SellerTaxYear>>(getModelToken(SellerTaxYear.name));
  });
  afterAll(() => t.close());

  /** Two vendors; alpha sells in Q1 (two orders, one with two lines) and Q3, bravo in Q3. */
  async function year(prefix: string) {
    const s = await refundScenario(t, prefix, ['alpha', 'bravo']);
    const send = async (lines: Array<{ vendor?: number; price: string; quantity: number }>, at: Date) =>
      s.send('orders/create', await s.order(lines, at));
    await send(
      [
        { vendor: 0, price: '50.00', quantity: 2 },
        { vendor: 0, price: '19.99', quantity: 3 },
      ],
      Q1,
    );
    await send([{ vendor: 0, price: '7.05', quantity: 1 }], Q1);
    await send(
      [
        { vendor: 0, price: '12.34', quantity: 1 },
        { vendor: 1, price: '99.99', quantity: 1 },
      ],
      Q3,
    );
    await t.app.get(VendorTally).drained();
    const scope = shopScope(s.shop.shopId);
    const ids = s.vendors.map((v) => new Types.ObjectId(v._id));
    const report = async () => {
      const res = await t.api.get(`/v1/reports/seller-tax?year=${YEAR}`, { token: s.shop.token });
      expect(res.status).toBe(200);
      return new Map<string, any>(res.body.vendors.map((v: any) => [v.vendorId, v]));
    };
    /** (consideration in cents, orders) of a vendor's quarter in the report. */
    const figures = (r: Map<string, any>, vendor: number, quarter: number) => {
      const q = r.get(s.vendors[vendor]._id).quarters[quarter - 1];
      return [c(q.consideration), q.numberOfOrders];
    };
    const proof = () => t.app.get(SellerTaxReconcile).reconcile(scope);
    return { s, scope, ids, report, figures, proof, send };
  }

  it('answers from the stored quarters what the rows say, and reconcile compares every quarter', async () => {
    const y = await year('tax-q-flow');
    const r = await y.report();
    expect(y.figures(r, 0, 1)).toEqual([c('100.00') + c('59.97') + c('7.05'), 2]);
    expect(y.figures(r, 0, 3)).toEqual([c('12.34'), 1]);
    expect(y.figures(r, 1, 3)).toEqual([c('99.99'), 1]);
    expect(y.figures(r, 1, 1)).toEqual([0n, 0]);
    const stored = await years.find({ shopId: new Types.ObjectId(y.s.shop.shopId) }).lean();
    const seen = stored.flatMap((d) =>
      Object.keys(d.quarters).map((q) => `${String(d.vendorId) === String(y.ids[0]) ? 'a' : 'b'}${q}`),
    );
    expect(seen.sort()).toEqual(['a1', 'a3', 'b3']);
    // every mark is gone once refreshed
    const marked = await balances
      .find({ shopId: new Types.ObjectId(y.s.shop.shopId), taxDirty: true })
      .lean();
    expect(marked).toEqual([]);
    const proof = await y.proof();
    expect(proof).toMatchObject({ ok: true, years: [YEAR], differences: [] });
    expect(proof.compared).toBe(8);
  });

  it('costs a fixed number of commands when nothing is marked, and a bounded few more when quarters are', async () => {
    const y = await year('tax-q-cost');
    const path = `/v1/reports/seller-tax?year=${YEAR}`;
    const marked = await measured(t, 'GET', path, undefined, { token: y.s.shop.token });
    expect(marked.res.status).toBe(200);
    const clean = await measured(t, 'GET', path, undefined, { token: y.s.shop.token });
    expect(clean.res.status).toBe(200);
    // the marks, the stored years, the vendors' names, their tax profiles, the export's audit record
    expect(clean.commands).toBeLessThanOrEqual(5);
    // + per marked quarter its two sums (sale and refund rows), then one write and one clear
    expect(marked.commands).toBeLessThanOrEqual(5 + 2 * 2 + 2);
    expect(clean.res.body).toEqual(marked.res.body);
  });

  it('a row written after a read marks its quarter: the next read has it', async () => {
    const y = await year('tax-q-again');
    expect(y.figures(await y.report(), 1, 1)).toEqual([0n, 0]);
    await y.send([{ vendor: 1, price: '3.10', quantity: 4 }], Q1);
    const r = await y.report();
    expect(y.figures(r, 1, 1)).toEqual([c('12.40'), 1]);
    expect(y.figures(r, 0, 1)).toEqual([c('100.00') + c('59.97') + c('7.05'), 2]);
    expect((await y.proof()).ok).toBe(true);
  });

  it('a refresh that died before its write leaves the mark, and the next read finishes it', async () => {
    const y = await year('tax-q-crash');
    await y.report();
    const shopId = new Types.ObjectId(y.s.shop.shopId);
    // as a tally step leaves a quarter it counted a row of, with the stored figure not yet rewritten
    await years.updateOne({ shopId, vendorId: y.ids[0], year: YEAR }, { $set: { 'quarters.1.sales': 1 } });
    await balances.updateOne(
      { shopId, vendorId: y.ids[0] },
      { $inc: { 'taxDirt.2025Q1': 1 }, $set: { taxDirty: true } },
    );
    expect(y.figures(await y.report(), 0, 1)).toEqual([c('100.00') + c('59.97') + c('7.05'), 2]);
    const doc = await balances.findOne({ shopId, vendorId: y.ids[0] }).lean();
    expect(doc).toMatchObject({ taxDirt: {}, taxDirty: false });
    expect((await y.proof()).ok).toBe(true);
  });

  it('the refresher (a repeatable job) recomputes marked quarters before any report asks', async () => {
    const y = await year('tax-q-sweep');
    await y.report();
    const shopId = new Types.ObjectId(y.s.shop.shopId);
    const key = { shopId, vendorId: y.ids[1], year: YEAR };
    await years.updateOne(key, { $set: { 'quarters.3.sales': 5, 'quarters.3.numberOfOrders': 9 } });
    await balances.updateOne(
      { shopId, vendorId: y.ids[1] },
      { $inc: { 'taxDirt.2025Q3': 1 }, $set: { taxDirty: true } },
    );
    await t.app.get(SellerTaxMaintenanceProcessor).sweepNow(); // (or the app's own sweep, on its timer)
    expect((await years.findOne(key).lean())!.quarters['3']).toMatchObject({
      sales: Number(c('99.99')),
      numberOfOrders: 1,
    });
    expect(await balances.findOne({ shopId, vendorId: y.ids[1] }).lean()).toMatchObject({ taxDirty: false });
  });

  it('a mark bumped while a refresh ran stays for the next one; the flag goes with the last mark', async () => {
    const y = await year('tax-q-race');
    await y.report();
    const shopId = new Types.ObjectId(y.s.shop.shopId);
    await balances.updateOne(
      { shopId, vendorId: y.ids[0] },
      { $set: { 'taxDirt.2025Q3': 2, 'taxDirt.2024Q4': 1, taxDirty: true } },
    );
    const repo = t.app.get(VendorBalancesRepository);
    // the refresh read 1, a step bumped it to 2 before the clear: kept
    await repo.clearTaxDirt(y.scope, [{ vendorId: y.ids[0], counts: { '2025Q3': 1 } }]);
    expect(await balances.findOne({ shopId, vendorId: y.ids[0] }).lean()).toMatchObject({
      taxDirt: { '2025Q3': 2, '2024Q4': 1 },
      taxDirty: true,
    });
    await repo.clearTaxDirt(y.scope, [{ vendorId: y.ids[0], counts: { '2025Q3': 2 } }]);
    expect(await balances.findOne({ shopId, vendorId: y.ids[0] }).lean()).toMatchObject({
      taxDirt: { '2024Q4': 1 },
      taxDirty: true,
    });
    // a read of 2025 leaves 2024's mark alone; clearing it drops the flag
    await y.report();
    await repo.clearTaxDirt(y.scope, [{ vendorId: y.ids[0], counts: { '2024Q4': 1 } }]);
    expect(await balances.findOne({ shopId, vendorId: y.ids[0] }).lean()).toMatchObject({
      taxDirt: {},
      taxDirty: false,
    });
    // another shop's marks are never touched by this shop's clear
    const other = await year('tax-q-race-other');
    const otherShop = new Types.ObjectId(other.s.shop.shopId);
    await balances.updateOne(
      { shopId: otherShop, vendorId: other.ids[0] },
      { $set: { 'taxDirt.2025Q3': 1, taxDirty: true } },
    );
    await repo.clearTaxDirt(y.scope, [{ vendorId: other.ids[0], counts: { '2025Q3': 1 } }]);
    expect(await balances.findOne({ shopId: otherShop, vendorId: other.ids[0] }).lean()).toMatchObject({
      taxDirt: { '2025Q3': 1 },
      taxDirty: true,
    });
  });

  it('a stored figure that drifted with no mark to explain it is named by reconcile, never hidden', async () => {
    const y = await year('tax-q-drift');
    await y.report();
    const shopId = new Types.ObjectId(y.s.shop.shopId);
    await years.updateOne(
      { shopId, vendorId: y.ids[1], year: YEAR },
      { $inc: { 'quarters.3.numberOfOrders': 1 } },
    );
    const proof = await y.proof();
    expect(proof.ok).toBe(false);
    expect(proof.differences).toEqual([
      expect.objectContaining({ vendorId: String(y.ids[1]), year: YEAR, quarter: 3 }),
    ]);
    expect(proof.differences[0].stored!.numberOfOrders).toBe(2);
    expect(proof.differences[0].rows!.numberOfOrders).toBe(1);
  });

  it('an upgrade: rows counted before the tally marked quarters have none stored — reconcile names them, the rebuild recomputes them', async () => {
    const y = await year('tax-q-upgrade');
    await y.report();
    const shopId = new Types.ObjectId(y.s.shop.shopId);
    // as the release before left the shop: its rows counted, no stored year, no marks
    await years.deleteMany({ shopId });
    await balances.updateMany({ shopId }, { $unset: { taxDirt: '', taxDirty: '' } });
    const before = await y.proof();
    expect(before.ok).toBe(false);
    expect(before.differences.map((d) => `${d.quarter}:${d.stored === null}`).sort()).toEqual([
      '1:true',
      '3:true',
      '3:true',
    ]);
    const rebuilt = await t.app.get(SellerTaxSummaries).rebuild(y.scope);
    expect(rebuilt).toEqual({ years: [YEAR], refreshed: 2 });
    expect((await y.proof()).ok).toBe(true);
    expect(y.figures(await y.report(), 0, 1)).toEqual([c('100.00') + c('59.97') + c('7.05'), 2]);
    // run twice: the same figures, nothing left marked
    await t.app.get(SellerTaxSummaries).rebuild(y.scope);
    expect((await y.proof()).ok).toBe(true);
    expect(await balances.countDocuments({ shopId, taxDirty: true })).toBe(0);
  });
});
