import { Types } from 'mongoose';
import { NO_TALLY, tallyOf, tallyStep, touchesTally, type TallySource } from './vendor-tally';

const V = new Types.ObjectId();
const W = new Types.ObjectId();
const row = (over: Partial<TallySource>): TallySource => ({
  _id: new Types.ObjectId(),
  vendorId: V,
  frozen: false,
  inPayouts: true,
  balance: 0,
  tally: null,
  tallyDirt: 1,
  ...over,
});

describe('tallyOf: what a row contributes to its vendor', () => {
  it('an unpaid payable row counts its balance in due, in cents (half-up, no float drift)', () => {
    expect(tallyOf(row({ balance: 45.0 }))).toEqual({ v: V, k: 'due', c: 4500 });
    expect(tallyOf(row({ balance: 0.1 + 0.2 }))).toEqual({ v: V, k: 'due', c: 30 });
    expect(tallyOf(row({ balance: -27.005 }))).toEqual({ v: V, k: 'due', c: -2701 });
  });

  it('a row of an order not captured yet counts in pending; a paid row or one without a vendor counts nothing', () => {
    expect(tallyOf(row({ balance: 12.34, inPayouts: false }))).toEqual({ v: V, k: 'pending', c: 1234 });
    expect(tallyOf(row({ balance: 12.34, frozen: true }))).toEqual(NO_TALLY);
    expect(tallyOf(row({ balance: 12.34, vendorId: null }))).toEqual(NO_TALLY);
  });

  it('only writes of the fields a contribution depends on mark a row', () => {
    expect(touchesTally({ balance: 1 })).toBe(true);
    expect(touchesTally({ vendorId: V, vendorName: 'x' })).toBe(true);
    expect(touchesTally({ fulfillmentStatus: 'fulfilled', fulfillment: {} })).toBe(false);
  });

  it('a write of a figure the seller tax report sums marks the row even when its balance stays', () => {
    for (const f of ['tcs', 'taxOnCommissions', 'totalGlobalDeductions', 'deduction', 'salesAfterDiscount'])
      expect(touchesTally({ [f]: 1 })).toBe(true);
    expect(touchesTally({ type: 'refund' })).toBe(true);
  });
});

describe('tallyStep: the difference each changed row makes, counted once', () => {
  it('a new row adds its contribution; a changed row adds only the difference', () => {
    const fresh = row({ balance: 90 });
    const changed = row({ balance: 45, tally: { v: V, k: 'due', c: 9000 } });
    const step = tallyStep(String(V), [fresh, changed]);
    expect(step.dueCents).toBe(9000 + (4500 - 9000));
    expect(step.pendingCents).toBe(0);
    expect(step.rows.map((r) => [r.tally.c, r.keep])).toEqual([
      [9000, false],
      [4500, false],
    ]);
  });

  it('a pending row whose order is paid moves from pending to due', () => {
    const r = row({ balance: 18, inPayouts: true, tally: { v: V, k: 'pending', c: 1800 } });
    const step = tallyStep(String(V), [r]);
    expect([step.dueCents, step.pendingCents]).toEqual([1800, -1800]);
  });

  it('a row paid by a batch leaves due; a refund row (negative) lowers it', () => {
    const paid = row({ balance: 0, frozen: true, tally: { v: V, k: 'due', c: 9000 } });
    const refund = row({ balance: -45 });
    const step = tallyStep(String(V), [paid, refund]);
    expect(step.dueCents).toBe(-9000 - 4500);
    expect(step.rows[0].tally).toEqual(NO_TALLY);
  });

  it('a row moved to another vendor leaves this vendor and stays marked for the other', () => {
    const moved = row({ vendorId: W, balance: 30, tally: { v: V, k: 'due', c: 3000 } });
    const step = tallyStep(String(V), [moved]);
    expect(step.dueCents).toBe(-3000);
    expect(step.rows[0]).toMatchObject({ tally: NO_TALLY, keep: true });
    expect(step.others).toEqual([String(W)]);
    // …and the other vendor then counts it in full.
    const there = tallyStep(String(W), [{ ...moved, tally: NO_TALLY }]);
    expect(there.dueCents).toBe(3000);
    expect(there.rows[0].keep).toBe(false);
  });

  it('a row still counted at another vendor is left to that vendor first (not counted twice)', () => {
    const r = row({ vendorId: V, balance: 30, tally: { v: W, k: 'due', c: 3000 } });
    const step = tallyStep(String(V), [r]);
    expect(step.dueCents).toBe(0);
    expect(step.rows).toHaveLength(0);
    expect(step.others).toEqual([String(W)]);
  });

  it('a row stored before the tally (no mark, no tally) is counted in full, its mark read as null', () => {
    const legacy = row({ balance: 10, tallyDirt: undefined, tally: undefined });
    const step = tallyStep(String(V), [legacy]);
    expect(step.dueCents).toBe(1000);
    expect(step.rows[0].dirt).toBeNull();
  });

  it("names the quarters of the rows it counted (the vendor's tax summaries to refresh), not of rows left to another vendor", () => {
    const q4 = row({ balance: 1, orderCreatedAt: new Date('2025-12-31T23:59:59.999Z') });
    const q1 = row({ balance: 1, orderCreatedAt: new Date('2026-01-01T00:00:00.000Z') });
    const movedAway = row({
      vendorId: W,
      tally: { v: V, k: 'due', c: 100 },
      orderCreatedAt: new Date('2025-05-01'),
    });
    const elsewhere = row({ tally: { v: W, k: 'due', c: 100 }, orderCreatedAt: new Date('2024-02-01') });
    const frozenPaid = row({ frozen: true, orderCreatedAt: new Date('2025-12-01T00:00:00.000Z') });
    const step = tallyStep(String(V), [q4, q1, movedAway, elsewhere, frozenPaid]);
    expect(step.quarters).toEqual(['2025Q2', '2025Q4', '2026Q1']);
    expect(tallyStep(String(V), []).quarters).toEqual([]);
  });
});
