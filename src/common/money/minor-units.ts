import Decimal from 'decimal.js';
import { Amount, money } from './decimal';

/**
 * Currencies with no minor unit at the payment providers (Stripe's "zero-decimal" list; PayPal
 * agrees for the ones it supports): their amounts go out as whole units.
 */
const ZERO_DECIMAL = new Set([
  'BIF',
  'CLP',
  'DJF',
  'GNF',
  'JPY',
  'KMF',
  'KRW',
  'MGA',
  'PYG',
  'RWF',
  'UGX',
  'VND',
  'VUV',
  'XAF',
  'XOF',
  'XPF',
]);

export function currencyDecimals(currency: string): 0 | 2 {
  return ZERO_DECIMAL.has(currency.toUpperCase()) ? 0 : 2;
}

/** An amount as an integer of the currency's smallest unit (Stripe `amount`), half-up. */
export function toMinorUnits(amount: Amount, currency: string): number {
  const d = currencyDecimals(currency);
  return money(amount)
    .times(d === 0 ? 1 : 100)
    .toDecimalPlaces(0, Decimal.ROUND_HALF_UP)
    .toNumber();
}

/** An amount as the decimal string providers take (PayPal `amount.value`: "10.00", or "1000" for JPY). */
export function toDecimalString(amount: Amount, currency: string): string {
  return money(amount).toFixed(currencyDecimals(currency), Decimal.ROUND_HALF_UP);
}

/** An integer of the currency's smallest unit (a provider's amount) as a decimal amount, 2 dp. */
export function fromMinorUnits(minor: number, currency: string): number {
  const d = currencyDecimals(currency);
  return money(minor)
    .dividedBy(d === 0 ? 1 : 100)
    .toDecimalPlaces(2, Decimal.ROUND_HALF_UP)
    .toNumber();
}
