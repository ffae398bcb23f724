import { commissionOf, commissionPlanLabel, CommissionRate } from './commission-ladder';
export type { CommissionRate } from './commission-ladder';
import { Amount, money, Money, round2 } from './decimal';

/**
 * The money calculation of DESIGN §6: the only code that turns a line item's inputs into its
 * figures. Pure; every named figure is rounded half-up to 2 dp before it feeds the next one.
 */

export type CommissionKind = 'percentage' | 'flat';
export type PayoutStatus = 'unpaid' | 'partial' | 'paid';

/** The rule a line's commission came from (DESIGN §13); null on a line priced by its SKU record or vendor. */
export interface CommissionRuleRef {
  level: 'product' | 'productType';
  id: string;
}

/** The shop settings that feed the calculation (all default to 0 / false). */
export interface MoneySettings {
  taxOnCommissionRate: number;
  tcsRate: number;
  globalDeductionRate: number;
  payShippingToVendor: boolean;
  payTaxToVendor: boolean;
}

export const DEFAULT_MONEY_SETTINGS: MoneySettings = {
  taxOnCommissionRate: 0,
  tcsRate: 0,
  globalDeductionRate: 0,
  payShippingToVendor: false,
  payTaxToVendor: false,
};

/** Settings as stored on a shop (fields may be missing on older documents) with the defaults filled in. */
export function moneySettingsFrom(stored: Partial<MoneySettings> | null | undefined): MoneySettings {
  const s = stored ?? {};
  return {
    taxOnCommissionRate: s.taxOnCommissionRate ?? DEFAULT_MONEY_SETTINGS.taxOnCommissionRate,
    tcsRate: s.tcsRate ?? DEFAULT_MONEY_SETTINGS.tcsRate,
    globalDeductionRate: s.globalDeductionRate ?? DEFAULT_MONEY_SETTINGS.globalDeductionRate,
    payShippingToVendor: s.payShippingToVendor ?? DEFAULT_MONEY_SETTINGS.payShippingToVendor,
    payTaxToVendor: s.payTaxToVendor ?? DEFAULT_MONEY_SETTINGS.payTaxToVendor,
  };
}

/** A commission as stored on a vendor or a SKU record (a SKU record may hold none). */
export interface CommissionTerms {
  commissionType: CommissionKind | null;
  commissionAmount: number | null;
}

/** Inputs taken from the order (money fields may be strings, as the store platform sends them). */
export interface LineItemInputs {
  price: Amount;
  quantity: number;
  /** The line's discount allocations. */
  discounts?: Amount[];
  /** The line's tax lines. */
  taxes?: Amount[];
  /** The line's share of the order's shipping (see `splitShipping`). */
  shipping?: Amount;
  /** Vendor deduction; only ever written by hand, so it is carried over. */
  deduction?: Amount;
  /** The ladder's applied source (commission-ladder.ts); null when the line has no vendor. */
  rate: CommissionRate | null;
  /** Per-unit cost of goods from the SKU record, if it has one. */
  costOfGoods: Amount | null;
}

export interface LineItemFigures {
  sales: number;
  discount: number;
  salesAfterDiscount: number;
  tax: number;
  shipping: number;
  commission: number;
  commissionPlan: string | null;
  commissionRule: CommissionRuleRef | null;
  costOfItem: number;
  taxOnCommissions: number;
  tcs: number;
  totalGlobalDeductions: number;
  deduction: number;
  payout: number;
}

/** The figures a recalculation keeps as stored (they may have been written by hand). */
export type StoredBaseFigures = Pick<
  LineItemFigures,
  'sales' | 'discount' | 'salesAfterDiscount' | 'tax' | 'shipping' | 'deduction' | 'costOfItem'
> & { quantity: number };

/**
 * The SKU record's commission if it has one, else the vendor's; a line without a vendor has none.
 * The two ends of the ladder (commission-ladder.ts `applyLadder` adds the rules between them).
 */
export function resolveCommissionRate(
  vendor: CommissionTerms | null,
  sku: CommissionTerms | null,
): CommissionRate | null {
  if (!vendor) return null;
  if (sku && sku.commissionType && sku.commissionAmount !== null && sku.commissionAmount !== undefined) {
    return { source: 'sku', type: sku.commissionType, amount: sku.commissionAmount };
  }
  if (vendor.commissionType && vendor.commissionAmount !== null && vendor.commissionAmount !== undefined) {
    return { source: 'vendor', type: vendor.commissionType, amount: vendor.commissionAmount };
  }
  return null;
}

/** Every figure of a line item from the order's inputs (ingestion). */
export function calculateLineItem(inputs: LineItemInputs, settings: MoneySettings): LineItemFigures {
  const sales = round2(money(inputs.price).times(inputs.quantity));
  const discount = round2(sumOf(inputs.discounts));
  const salesAfterDiscount = round2(money(sales).minus(discount));
  const costOfItem =
    inputs.costOfGoods === null ? 0 : round2(money(inputs.costOfGoods).times(inputs.quantity));
  return derive(
    {
      sales,
      discount,
      salesAfterDiscount,
      tax: round2(sumOf(inputs.taxes)),
      shipping: round2(money(inputs.shipping)),
      deduction: round2(money(inputs.deduction)),
      costOfItem,
      quantity: inputs.quantity,
    },
    inputs.rate,
    settings,
  );
}

/**
 * Recalculation: keeps sales, discount, salesAfterDiscount, tax, shipping and deduction as stored;
 * recomputes commission, plan, taxOnCommissions, tcs, totalGlobalDeductions and payout with the
 * current rate and settings; costOfItem only when the SKU record has a cost of goods.
 */
export function recalculateLineItem(
  stored: StoredBaseFigures,
  rate: CommissionRate | null,
  costOfGoods: Amount | null,
  settings: MoneySettings,
): LineItemFigures {
  const costOfItem =
    costOfGoods === null ? round2(stored.costOfItem) : round2(money(costOfGoods).times(stored.quantity));
  return derive({ ...stored, costOfItem }, rate, settings);
}

function derive(
  base: StoredBaseFigures,
  rate: CommissionRate | null,
  settings: MoneySettings,
): LineItemFigures {
  const sad = money(base.salesAfterDiscount);
  const commission = commissionOf(rate, base.salesAfterDiscount, base.quantity);
  const taxOnCommissions = round2(money(commission).times(settings.taxOnCommissionRate).dividedBy(100));
  const tcs = round2(sad.times(settings.tcsRate).dividedBy(100));
  const totalGlobalDeductions = round2(sad.times(settings.globalDeductionRate).dividedBy(100));
  let payout = sad;
  if (settings.payShippingToVendor) payout = payout.plus(base.shipping);
  if (settings.payTaxToVendor) payout = payout.plus(base.tax);
  payout = payout
    .minus(commission)
    .minus(taxOnCommissions)
    .minus(tcs)
    .minus(totalGlobalDeductions)
    .minus(base.deduction);
  return {
    sales: round2(base.sales),
    discount: round2(base.discount),
    salesAfterDiscount: round2(sad),
    tax: round2(base.tax),
    shipping: round2(base.shipping),
    commission,
    commissionPlan: commissionPlanLabel(rate),
    commissionRule:
      rate?.ruleId && (rate.source === 'product' || rate.source === 'productType')
        ? { level: rate.source, id: rate.ruleId }
        : null,
    costOfItem: round2(base.costOfItem),
    taxOnCommissions,
    tcs,
    totalGlobalDeductions,
    deduction: round2(base.deduction),
    payout: round2(payout),
  };
}

/**
 * The order's shipping split across its lines in proportion to their sales, in cents: each line but
 * the last gets its share rounded half-up (never more than what is left), the last line gets the
 * remainder, so the shares always add up to the total. Lines without sales split it evenly.
 */
export function splitShipping(total: Amount, sales: Amount[]): number[] {
  if (sales.length === 0) return [];
  const totalCents = money(total).times(100).toDecimalPlaces(0, Money.ROUND_HALF_UP);
  const weights = sales.map((s) => Money.max(money(s), 0));
  let weightSum = weights.reduce((a, w) => a.plus(w), new Money(0));
  const even = weightSum.isZero();
  if (even) weightSum = new Money(weights.length);
  const shares: number[] = [];
  let left = totalCents;
  weights.forEach((w, i) => {
    if (i === weights.length - 1) {
      shares.push(round2(left.dividedBy(100)));
      return;
    }
    const exact = totalCents.times(even ? 1 : w).dividedBy(weightSum);
    let cents = exact.toDecimalPlaces(0, Money.ROUND_HALF_UP);
    if (totalCents.isPositive() ? cents.greaterThan(left) : cents.lessThan(left)) cents = left;
    left = left.minus(cents);
    shares.push(round2(cents.dividedBy(100)));
  });
  return shares;
}

/**
 * balance = payout − paid; nothing paid → unpaid, balance settled (none left to pay, whichever the
 * sign of the payout: a refund row's is negative) → paid, otherwise partial.
 */
export function payoutState(payout: Amount, paid: Amount): { balance: number; payoutStatus: PayoutStatus } {
  const balance = round2(money(payout).minus(money(paid)));
  const paidAmount = money(paid);
  const owedBack = money(payout).isNegative();
  let payoutStatus: PayoutStatus = 'partial';
  if (paidAmount.isZero() || (!owedBack && paidAmount.isNegative())) payoutStatus = 'unpaid';
  else if (owedBack ? balance >= 0 : balance <= 0) payoutStatus = 'paid';
  return { balance, payoutStatus };
}

/** Per-unit cost of goods from a line's cost of items (half-up, 2 dp); null when the quantity is 0. */
export function costOfGoodsPerUnit(costOfItem: Amount, quantity: number): number | null {
  if (!quantity) return null;
  return round2(money(costOfItem).dividedBy(quantity));
}

/** Profit = salesAfterDiscount − costOfItem. */
export function profitOf(salesAfterDiscount: Amount, costOfItem: Amount): number {
  return round2(money(salesAfterDiscount).minus(money(costOfItem)));
}

function sumOf(values: Amount[] | undefined): Money {
  return (values ?? []).reduce<Money>((a, v) => a.plus(money(v)), new Money(0));
}
