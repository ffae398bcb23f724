/** The stored figures of a line item the seller tax report sums (DESIGN §14): each on the cent grid. */
export const SELLER_TAX_FIGURES = [
  'salesAfterDiscount',
  'commission',
  'taxOnCommissions',
  'tcs',
  'totalGlobalDeductions',
  'deduction',
] as const;
