import { REFUND_FIGURES, refundedSoFar, refundRowFigures, RefundFigureName } from './refund-figures';
import { payoutState } from './line-item-figures';

// Oracle in BigInt cents, written apart from the decimal helper: half-up (away from zero) of c × k / n.
const cents = (v: number): bigint => BigInt(Math.round(v * 100));
function halfUp(numer: bigint, denom: bigint): bigint {
  const neg = numer < 0n !== denom < 0n;
  const a = numer < 0n ? -numer : numer;
  const b = denom < 0n ? -denom : denom;
  const q = (a * 2n + b) / (2n * b);
  return neg ? -q : q;
}
const toNumber = (c: bigint): number => Number(c) / 100;

const LINE: Record<RefundFigureName, number> = {
  sales: 100,
  discount: 0.01,
  salesAfterDiscount: 99.99,
  tax: 3.33,
  shipping: 10.01,
  commission: 10,
  costOfItem: 40.03,
  taxOnCommissions: 1.8,
  tcs: 1.01,
  totalGlobalDeductions: 0.5,
  deduction: 0,
  payout: 86.68,
};

describe('refundRowFigures (DESIGN §6 refund rows)', () => {
  it('pro-rata: every named figure is −half-up(line figure × k / n)', () => {
    const { figures, units, remainder } = refundRowFigures(LINE, 3, 1);
    expect(units).toBe(1);
    expect(remainder).toBe(false);
    for (const name of REFUND_FIGURES) {
      expect(figures[name]).toBe(toNumber(-halfUp(cents(LINE[name]), 3n)));
    }
    // 100.00 / 3 = 33.333… → −33.33; 10.01 / 3 = 3.3366… → −3.34; 0.01 / 3 → −0.00
    expect(figures.sales).toBe(-33.33);
    expect(figures.shipping).toBe(-3.34);
    expect(figures.discount).toBe(0);
  });

  it('half-up at the .005 boundary, never the float trap (1.005 × 1/2 style inputs)', () => {
    // 0.01 × 1 / 2 = 0.005 → 0.01; 2.01 / 2 = 1.005 → 1.01 (binary floats read 1.00499…)
    const line = { ...LINE, discount: 0.01, tax: 2.01, tcs: 1.01, payout: 10.05 };
    const { figures } = refundRowFigures(line, 2, 1);
    expect(figures.discount).toBe(-0.01);
    expect(figures.tax).toBe(-1.01);
    expect(figures.tcs).toBe(-0.51);
    expect(figures.payout).toBe(-5.03);
  });

  it('the refund that brings refunded units to n takes the remainder: the line nets to exactly 0.00', () => {
    const first = refundRowFigures(LINE, 3, 1);
    const second = refundRowFigures(LINE, 3, 1, refundedSoFar([{ ...first.figures, refundedQuantity: 1 }]));
    const before = refundedSoFar([
      { ...first.figures, refundedQuantity: 1 },
      { ...second.figures, refundedQuantity: 1 },
    ]);
    const last = refundRowFigures(LINE, 3, 1, before);
    expect(last.remainder).toBe(true);
    for (const name of REFUND_FIGURES) {
      const net =
        cents(LINE[name]) +
        cents(first.figures[name]) +
        cents(second.figures[name]) +
        cents(last.figures[name]);
      expect(net).toBe(0n);
    }
    // 100 − 33.33 − 33.33 = 33.34 left for the last unit
    expect(last.figures.sales).toBe(-33.34);
  });

  it('a refund of every unit at once is the whole line negated; more than is left is capped', () => {
    const all = refundRowFigures(LINE, 2, 2);
    for (const name of REFUND_FIGURES) expect(all.figures[name]).toBe(LINE[name] === 0 ? 0 : -LINE[name]);
    const capped = refundRowFigures(LINE, 2, 5, { units: 1, figures: { payout: -43.34 } });
    expect(capped.units).toBe(1);
    expect(capped.figures.payout).toBe(-43.34);
    const none = refundRowFigures(LINE, 2, 1, { units: 2, figures: {} });
    expect(none.units).toBe(0);
    expect(none.figures.payout).toBe(0);
  });

  it('2 × 50.00 at 10 %: one unit refunded is −50.00 sales, −5.00 commission, −45.00 payout', () => {
    const line = {
      ...LINE,
      sales: 100,
      discount: 0,
      salesAfterDiscount: 100,
      tax: 0,
      shipping: 0,
      commission: 10,
      costOfItem: 0,
      taxOnCommissions: 0,
      tcs: 0,
      totalGlobalDeductions: 0,
      deduction: 0,
      payout: 90,
    };
    const { figures } = refundRowFigures(line, 2, 1);
    expect(figures).toMatchObject({ sales: -50, commission: -5, payout: -45, salesAfterDiscount: -50 });
  });
});

describe('payoutState with refund rows', () => {
  it('a negative payout: unpaid until netted, then paid', () => {
    expect(payoutState(-45, 0)).toEqual({ balance: -45, payoutStatus: 'unpaid' });
    expect(payoutState(-45, -45)).toEqual({ balance: 0, payoutStatus: 'paid' });
    expect(payoutState(-45, -20)).toEqual({ balance: -25, payoutStatus: 'partial' });
    expect(payoutState(90, 90)).toEqual({ balance: 0, payoutStatus: 'paid' });
    expect(payoutState(90, 0)).toEqual({ balance: 90, payoutStatus: 'unpaid' });
  });
});
