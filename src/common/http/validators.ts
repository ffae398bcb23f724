import { registerDecorator, ValidateIf, ValidationOptions } from 'class-validator';

/** Optional, but when the key is present its value must pass the other rules (null included). */
export const IfPresent = (): PropertyDecorator => ValidateIf((_o, v) => v !== undefined);

/** Decimal places of a finite number, exact for exponent notation too (class-validator's check throws on `5e-324`). */
export function decimalPlaces(value: number): number {
  if (!Number.isFinite(value) || Number.isInteger(value)) return 0;
  const [mantissa, exponent] = value.toExponential().split('e');
  const fraction = (mantissa.split('.')[1] ?? '').length;
  return Math.max(0, fraction - Number(exponent));
}

export interface AmountOptions {
  /** Most decimal places accepted (2 for money, more for rates). */
  maxDecimals: number;
  min?: number;
  /** Exclusive lower bound instead of `min`. */
  greaterThan?: number;
  max?: number;
}

/** True when `value` is a finite JSON number within the bounds and with at most `maxDecimals` decimals. */
export function isAmount(value: unknown, o: AmountOptions): boolean {
  if (typeof value !== 'number' || !Number.isFinite(value)) return false;
  if (o.min !== undefined && value < o.min) return false;
  if (o.greaterThan !== undefined && value <= o.greaterThan) return false;
  if (o.max !== undefined && value > o.max) return false;
  return decimalPlaces(value) <= o.maxDecimals;
}

function describe(o: AmountOptions): string {
  const bounds = [
    o.min !== undefined ? `>= ${o.min}` : null,
    o.greaterThan !== undefined ? `> ${o.greaterThan}` : null,
    o.max !== undefined ? `<= ${o.max}` : null,
  ].filter(Boolean);
  return `a number${bounds.length ? ` ${bounds.join(' and ')}` : ''} with at most ${o.maxDecimals} decimal places`;
}

/** Money and rates in request bodies: finite, bounded, limited decimals; never a 500 on odd input. */
export function IsAmount(o: AmountOptions, validationOptions?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isAmount',
      target: target.constructor,
      propertyName: String(propertyName),
      options: { message: `$property must be ${describe(o)}`, ...validationOptions },
      validator: { validate: (value: unknown) => isAmount(value, o) },
    });
}

/** The largest magnitude any writable money field takes (issue 18: `1e300` is not an amount). */
export const MAX_MONEY = 1_000_000_000;

/** A writable money field: finite, |x| ≤ 1,000,000,000 (narrowed by `min`/`greaterThan`), at most 2 decimals. */
export const MONEY: AmountOptions = { maxDecimals: 2, min: -MAX_MONEY, max: MAX_MONEY };

export function isMoney(value: unknown, bounds: Omit<AmountOptions, 'maxDecimals'> = {}): boolean {
  return isAmount(value, { ...MONEY, ...bounds });
}

/**
 * Every writable money field of every DTO (v1 and V2): line item figures, adjustments, commission
 * amounts, costs of goods. Out of range or with more than 2 decimals → 422 with the bounds named.
 * `bounds` narrows the range (e.g. `{ min: 0 }`); it never widens it past ±1,000,000,000.
 */
export function IsMoney(
  bounds: Pick<AmountOptions, 'min' | 'greaterThan'> = {},
  validationOptions?: ValidationOptions,
): PropertyDecorator {
  return IsAmount({ ...MONEY, ...bounds }, validationOptions);
}
