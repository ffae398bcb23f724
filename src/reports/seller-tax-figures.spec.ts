import fc from 'fast-check';
import { cents, fmt } from '../../test/support/cents';
import { quarterCents, quarterOf, quarterRanges, toFigures, totalCents } from './seller-tax-figures';

const inRange = (d: Date, r: { from: Date; to: Date }) => d >= r.from && d < r.to;
const quarterHolding = (d: Date) => quarterRanges(d.getUTCFullYear()).filter((r) => inRange(d, r));
const amount = (c: bigint) => Number(fmt(c));

describe('seller tax report: quarters', () => {
  it.each([
    ['2025-01-01T00:00:00.000Z', 1],
    ['2025-03-31T23:59:59.999Z', 1],
    ['2025-04-01T00:00:00.000Z', 2],
    ['2025-06-30T23:59:59.999Z', 2],
    ['2025-07-01T00:00:00.000Z', 3],
    ['2025-09-30T23:59:59.999Z', 3],
    ['2025-10-01T00:00:00.000Z', 4],
    ['2025-12-31T23:59:59.999Z', 4],
    ['2024-02-29T12:00:00.000Z', 1],
  ])('a row dated %s is in Q%i (UTC, half-open ranges)', (at, q) => {
    const d = new Date(at);
    const holding = quarterHolding(d);
    expect(holding.map((r) => r.quarter)).toEqual([q]);
    expect(quarterOf(d)).toBe(q);
  });

  it('the four ranges are the year, in order, with no gap and no overlap', () => {
    const r = quarterRanges(2026);
    expect(r.map((x) => [x.quarter, x.from.toISOString(), x.to.toISOString()])).toEqual([
      [1, '2026-01-01T00:00:00.000Z', '2026-04-01T00:00:00.000Z'],
      [2, '2026-04-01T00:00:00.000Z', '2026-07-01T00:00:00.000Z'],
      [3, '2026-07-01T00:00:00.000Z', '2026-10-01T00:00:00.000Z'],
      [4, '2026-10-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z'],
    ]);
  });

  it('every instant of a year lies in exactly one quarter range, the one its UTC month names', () => {
    fc.assert(
      fc.property(
        fc.date({
          min: new Date('1970-01-01Z'),
          max: new Date('9999-12-31T23:59:59.999Z'),
          noInvalidDate: true,
        }),
        (d) => {
          const holding = quarterHolding(d);
          expect(holding).toHaveLength(1);
          expect(holding[0].quarter).toBe(Math.floor(d.getUTCMonth() / 3) + 1);
          // and no range of the neighbouring years holds it
          for (const y of [d.getUTCFullYear() - 1, d.getUTCFullYear() + 1])
            expect(quarterRanges(y).some((r) => inRange(d, r))).toBe(false);
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('seller tax report: figures', () => {
  const sale = {
    salesAfterDiscount: 0,
    commission: 0,
    taxOnCommissions: 0,
    tcs: 0,
    totalGlobalDeductions: 0,
    deduction: 0,
    orders: 0,
  };

  it('defines each figure from the sale and refund sums (consideration nets refunds; withholdings net what refunds gave back)', () => {
    const q = quarterCents(
      {
        salesAfterDiscount: 1250,
        commission: 125,
        taxOnCommissions: 22.5,
        tcs: 12.5,
        totalGlobalDeductions: 25,
        deduction: 3.1,
        orders: 7,
      },
      {
        salesAfterDiscount: -69.5,
        commission: -6.95,
        taxOnCommissions: -1.25,
        tcs: -0.7,
        totalGlobalDeductions: -1.39,
        deduction: 0,
      },
    );
    const consideration = cents('1250.00') + cents('-69.50');
    const commissions = cents('125.00') + cents('22.50') + cents('-6.95') + cents('-1.25');
    const fees = cents('25.00') + cents('3.10') + cents('-1.39');
    const taxes = cents('12.50') + cents('-0.70');
    expect(toFigures(q)).toEqual({
      consideration: amount(consideration),
      numberOfOrders: 7,
      sales: 1250,
      refunds: -69.5,
      commissions: amount(commissions),
      fees: amount(fees),
      taxes: amount(taxes),
      netConsideration: amount(consideration - commissions - fees - taxes),
    });
  });

  it('a quarter with only refunds: negative consideration and withholdings, no orders', () => {
    const f = toFigures(
      quarterCents(null, {
        salesAfterDiscount: -45,
        commission: -4.5,
        taxOnCommissions: 0,
        tcs: 0,
        totalGlobalDeductions: 0,
        deduction: 0,
      }),
    );
    expect(f).toMatchObject({
      consideration: -45,
      numberOfOrders: 0,
      commissions: -4.5,
      netConsideration: -40.5,
    });
  });

  it('no rows: every figure 0', () => {
    expect(toFigures(quarterCents(undefined, undefined))).toEqual({
      consideration: 0,
      numberOfOrders: 0,
      sales: 0,
      refunds: 0,
      commissions: 0,
      fees: 0,
      taxes: 0,
      netConsideration: 0,
    });
  });

  it('sums the store added as doubles come out as the exact integer-cent sums (property, BigInt oracle)', () => {
    const centsArb = fc.bigInt({ min: -10_000_000n, max: 10_000_000n });
    fc.assert(
      fc.property(
        fc.array(fc.tuple(centsArb, centsArb, fc.boolean()), { minLength: 1, maxLength: 400 }),
        (rows) => {
          // the store's view: each row a 2-dp double, added in row order
          const dbl = (c: bigint) => Number(fmt(c));
          const saleRows = rows.filter((r) => !r[2]);
          const refundRows = rows.filter((r) => r[2]);
          const sum = (rs: typeof rows, i: 0 | 1) => rs.reduce((n, r) => n + dbl(r[i]), 0);
          const q = quarterCents(
            {
              ...sale,
              salesAfterDiscount: sum(saleRows, 0),
              commission: sum(saleRows, 1),
              orders: saleRows.length,
            },
            { ...sale, salesAfterDiscount: sum(refundRows, 0), commission: sum(refundRows, 1) },
          );
          const exact = (rs: typeof rows, i: 0 | 1) => rs.reduce((n, r) => n + r[i], 0n);
          const f = toFigures(q);
          expect(f.sales).toBe(amount(exact(saleRows, 0)));
          expect(f.refunds).toBe(amount(exact(refundRows, 0)));
          expect(f.consideration).toBe(amount(exact(rows, 0)));
          expect(f.commissions).toBe(amount(exact(rows, 1)));
          expect(f.netConsideration).toBe(amount(exact(rows, 0) - exact(rows, 1)));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('the year is the sum of its quarters, orders included', () => {
    const a = quarterCents({ ...sale, salesAfterDiscount: 0.1, tcs: 0.01, orders: 2 }, null);
    const b = quarterCents(
      { ...sale, salesAfterDiscount: 0.2, deduction: 1, orders: 3 },
      {
        ...sale,
        salesAfterDiscount: -0.3,
      },
    );
    const t = toFigures(totalCents([a, b, quarterCents(null, null), a]));
    expect(t).toEqual({
      consideration: 0.1,
      numberOfOrders: 7,
      sales: 0.4,
      refunds: -0.3,
      commissions: 0,
      fees: 1,
      taxes: 0.02,
      netConsideration: -0.92,
    });
  });
});
