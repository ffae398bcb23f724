import Decimal from 'decimal.js';

/** Decimal arithmetic for money: generous precision, half-up (away from zero) rounding. */
export const Money = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });
export type Money = Decimal;

/** What amounts arrive as: numbers from our own documents, strings from the store platform. */
export type Amount = number | string | Decimal;

/** An amount as a Decimal; missing, empty or non-numeric input counts as 0. */
export function money(value: Amount | null | undefined): Decimal {
  if (value === null || value === undefined || value === '') return new Money(0);
  try {
    const d = new Money(value);
    return d.isFinite() ? d : new Money(0);
  } catch {
    return new Money(0);
  }
}

/** Half-up (0.005 → 0.01, −0.005 → −0.01) to 2 dp, as the stored number. */
export function round2(value: Amount): number {
  const n = money(value).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toNumber();
  return n === 0 ? 0 : n; // no −0 in documents or JSON
}

/**
 * Exact sum of amounts, rounded half-up to 2 dp. Stored figures are whole cents, so a sum of
 * numbers on the cent grid is added as integer cents (exact while it stays a safe integer; a
 * statement sums 12 figures over thousands of rows, and a Decimal per addition dominated it);
 * anything else — strings, Decimals, sub-cent values — goes through Decimal.
 */
export function sumAmounts(values: Iterable<Amount | null | undefined>): number {
  const list = Array.isArray(values) ? (values as Array<Amount | null | undefined>) : [...values];
  let cents = 0;
  for (const v of list) {
    if (v === null || v === undefined) continue;
    const c = typeof v === 'number' ? wholeCents(v) : null;
    if (c === null || !Number.isSafeInteger(cents + c)) return sumDecimal(list);
    cents += c;
  }
  const n = cents / 100; // exact cents → the nearest double, as round2 would store it
  return n === 0 ? 0 : n;
}

function sumDecimal(values: Array<Amount | null | undefined>): number {
  let total = new Money(0);
  for (const v of values) total = total.plus(money(v));
  return round2(total);
}

/** The integer cents of a number on the 2-dp grid (up to a double's representation error), else null. */
function wholeCents(v: number): number | null {
  if (!Number.isFinite(v)) return null;
  const scaled = v * 100;
  const c = Math.round(scaled);
  return Math.abs(scaled - c) < 1e-6 && Number.isSafeInteger(c) ? c : null;
}

/** a − b on amounts, rounded half-up to 2 dp. */
export function subtractAmounts(a: Amount, b: Amount): number {
  return round2(money(a).minus(money(b)));
}

/** a × b, rounded half-up to 2 dp (e.g. a unit price times a quantity). */
export function multiplyAmount(a: Amount, b: Amount): number {
  return round2(money(a).times(money(b)));
}

/** An amount as integer cents (half-up): what running totals `$inc` by, so they never drift. */
export function toCents(value: Amount): number {
  return money(value).times(100).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toNumber();
}

/** Integer cents back to an amount. */
export function fromCents(cents: number): number {
  return round2(money(cents).dividedBy(100));
}

/**
 * An amount as exports write it: a plain number with two decimals, half-up (`-45.00`, `1234.50`),
 * never exponent notation or a thousands separator, so spreadsheets and accounting imports read it.
 * Stored figures are already whole cents (every figure is written half-up to 2 dp), so the common
 * case is formatted from its integer cents (an export formats ~20 figures per row, and a Decimal
 * per figure cost 3 µs — most of an export's CPU); anything else goes through Decimal.
 */
export function formatAmount(value: Amount | null | undefined): string {
  const c = typeof value === 'number' ? wholeCents(value) : null;
  if (c !== null) return formatCents(c);
  const d = money(value).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
  return d.isZero() ? '0.00' : d.toFixed(2); // never "-0.00"
}

function formatCents(c: number): string {
  if (c === 0) return '0.00';
  const a = Math.abs(c);
  const frac = a % 100;
  return `${c < 0 ? '-' : ''}${(a - frac) / 100}.${frac < 10 ? '0' : ''}${frac}`;
}
