import type { CommissionRule } from './commission-rule.schema';
import type { CommissionRuleDto } from './dto/commission-rule.dto';

const iso = (d: Date | null | undefined): string | null => (d ? new Date(d).toISOString() : null);

/** A stored rule as the API shows it (GET, lists, writes, `data.object` of its events). */
export function toCommissionRuleResponse(r: CommissionRule): CommissionRuleDto {
  return {
    _id: String(r._id),
    level: r.level,
    productId: r.productId ?? null,
    productType: r.productType ?? null,
    vendorId: r.vendorId ? String(r.vendorId) : null,
    commissionType: r.commissionType,
    commissionAmount: r.commissionAmount,
    flatAmount: r.flatAmount ?? null,
    minimum: r.minimum ?? null,
    maximum: r.maximum ?? null,
    validFrom: iso(r.validFrom),
    validTo: iso(r.validTo),
    createdAt: iso(r.createdAt)!,
    updatedAt: iso(r.updatedAt)!,
  };
}

/** What the audit trail compares of a rule. */
export function ruleAuditView(
  r: Omit<CommissionRule, '_id' | 'shopId' | 'createdAt' | 'updatedAt'>,
): Record<string, unknown> {
  return {
    level: r.level,
    productId: r.productId,
    productType: r.productType,
    vendorId: r.vendorId ? String(r.vendorId) : null,
    commissionType: r.commissionType,
    commissionAmount: r.commissionAmount,
    flatAmount: r.flatAmount,
    minimum: r.minimum,
    maximum: r.maximum,
    validFrom: r.validFrom,
    validTo: r.validTo,
  };
}
