import { fromCents, toCents } from '../common/money';

/** Calendar quarters of the seller tax report (DAC7 reports per quarter). */
export const QUARTERS = [1, 2, 3, 4] as const;
export type Quarter = (typeof QUARTERS)[number];

export interface QuarterRange {
  quarter: Quarter;
  /** Inclusive: 00:00:00.000Z of the quarter's first day. */
  from: Date;
  /** Exclusive: 00:00:00.000Z of the next quarter's first day. */
  to: Date;
}

/**
 * The four UTC calendar quarters of `year` as half-open ranges [from, to): a row dated
 * Mar 31 23:59:59.999Z is in Q1, one dated Apr 1 00:00:00.000Z in Q2. Together they cover the
 * year exactly once (no gap, no overlap), so each row falls in one quarter.
 */
export function quarterRanges(year: number): QuarterRange[] {
  return QUARTERS.map((quarter) => ({
    quarter,
    from: new Date(Date.UTC(year, (quarter - 1) * 3, 1)),
    to: new Date(Date.UTC(year, quarter * 3, 1)),
  }));
}

/** The quarter (1–4) a UTC instant falls in. */
export function quarterOf(date: Date): Quarter {
  return (Math.floor(date.getUTCMonth() / 3) + 1) as Quarter;
}

/** What the store summed over one vendor's rows of one type in one quarter (sums of stored figures). */
export interface StoredSums {
  salesAfterDiscount: number;
  commission: number;
  taxOnCommissions: number;
  tcs: number;
  totalGlobalDeductions: number;
  deduction: number;
}

/** A vendor's quarter in integer cents: its sale rows, its refund rows, and its distinct orders. */
export interface QuarterCents {
  /** Σ salesAfterDiscount of payable sale rows. */
  sales: number;
  /** Σ salesAfterDiscount of refund rows (≤ 0). */
  refunds: number;
  /** Σ commission + taxOnCommissions of sale and refund rows. */
  commissions: number;
  /** Σ totalGlobalDeductions + deduction of sale and refund rows. */
  fees: number;
  /** Σ tcs of sale and refund rows. */
  taxes: number;
  /** Distinct orders with a payable sale row. */
  numberOfOrders: number;
}

export const NO_CENTS: QuarterCents = {
  sales: 0,
  refunds: 0,
  commissions: 0,
  fees: 0,
  taxes: 0,
  numberOfOrders: 0,
};

/**
 * A sum of stored figures as integer cents, half-up. Stored figures are whole cents; the store adds
 * them as doubles, whose error over n rows stays below n × ulp(sum) — under half a cent for any
 * quarter under 10^8 with up to 10^5 rows (MongoDB's `$sum` is also compensated) — so rounding to
 * the cent recovers the exact integer sum. From here on every figure is integer arithmetic.
 */
function cents(sum: number | null | undefined): number {
  return sum ? toCents(sum) : 0;
}

/**
 * One vendor's quarter from the store's sums (DESIGN §14; docs-notes/tax-report.md):
 * - sales: Σ salesAfterDiscount of the payable sale rows dated in the quarter (by order creation);
 * - refunds: Σ salesAfterDiscount of the refund rows dated in the quarter (by the refund's date);
 * - commissions: commission + taxOnCommissions, sale rows minus what refunds gave back;
 * - fees: totalGlobalDeductions + the line's deduction, likewise; taxes: tcs, likewise;
 * - numberOfOrders: distinct orders with a payable sale row (refunds never lower it).
 */
export function quarterCents(
  sale: (StoredSums & { orders: number }) | null | undefined,
  refund: StoredSums | null | undefined,
): QuarterCents {
  const both = (f: (s: StoredSums) => number) => cents(sale ? f(sale) : 0) + cents(refund ? f(refund) : 0);
  return {
    sales: cents(sale?.salesAfterDiscount),
    refunds: cents(refund?.salesAfterDiscount),
    commissions: both((s) => s.commission) + both((s) => s.taxOnCommissions),
    fees: both((s) => s.totalGlobalDeductions) + both((s) => s.deduction),
    taxes: both((s) => s.tcs),
    numberOfOrders: sale?.orders ?? 0,
  };
}

/** The year's totals: each figure the integer sum of the quarters (an order's rows share one date). */
export function totalCents(quarters: QuarterCents[]): QuarterCents {
  return quarters.reduce(
    (t, q) => ({
      sales: t.sales + q.sales,
      refunds: t.refunds + q.refunds,
      commissions: t.commissions + q.commissions,
      fees: t.fees + q.fees,
      taxes: t.taxes + q.taxes,
      numberOfOrders: t.numberOfOrders + q.numberOfOrders,
    }),
    NO_CENTS,
  );
}

/** The figures as the report shows them (amounts with 2 decimals). */
export interface SellerTaxFigures {
  consideration: number;
  numberOfOrders: number;
  sales: number;
  refunds: number;
  commissions: number;
  fees: number;
  taxes: number;
  netConsideration: number;
}

/**
 * consideration = sales + refunds (refunds are negative); netConsideration = consideration −
 * commissions − fees − taxes (DAC7's "net of any fees, commissions or taxes withheld or charged").
 */
export function toFigures(q: QuarterCents): SellerTaxFigures {
  const consideration = q.sales + q.refunds;
  return {
    consideration: fromCents(consideration),
    numberOfOrders: q.numberOfOrders,
    sales: fromCents(q.sales),
    refunds: fromCents(q.refunds),
    commissions: fromCents(q.commissions),
    fees: fromCents(q.fees),
    taxes: fromCents(q.taxes),
    netConsideration: fromCents(consideration - q.commissions - q.fees - q.taxes),
  };
}
