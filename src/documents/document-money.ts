import Decimal from 'decimal.js';
import { money, type Amount } from '../common/money';

/**
 * A document's figures in integer cents (DESIGN §14: every total is the sum of its lines, exactly).
 * Stored figures are 2-dp amounts: each becomes its whole cents (half-up, so a stray sub-cent never
 * leaks), and sums stay integers; the snapshot prints them back as strings with two places.
 */
export function toCents(value: Amount | null | undefined): bigint {
  return BigInt(money(value).times(100).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toFixed(0));
}

/** 1234n → "12.34", -5n → "-0.05", 0n → "0.00". */
export function centsText(cents: bigint): string {
  const sign = cents < 0n ? '-' : '';
  const abs = cents < 0n ? -cents : cents;
  return `${sign}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
}

export const sumCents = (values: Iterable<bigint>): bigint => {
  let total = 0n;
  for (const v of values) total += v;
  return total;
};
