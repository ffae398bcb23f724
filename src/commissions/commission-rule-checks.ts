import type { Types } from 'mongoose';
import { parseDateTime } from '../common/dates/date-time';
import { commissionProblem } from '../vendors/commission-rules';
import type { RuleCommissionType, RuleLevel } from './commission-rule.schema';

/** A platform product id as rules store it: a positive decimal integer, as a string. */
export const PRODUCT_ID_PATTERN = /^[1-9][0-9]{0,19}$/;
export const MAX_PRODUCT_TYPE_LENGTH = 255;

/** A create / replace body as it arrives (types checked by the DTO, the rules here). */
export interface RuleBody {
  level: RuleLevel;
  productId?: string | null;
  productType?: string | null;
  vendorId?: string | null;
  commissionType: RuleCommissionType;
  commissionAmount: number;
  flatAmount?: number | null;
  minimum?: number | null;
  maximum?: number | null;
  validFrom?: string | null;
  validTo?: string | null;
}

/** A valid rule's stored values (vendorId still a string: the service checks that it is the shop's). */
export interface RuleValues {
  level: RuleLevel;
  productId: string | null;
  productType: string | null;
  productTypeKey: string | null;
  vendorId: string | null;
  commissionType: RuleCommissionType;
  commissionAmount: number;
  flatAmount: number | null;
  minimum: number | null;
  maximum: number | null;
  validFrom: Date | null;
  validTo: Date | null;
}

export type RuleCheck = { ok: true; values: RuleValues } | { ok: false; fields: Record<string, string[]> };

const given = <T>(v: T | null | undefined): v is T => v !== undefined && v !== null;

/**
 * Every rule of a commission rule's body (DESIGN §13) that the DTO's types cannot say: the target
 * field of the level and only that one, amounts by commission type, minimum ≤ maximum, validFrom <
 * validTo. All problems at once, by field, so one 422 tells the caller everything.
 */
export function checkRuleBody(body: RuleBody): RuleCheck {
  const fields: Record<string, string[]> = {};
  const refuse = (field: string, message: string) => (fields[field] ??= []).push(message);

  let productId: string | null = null;
  let productType: string | null = null;
  if (body.level === 'product') {
    if (!given(body.productId)) refuse('productId', 'productId is required for a product rule');
    else if (!PRODUCT_ID_PATTERN.test(body.productId))
      refuse(
        'productId',
        'productId must be the platform product id as a decimal string, e.g. "7513594937496"',
      );
    else productId = body.productId;
    if (given(body.productType)) refuse('productType', 'productType must not be sent for a product rule');
  } else {
    const trimmed = given(body.productType) ? body.productType.trim() : '';
    if (!trimmed) refuse('productType', 'productType is required (non-empty) for a productType rule');
    else productType = trimmed;
    if (given(body.productId)) refuse('productId', 'productId must not be sent for a productType rule');
  }

  const rateKind = body.commissionType === 'flat' ? 'flat' : 'percentage';
  const rate = commissionProblem(rateKind, body.commissionAmount, 'commissionAmount');
  if (rate) refuse('commissionAmount', rate);

  if (body.commissionType === 'percentage_plus_flat') {
    if (!given(body.flatAmount)) refuse('flatAmount', 'flatAmount is required for percentage_plus_flat');
    else {
      const flat = commissionProblem('flat', body.flatAmount, 'flatAmount');
      if (flat) refuse('flatAmount', flat);
    }
  } else if (given(body.flatAmount)) {
    refuse('flatAmount', 'flatAmount is only for commissionType percentage_plus_flat');
  }

  for (const field of ['minimum', 'maximum'] as const) {
    const v = body[field];
    if (!given(v)) continue;
    const problem = commissionProblem('flat', v, field);
    if (problem) refuse(field, problem);
  }
  if (given(body.minimum) && given(body.maximum) && !fields.minimum && !fields.maximum) {
    if (body.minimum > body.maximum) refuse('minimum', 'minimum must not be greater than maximum');
  }

  const validFrom = given(body.validFrom) ? parseDateTime(body.validFrom) : null;
  const validTo = given(body.validTo) ? parseDateTime(body.validTo) : null;
  if (given(body.validFrom) && !validFrom) refuse('validFrom', 'validFrom must be an ISO 8601 date-time');
  if (given(body.validTo) && !validTo) refuse('validTo', 'validTo must be an ISO 8601 date-time');
  if (validFrom && validTo && validFrom.getTime() >= validTo.getTime())
    refuse('validTo', 'validTo must be later than validFrom (the interval is [validFrom, validTo))');

  if (Object.keys(fields).length > 0) return { ok: false, fields };
  return {
    ok: true,
    values: {
      level: body.level,
      productId,
      productType,
      productTypeKey: productType === null ? null : productType.toLowerCase(),
      vendorId: given(body.vendorId) ? body.vendorId : null,
      commissionType: body.commissionType,
      commissionAmount: body.commissionAmount,
      flatAmount: body.commissionType === 'percentage_plus_flat' ? (body.flatAmount ?? null) : null,
      minimum: body.minimum ?? null,
      maximum: body.maximum ?? null,
      validFrom,
      validTo,
    },
  };
}

/** The first message of a failed check, for the 422's `error` line. */
export function firstProblem(fields: Record<string, string[]>): string {
  return Object.values(fields).flat().join('; ');
}

/** A time interval [from, to); null ends are unbounded. */
export interface Interval {
  validFrom: Date | null;
  validTo: Date | null;
}

/** Whether two [from, to) intervals share an instant: adjacent ones ([a, b) and [b, c)) do not. */
export function intervalsOverlap(a: Interval, b: Interval): boolean {
  const start = (i: Interval) => (i.validFrom ? i.validFrom.getTime() : -Infinity);
  const end = (i: Interval) => (i.validTo ? i.validTo.getTime() : Infinity);
  return start(a) < end(b) && start(b) < end(a);
}

/** A write in flight on the rule's group (commission-rule-group.schema.ts). */
export interface PendingClaim extends Interval {
  ruleId: Types.ObjectId;
  at: Date;
}

/** How long a claim blocks its interval when the write that made it never finished. */
export const CLAIM_TTL_MS = 120_000;

/** The claims that still count at `now` (younger than CLAIM_TTL_MS). */
export function liveClaims(claims: PendingClaim[], now: Date): PendingClaim[] {
  return claims.filter((c) => now.getTime() - new Date(c.at).getTime() < CLAIM_TTL_MS);
}

/**
 * The id of a rule of the group whose interval meets the candidate's, or null: the group's stored
 * rules and the live claims of writes in flight, except the candidate's own (a replace).
 */
export function overlappingRule(
  candidate: Interval & { _id: Types.ObjectId | null },
  rules: Array<Interval & { _id: Types.ObjectId }>,
  claims: PendingClaim[],
): Types.ObjectId | null {
  const self = candidate._id ? String(candidate._id) : null;
  for (const other of [...rules.map((r) => ({ ...r, ruleId: r._id })), ...claims]) {
    if (String(other.ruleId) === self) continue;
    if (intervalsOverlap(candidate, other)) return other.ruleId;
  }
  return null;
}

/**
 * The key of a rule's group: shop, level, target and vendor (`*`: the shop-wide rule, a group of
 * its own). The target may hold `:`; the level before it and the vendor after it never do.
 */
export function groupKey(
  shopId: string,
  v: Pick<RuleValues, 'level' | 'productId' | 'productTypeKey'> & { vendorId: string | null },
): string {
  const target = v.level === 'product' ? v.productId : v.productTypeKey;
  return `${shopId}:${v.level}:${target}:${v.vendorId ?? '*'}`;
}
