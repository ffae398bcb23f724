import { Types } from 'mongoose';
import { asReal, SHOP } from '../../test/fakes/fake';
import { FakeSellerTaxYears, FakeTaxMarks, idleTally } from '../../test/fakes/seller-tax-years.fake';
import { FakeSellerTaxRows, type TaxRow } from '../../test/fakes/seller-tax-rows.fake';
import type { VendorBalancesRepository } from '../balances/vendor-balances.repository';
import type { SellerTaxRowsRepository } from '../line-items/seller-tax-rows.repository';
import type { VendorTally } from '../line-items/vendor-tally.service';
import type { SellerTaxYearsRepository } from './seller-tax-years.repository';
import { SellerTaxSummaries } from './seller-tax-summaries.service';

const A = new Types.ObjectId();
const B = new Types.ObjectId();
const ZERO = { commission: 0, taxOnCommissions: 0, tcs: 0, totalGlobalDeductions: 0, deduction: 0 };

function setup() {
  const rows = new FakeSellerTaxRows();
  const quarters = new FakeSellerTaxYears();
  const marks = new FakeTaxMarks(() => rows.rows);
  const summaries = new SellerTaxSummaries(
    asReal<SellerTaxRowsRepository>(rows),
    asReal<VendorBalancesRepository>(marks),
    asReal<SellerTaxYearsRepository>(quarters),
    asReal<VendorTally>(idleTally),
  );
  const row = (
    vendorId: Types.ObjectId,
    orderId: number,
    at: string,
    sad: number,
    more: Partial<TaxRow> = {},
  ) => {
    const r: TaxRow = {
      shopId: new Types.ObjectId(SHOP.shopId),
      vendorId,
      orderId,
      type: 'sale',
      inPayouts: true,
      orderCreatedAt: new Date(at),
      salesAfterDiscount: sad,
      ...ZERO,
      ...more,
    };
    rows.rows.push(r);
    return r;
  };
  return { rows, quarters, marks, summaries, row };
}

describe('SellerTaxSummaries: the report quarters kept from the rows the tally marks', () => {
  it('recomputes only the marked quarters of the year asked, and clears each mark at the count it read', async () => {
    const { rows, marks, summaries, row } = setup();
    row(A, 1, '2025-02-01T00:00:00Z', 10);
    row(A, 2, '2025-08-01T00:00:00Z', 20);
    row(B, 3, '2026-01-05T00:00:00Z', 30);
    const year = await summaries.year(SHOP, 2025);
    expect(rows.calls).toBe(2); // Q1 and Q3 of 2025 (vendor A), nothing of 2026
    expect([...year.keys()]).toEqual([String(A)]);
    expect(year.get(String(A))!.map((q) => q.sales)).toEqual([1000, 0, 2000, 0]);
    expect(marks.clears.map((c) => c.quarter).sort()).toEqual(['2025Q1', '2025Q3']);
    // 2026 stays marked until its year is asked for
    expect((await marks.taxDirt(SHOP)).map((d) => Object.keys(d.taxDirt))).toEqual([['2026Q1']]);
  });

  it('reads the stored quarters alone when nothing is marked', async () => {
    const { rows, summaries, row } = setup();
    row(A, 1, '2025-02-01T00:00:00Z', 10);
    await summaries.year(SHOP, 2025);
    const calls = rows.calls;
    const again = await summaries.year(SHOP, 2025);
    expect(rows.calls).toBe(calls);
    expect(again.get(String(A))![0]).toMatchObject({ sales: 1000, numberOfOrders: 1 });
  });

  it('a changed row marks its quarter again: the next read has the new figure', async () => {
    const { summaries, row } = setup();
    const r = row(A, 1, '2025-02-01T00:00:00Z', 10);
    await summaries.year(SHOP, 2025);
    r.salesAfterDiscount = 12.5;
    row(A, 2, '2025-03-01T00:00:00Z', 1, { type: 'refund', salesAfterDiscount: -1 });
    const q1 = (await summaries.year(SHOP, 2025)).get(String(A))![0];
    expect(q1).toMatchObject({ sales: 1250, refunds: -100, numberOfOrders: 1 });
  });

  it('a vendor whose rows are no longer payable falls to zero and leaves the report', async () => {
    const { quarters, summaries, row } = setup();
    const r = row(A, 1, '2025-02-01T00:00:00Z', 10);
    row(B, 2, '2025-02-01T00:00:00Z', 5);
    await summaries.year(SHOP, 2025);
    r.inPayouts = false;
    const year = await summaries.year(SHOP, 2025);
    expect([...year.keys()]).toEqual([String(B)]);
    const stored = (await quarters.year(SHOP, 2025)).find((q) => String(q.vendorId) === String(A))!;
    expect(stored.quarters['1']).toMatchObject({ hasRows: false, sales: 0, numberOfOrders: 0 });
  });

  it('counts an order once per quarter however many payable sale rows it has', async () => {
    const { summaries, row } = setup();
    row(A, 1, '2025-05-01T00:00:00Z', 1);
    row(A, 1, '2025-05-01T00:00:00Z', 2);
    row(A, 2, '2025-05-02T00:00:00Z', 3);
    row(A, 1, '2025-05-03T00:00:00Z', -1, { type: 'refund' });
    expect((await summaries.year(SHOP, 2025)).get(String(A))![1].numberOfOrders).toBe(2);
  });
});
