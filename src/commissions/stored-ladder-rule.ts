import type { CommissionRule } from './commission-rule.schema';

/** What the ladder reads of a rule. */
export const LADDER_FIELDS = {
  level: 1,
  productId: 1,
  productTypeKey: 1,
  vendorId: 1,
  commissionType: 1,
  commissionAmount: 1,
  flatAmount: 1,
  minimum: 1,
  maximum: 1,
  validFrom: 1,
  validTo: 1,
} as const;

/** A rule as the pricing read returns it. */
export type StoredLadderRule = Pick<CommissionRule, '_id' | keyof typeof LADDER_FIELDS>;
