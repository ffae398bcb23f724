import { money, round2 } from '../common/money';
import type { AdjustmentType } from './payout-adjustment.schema';

/** `amount` carrying the sign of the adjustment type: DEDUCTION reads negative, ADDITION positive. */
export function signedAmount(type: AdjustmentType, amount: number): number {
  const abs = money(amount).abs();
  return round2(type === 'DEDUCTION' ? abs.negated() : abs);
}
