import fc from 'fast-check';
import Decimal from 'decimal.js';
import { formatAmount, money, sumAmounts } from './decimal';

/** The slow, obviously right formatting: Decimal half-up to 2 dp. */
const viaDecimal = (v: number): string => {
  const d = money(v).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
  return d.isZero() ? '0.00' : d.toFixed(2);
};

describe('formatAmount', () => {
  it('formats whole cents exactly (the fast path) as Decimal would', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e13, max: 1e13 }), (c) => {
        expect(formatAmount(c / 100)).toBe(new Decimal(c).div(100).toFixed(2));
      }),
      { numRuns: 5000 },
    );
  });

  it('agrees with Decimal on any double (half-up at the .005 boundaries)', () => {
    fc.assert(
      fc.property(fc.double({ min: -1e9, max: 1e9, noNaN: true }), (v) => {
        expect(formatAmount(v)).toBe(viaDecimal(v));
      }),
      { numRuns: 5000 },
    );
    for (const v of [1.005, -1.005, 0.015, 2.675, 1e21, -0.004, -0])
      expect(formatAmount(v)).toBe(viaDecimal(v));
  });
});

describe('sumAmounts', () => {
  const viaDecimal = (vs: number[]): number => {
    let t = new Decimal(0);
    for (const v of vs) t = t.plus(money(v));
    const n = t.toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toNumber();
    return n === 0 ? 0 : n;
  };

  it('adds whole-cent numbers as integer cents, equal to the Decimal sum', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -1e11, max: 1e11 }), { maxLength: 50 }), (cs) => {
        const vs = cs.map((c) => c / 100);
        expect(sumAmounts(vs)).toBe(viaDecimal(vs));
      }),
      { numRuns: 3000 },
    );
    expect(sumAmounts([0.1, 0.2])).toBe(0.3);
  });

  it('falls back to Decimal for sub-cent values, strings and Decimals', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { maxLength: 20 }), (vs) => {
        expect(sumAmounts(vs)).toBe(viaDecimal(vs));
      }),
      { numRuns: 3000 },
    );
    expect(sumAmounts([0.005, 0.005, '1.10', null, undefined])).toBe(1.11);
    expect(sumAmounts([0.004, 0.001])).toBe(0.01);
  });
});
