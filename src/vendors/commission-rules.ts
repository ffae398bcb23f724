import { decimalPlaces, MAX_MONEY } from '../common/http/validators';
import type { CommissionType } from './vendor.schema';

/** A percentage commission is a share of the sale: 0 to 100. A flat one is an amount per item. */
export const MAX_PERCENTAGE = 100;
/** Upper bound for a flat amount per item, to refuse obvious typos (and values that lose precision). */
export const MAX_FLAT_AMOUNT = MAX_MONEY;

/**
 * Why a commission type + amount pair is not acceptable, or null when it is. Shared by vendors and
 * SKU records so that both refuse the same values.
 */
export function commissionProblem(type: CommissionType, amount: number, amountField: string): string | null {
  if (typeof amount !== 'number' || !Number.isFinite(amount)) return `${amountField} must be a number`;
  if (amount < 0) return `${amountField} must not be less than 0`;
  if (type === 'percentage' && amount > MAX_PERCENTAGE)
    return `${amountField} must not be greater than ${MAX_PERCENTAGE} for a percentage commission`;
  if (amount > MAX_FLAT_AMOUNT) return `${amountField} must not be greater than ${MAX_FLAT_AMOUNT}`;
  if (decimalPlaces(amount) > 2) return `${amountField} must have at most 2 decimal places`;
  return null;
}
