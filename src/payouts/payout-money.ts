import Decimal from 'decimal.js';

/**
 * The decimal arithmetic the payout side needs (sums of already-rounded figures, signs). Amounts
 * are stored as numbers rounded half-up to 2 dp (DESIGN §6); nothing here uses floating-point `+`.
 */
const D = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });

/** Half-up to 2 dp. */
export function roundMoney(value: number): number {
  return new D(value).toDecimalPlaces(2, D.ROUND_HALF_UP).toNumber();
}

/** Σ values, exact, then rounded half-up to 2 dp. */
export function sumMoney(values: Iterable<number>): number {
  let acc = new D(0);
  for (const v of values) acc = acc.plus(v);
  return acc.toDecimalPlaces(2, D.ROUND_HALF_UP).toNumber();
}

export function addMoney(a: number, b: number): number {
  return sumMoney([a, b]);
}

/** `amount` carrying the sign of the adjustment type: DEDUCTION reads negative, ADDITION positive. */
export function signedAmount(type: 'ADDITION' | 'DEDUCTION', amount: number): number {
  const abs = new D(amount).abs().toDecimalPlaces(2, D.ROUND_HALF_UP);
  return (type === 'DEDUCTION' ? abs.negated() : abs).toNumber() || 0;
}
