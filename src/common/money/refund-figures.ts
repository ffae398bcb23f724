import { Amount, money, round2 } from './decimal';

/**
 * A refund row's figures (DESIGN §6): for k of the line's n ordered units, every named figure is
 * −half-up(line figure × k / n); the refund that brings the line's refunded units to n takes the
 * remainder instead (−(line figure + Σ earlier refund rows' figure)), so a fully refunded line nets
 * to exactly 0.00 on every figure. Pure: the caller passes the sale line and what earlier refund
 * rows of the same line already took.
 */

/** The figures a refund row carries (the sale line's named figures, negated pro rata). */
export const REFUND_FIGURES = [
  'sales',
  'discount',
  'salesAfterDiscount',
  'tax',
  'shipping',
  'commission',
  'costOfItem',
  'taxOnCommissions',
  'tcs',
  'totalGlobalDeductions',
  'deduction',
  'payout',
] as const;
export type RefundFigureName = (typeof REFUND_FIGURES)[number];
export type RefundFigures = Record<RefundFigureName, number>;

export interface RefundedSoFar {
  /** Units of the line earlier refund rows took. */
  units: number;
  /** Σ of each figure over those rows (negative or zero). */
  figures: Partial<Record<RefundFigureName, Amount>>;
}

export const NOTHING_REFUNDED: RefundedSoFar = { units: 0, figures: {} };

/**
 * The figures of a refund row taking `k` units of a line of `ordered` units. Units beyond what is
 * left are capped (a refund never takes more than the line had); nothing left → all zero.
 */
export function refundRowFigures(
  line: Record<RefundFigureName, Amount>,
  ordered: number,
  k: number,
  before: RefundedSoFar = NOTHING_REFUNDED,
): { figures: RefundFigures; units: number; remainder: boolean } {
  const left = Math.max(0, ordered - before.units);
  const units = Math.max(0, Math.min(k, left));
  const remainder = units > 0 && units === left;
  const figures = {} as RefundFigures;
  for (const name of REFUND_FIGURES) {
    const whole = money(line[name]);
    if (units === 0 || ordered <= 0) figures[name] = 0;
    else if (remainder) figures[name] = round2(whole.plus(money(before.figures[name])).negated());
    else figures[name] = round2(money(round2(whole.times(units).dividedBy(ordered))).negated());
  }
  return { figures, units, remainder };
}

/** Σ of earlier refund rows of a line, as `refundRowFigures` takes it. */
export function refundedSoFar(
  rows: Array<Partial<Record<RefundFigureName, Amount>> & { refundedQuantity?: number | null }>,
): RefundedSoFar {
  const figures: Partial<Record<RefundFigureName, Amount>> = {};
  let units = 0;
  for (const r of rows) {
    units += r.refundedQuantity ?? 0;
    for (const name of REFUND_FIGURES) figures[name] = money(figures[name]).plus(money(r[name]));
  }
  for (const name of REFUND_FIGURES) figures[name] = round2(figures[name] ?? 0);
  return { units, figures };
}
