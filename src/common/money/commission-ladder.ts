import { money, round2 } from './decimal';

/**
 * The commission ladder of DESIGN §13, pure: which source a sale line's commission comes from —
 * SKU record (only when it holds a commission) > product rule > product-type rule > vendor — and
 * why every other candidate did not apply. A rule limited to the line's vendor beats the shop-wide
 * rule of the same level and target; a rule applies when validFrom ≤ the order's created_at <
 * validTo (null: unbounded). The commission of the applied source is `commissionOf`.
 */

export type LadderLevel = 'sku' | 'product' | 'productType' | 'vendor';
export type LadderCommissionType = 'percentage' | 'flat' | 'percentage_plus_flat';
export const LADDER_LEVELS: readonly LadderLevel[] = ['sku', 'product', 'productType', 'vendor'];

/** A commission rule as the ladder reads it (mirrors commissions/commission-rule.schema.ts). */
export interface LadderRule {
  id: string;
  level: 'product' | 'productType';
  productId: string | null;
  /** `productType` trimmed and lowercased (productTypeKey). */
  productTypeKey: string | null;
  /** Null: every vendor of the shop. */
  vendorId: string | null;
  commissionType: LadderCommissionType;
  commissionAmount: number;
  flatAmount: number | null;
  minimum: number | null;
  maximum: number | null;
  validFrom: Date | null;
  validTo: Date | null;
}

/** A commission as stored on a vendor or a SKU record (either field null: none). */
export interface LadderTerms {
  commissionType: 'percentage' | 'flat' | null;
  commissionAmount: number | null;
}

/** The line as the ladder sees it. */
export interface LadderLine {
  /** The line's vendor; null: none yet (no commission at all). */
  vendorId: string | null;
  vendor: LadderTerms | null;
  /** The SKU record of the line's SKU; null: none. */
  sku: LadderTerms | null;
  productId: string | null;
  /** The stored product's type; null: the product is not stored (or has no type). */
  productType: string | null;
  orderCreatedAt: Date;
}

/** The source a line's commission comes from (14 means 14 %, or 14.00 per item for `flat`). */
export interface CommissionRate {
  source: LadderLevel;
  type: LadderCommissionType;
  amount: number;
  /** `percentage_plus_flat`: the amount per item added. */
  flatAmount?: number | null;
  minimum?: number | null;
  maximum?: number | null;
  /** The rule's id (product / productType levels); null otherwise. */
  ruleId?: string | null;
}

export type LadderReason =
  | 'matched'
  | 'no_vendor'
  | 'no_record'
  | 'cost_of_goods_only'
  | 'no_product'
  | 'no_rule'
  | 'not_in_force'
  | 'beaten_by_vendor_rule'
  | 'more_specific_applied'
  | 'no_rate';

/** One candidate of one level, and whether it applied or why not. */
export interface LadderCandidate {
  level: LadderLevel;
  matched: boolean;
  reason: LadderReason;
  /** The reason in words, e.g. "rule not in force at the order date (starts 2026-12-01T00:00:00.000Z)". */
  detail: string;
  ruleId: string | null;
  /** Rules: limited to the line's vendor, or shop-wide; null for the SKU record and the vendor. */
  ruleScope: 'vendor' | 'shop' | null;
  /** The candidate's terms; null when there are none (no record, no rule). */
  terms: CommissionRate | null;
}

export interface LadderResult {
  applied: CommissionRate | null;
  candidates: LadderCandidate[];
}

const DETAIL: Record<LadderReason, string> = {
  matched: 'applied',
  no_vendor: 'the line has no vendor yet: no commission',
  no_record: 'no SKU record for the line’s SKU',
  cost_of_goods_only: 'the SKU record holds only a cost of goods, no commission',
  no_product: 'the line’s product is not stored (or has no product type)',
  no_rule: 'no rule for this target',
  not_in_force: 'rule not in force at the order date',
  beaten_by_vendor_rule: 'a shop-wide rule, beaten by the rule limited to the line’s vendor',
  more_specific_applied: 'a more specific level applied',
  no_rate: 'the vendor has no commission set',
};

/** The ladder: the applied source (null: no vendor, or no source has a rate) and every candidate. */
export function applyLadder(line: LadderLine, rules: LadderRule[]): LadderResult {
  if (!line.vendorId || !line.vendor) {
    return {
      applied: null,
      candidates: LADDER_LEVELS.map((level) => none(level, 'no_vendor')),
    };
  }
  const typeKey = productTypeKeyOf(line.productType);
  const levels: LadderCandidate[][] = [
    [skuCandidate(line.sku)],
    ruleCandidates(
      'product',
      line,
      rules.filter((r) => r.level === 'product' && !!line.productId && r.productId === line.productId),
      line.productId ? 'no_rule' : 'no_product',
    ),
    ruleCandidates(
      'productType',
      line,
      rules.filter((r) => r.level === 'productType' && !!typeKey && r.productTypeKey === typeKey),
      typeKey ? 'no_rule' : 'no_product',
    ),
    [vendorCandidate(line.vendor)],
  ];
  let applied: CommissionRate | null = null;
  for (const level of levels) {
    for (const c of level) {
      if (!c.matched) continue;
      if (applied) {
        c.matched = false;
        c.reason = 'more_specific_applied';
        c.detail = `${DETAIL.more_specific_applied} (${applied.source})`;
      } else applied = c.terms;
    }
  }
  return { applied, candidates: levels.flat() };
}

/** How product types are matched: trimmed and lowercased; empty: none. */
export function productTypeKeyOf(type: string | null | undefined): string | null {
  const key = (type ?? '').trim().toLowerCase();
  return key === '' ? null : key;
}

/** A rule's commission terms as a rate of the ladder. */
export function rateOfRule(rule: LadderRule): CommissionRate {
  return {
    source: rule.level,
    type: rule.commissionType,
    amount: rule.commissionAmount,
    flatAmount: rule.commissionType === 'percentage_plus_flat' ? (rule.flatAmount ?? 0) : null,
    minimum: rule.minimum ?? null,
    maximum: rule.maximum ?? null,
    ruleId: rule.id,
  };
}

/** Whether the rule applies to an order created at `at`: validFrom ≤ at < validTo. */
export function inForce(rule: Pick<LadderRule, 'validFrom' | 'validTo'>, at: Date): boolean {
  const t = at.getTime();
  if (rule.validFrom && t < rule.validFrom.getTime()) return false;
  if (rule.validTo && t >= rule.validTo.getTime()) return false;
  return true;
}

/**
 * The commission of a line from its applied source: percentage = salesAfterDiscount × rate / 100;
 * flat = amount × quantity; percentage_plus_flat = salesAfterDiscount × rate / 100 + flatAmount ×
 * quantity; then clamped to [minimum, maximum] (each optional; maximum last). Half-up to 2 dp once,
 * at the commission.
 */
export function commissionOf(
  rate: CommissionRate | null,
  salesAfterDiscount: number | string,
  quantity: number,
): number {
  if (!rate) return 0;
  const sad = money(salesAfterDiscount);
  let raw = money(0);
  if (rate.type === 'percentage' || rate.type === 'percentage_plus_flat')
    raw = sad.times(rate.amount).dividedBy(100);
  if (rate.type === 'flat') raw = money(rate.amount).times(quantity);
  if (rate.type === 'percentage_plus_flat') raw = raw.plus(money(rate.flatAmount ?? 0).times(quantity));
  let commission = round2(raw);
  if (rate.minimum !== null && rate.minimum !== undefined && commission < round2(rate.minimum))
    commission = round2(rate.minimum);
  if (rate.maximum !== null && rate.maximum !== undefined && commission > round2(rate.maximum))
    commission = round2(rate.maximum);
  return commission;
}

/**
 * The line's `commissionPlan`: `level:type:amount`, e.g. `sku:percentage:14`, `vendor:flat:5`;
 * plus-flat adds the per-item amount to 2 dp (`productType:percentage_plus_flat:5+0.30`); a clamp
 * adds `:min=1.00` and / or `:max=50.00`.
 */
export function commissionPlanLabel(rate: CommissionRate | null): string | null {
  if (!rate) return null;
  let label = `${rate.source}:${rate.type}:${money(rate.amount).toString()}`;
  if (rate.type === 'percentage_plus_flat') label += `+${money(rate.flatAmount ?? 0).toFixed(2)}`;
  if (rate.minimum !== null && rate.minimum !== undefined) label += `:min=${money(rate.minimum).toFixed(2)}`;
  if (rate.maximum !== null && rate.maximum !== undefined) label += `:max=${money(rate.maximum).toFixed(2)}`;
  return label;
}

function skuCandidate(sku: LadderTerms | null): LadderCandidate {
  if (!sku) return none('sku', 'no_record');
  const terms = termsRate('sku', sku);
  if (!terms) return none('sku', 'cost_of_goods_only');
  return { ...none('sku', 'matched'), matched: true, terms };
}

function vendorCandidate(vendor: LadderTerms): LadderCandidate {
  const terms = termsRate('vendor', vendor);
  if (!terms) return none('vendor', 'no_rate');
  return { ...none('vendor', 'matched'), matched: true, terms };
}

/** The rules of one level targeting the line (its own vendor's and shop-wide), each with its outcome. */
function ruleCandidates(
  level: 'product' | 'productType',
  line: LadderLine,
  targeting: LadderRule[],
  ifNone: LadderReason,
): LadderCandidate[] {
  const mine = targeting
    .filter((r) => r.vendorId === null || r.vendorId === line.vendorId)
    .sort(mostRecentFirst);
  if (mine.length === 0) return [none(level, ifNone)];
  const forced = mine.filter((r) => inForce(r, line.orderCreatedAt));
  const winner = forced.find((r) => r.vendorId !== null) ?? forced[0] ?? null;
  return mine.map((r) => {
    const c: LadderCandidate = {
      level,
      matched: r === winner,
      reason: 'matched',
      detail: DETAIL.matched,
      ruleId: r.id,
      ruleScope: r.vendorId === null ? 'shop' : 'vendor',
      terms: rateOfRule(r),
    };
    if (r === winner) return c;
    if (!inForce(r, line.orderCreatedAt)) {
      c.reason = 'not_in_force';
      c.detail = `${DETAIL.not_in_force} (${window(r, line.orderCreatedAt)})`;
    } else if (r.vendorId === null && winner?.vendorId) {
      c.reason = 'beaten_by_vendor_rule';
      c.detail = DETAIL.beaten_by_vendor_rule;
    } else {
      // Two rules of one level, target and vendor in force together (the API refuses it: 409):
      // the one that started last wins, deterministically.
      c.reason = 'more_specific_applied';
      c.detail = 'an overlapping rule of the same level, target and vendor started later';
    }
    return c;
  });
}

function window(r: LadderRule, at: Date): string {
  if (r.validFrom && at.getTime() < r.validFrom.getTime()) return `starts ${r.validFrom.toISOString()}`;
  return `ended ${r.validTo!.toISOString()}`;
}

function mostRecentFirst(a: LadderRule, b: LadderRule): number {
  const fa = a.validFrom?.getTime() ?? -Infinity;
  const fb = b.validFrom?.getTime() ?? -Infinity;
  if (fa !== fb) return fb - fa;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

function termsRate(source: 'sku' | 'vendor', t: LadderTerms): CommissionRate | null {
  if (!t.commissionType || t.commissionAmount === null || t.commissionAmount === undefined) return null;
  return { source, type: t.commissionType, amount: t.commissionAmount, ruleId: null };
}

function none(level: LadderLevel, reason: LadderReason): LadderCandidate {
  return {
    level,
    matched: false,
    reason,
    detail: DETAIL[reason],
    ruleId: null,
    ruleScope: null,
    terms: null,
  };
}
