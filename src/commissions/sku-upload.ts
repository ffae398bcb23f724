import { isMoney, MAX_MONEY } from '../common/http/validators';
import type { Types } from 'mongoose';
import { commissionProblem } from '../vendors/commission-rules';
import { COMMISSION_TYPES, CommissionType } from '../vendors/vendor.schema';

export const SKU_UPLOAD_MAX = 500;
export const SKU_MAX_LENGTH = 255;

/** `commissionAmount` (the name GET uses) is accepted for `commissionRate`, so a read can be uploaded back. */
const ELEMENT_KEYS = new Set(['sku', 'commissionType', 'commissionRate', 'commissionAmount', 'costOfGoods']);

export interface SkuValues {
  commissionType: CommissionType;
  commissionAmount: number;
  /** Absent: the stored cost of goods (if any) is kept. */
  costOfGoods?: number;
}

export interface ValidSkuElement {
  index: number;
  sku: string;
  values: SkuValues;
}

export interface SkuElementError {
  index: number;
  sku: string;
  error: string;
}

/** One SKU of a request after its elements were applied in order. */
export interface CollapsedSku {
  sku: string;
  /** How many valid elements named it. */
  occurrences: number;
  values: SkuValues;
}

export interface StoredSku {
  _id: Types.ObjectId;
  sku: string;
  commissionType: CommissionType | null;
  commissionAmount: number | null;
  costOfGoods: number | null;
}

/**
 * Checks every element on its own (spec §4.5): sku a trimmed non-empty string; commissionType
 * `percentage` (default) or `flat`; commissionRate a number ≥ 0 (default 0; at most 100 for a
 * percentage, as for vendors); costOfGoods a number ≥ 0 when given; no other keys (a misspelt key
 * would otherwise silently upload a 0% override). null counts as not given.
 */
export function validateSkuElements(elements: unknown[]): {
  valid: ValidSkuElement[];
  errors: SkuElementError[];
} {
  const valid: ValidSkuElement[] = [];
  const errors: SkuElementError[] = [];
  elements.forEach((element, index) => {
    if (element === null || typeof element !== 'object' || Array.isArray(element)) {
      errors.push({ index, sku: '', error: 'element must be an object with at least a sku' });
      return;
    }
    const e = element as Record<string, unknown>;
    const problems: string[] = [];
    const unknown = Object.keys(e).filter((k) => !ELEMENT_KEYS.has(k));
    if (unknown.length) problems.push(`unknown field(s): ${unknown.join(', ')}`);

    const sku = typeof e.sku === 'string' ? e.sku.trim() : '';
    if (typeof e.sku !== 'string' || sku.length === 0) problems.push('sku must be a non-empty string');
    else if (sku.length > SKU_MAX_LENGTH) problems.push(`sku must be at most ${SKU_MAX_LENGTH} characters`);

    const type = given(e.commissionType) ? e.commissionType : 'percentage';
    if (!COMMISSION_TYPES.includes(type as CommissionType))
      problems.push(`commissionType must be one of ${COMMISSION_TYPES.join(', ')}`);

    let rate: unknown = 0;
    if (given(e.commissionRate) && given(e.commissionAmount) && e.commissionRate !== e.commissionAmount)
      problems.push('commissionRate and commissionAmount differ; send one of them');
    else if (given(e.commissionRate)) rate = e.commissionRate;
    else if (given(e.commissionAmount)) rate = e.commissionAmount;
    if (COMMISSION_TYPES.includes(type as CommissionType)) {
      const p = commissionProblem(type as CommissionType, rate as number, 'commissionRate');
      if (p) problems.push(p);
    }

    const cost = given(e.costOfGoods) ? e.costOfGoods : undefined;
    if (cost !== undefined && !isMoney(cost, { min: 0 }))
      problems.push(`costOfGoods must be a number >= 0 and <= ${MAX_MONEY} with at most 2 decimal places`);

    if (problems.length) {
      errors.push({ index, sku: skuLabel(e.sku), error: problems.join('; ') });
      return;
    }
    const values: SkuValues = { commissionType: type as CommissionType, commissionAmount: rate as number };
    if (cost !== undefined) values.costOfGoods = cost as number;
    valid.push({ index, sku, values });
  });
  return { valid, errors };
}

/**
 * Applies the valid elements in request order: for a repeated SKU the last commission wins, and a
 * cost of goods given earlier survives a later element without one — as one write per element would.
 */
export function collapseInOrder(valid: ValidSkuElement[]): Map<string, CollapsedSku> {
  const out = new Map<string, CollapsedSku>();
  for (const v of valid) {
    const prev = out.get(v.sku);
    if (!prev) out.set(v.sku, { sku: v.sku, occurrences: 1, values: { ...v.values } });
    else {
      prev.occurrences++;
      prev.values = { ...prev.values, ...v.values };
    }
  }
  return out;
}

export interface NewSkuRecord {
  sku: string;
  commissionType: CommissionType;
  commissionAmount: number;
  costOfGoods: number | null;
}

export interface SkuUpdate {
  _id: Types.ObjectId;
  set: Partial<SkuValues>;
}

/** Every SKU of the request as a new record (its final values after all its elements). */
export function newSkuRecords(collapsed: Map<string, CollapsedSku>): NewSkuRecord[] {
  return [...collapsed.values()].map((c) => ({
    sku: c.sku,
    commissionType: c.values.commissionType,
    commissionAmount: c.values.commissionAmount,
    costOfGoods: c.values.costOfGoods ?? null,
  }));
}

/**
 * Counts as the spec asks: a SKU new to the shop is one create and then one update per further
 * element; a SKU the shop already had is one update per element.
 */
export function countUpload(
  collapsed: Map<string, CollapsedSku>,
  existed: Set<string>,
): { created: number; updated: number } {
  let created = 0;
  let updated = 0;
  for (const c of collapsed.values()) {
    if (existed.has(c.sku)) updated += c.occurrences;
    else {
      created += 1;
      updated += c.occurrences - 1;
    }
  }
  return { created, updated };
}

/**
 * The writes that bring stored records to the request's values: only the fields that differ, and
 * nothing for a record that would not change. SKUs without a stored record are returned as missing.
 */
export function planSkuUpdates(
  collapsed: Map<string, CollapsedSku>,
  stored: Map<string, StoredSku>,
): { updates: SkuUpdate[]; missing: string[] } {
  const updates: SkuUpdate[] = [];
  const missing: string[] = [];
  for (const c of collapsed.values()) {
    const current = stored.get(c.sku);
    if (!current) {
      missing.push(c.sku);
      continue;
    }
    const set: Partial<SkuValues> = {};
    if (current.commissionType !== c.values.commissionType) set.commissionType = c.values.commissionType;
    if (current.commissionAmount !== c.values.commissionAmount)
      set.commissionAmount = c.values.commissionAmount;
    if (c.values.costOfGoods !== undefined && current.costOfGoods !== c.values.costOfGoods)
      set.costOfGoods = c.values.costOfGoods;
    if (Object.keys(set).length) updates.push({ _id: current._id, set });
  }
  return { updates, missing };
}

function given(v: unknown): boolean {
  return v !== undefined && v !== null;
}

function skuLabel(v: unknown): string {
  if (typeof v === 'string') return v.trim();
  if (v === undefined || v === null) return '';
  return JSON.stringify(v).slice(0, SKU_MAX_LENGTH);
}
