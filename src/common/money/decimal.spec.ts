import fc from 'fast-check';
import Decimal from 'decimal.js';
import { formatAmount, money } from './decimal';

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
