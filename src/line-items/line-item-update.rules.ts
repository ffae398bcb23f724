import { payoutState, round2 } from '../common/money';
import type { LineItem } from './line-item.schema';
import type { GuardedSet } from './line-item-views';
import { ValidationError } from '../common/errors';
import {
  LineItemFieldsDto,
  LineItemUpdateStatus,
  UPDATABLE_FIELDS,
  UpdateLineItemsDto,
} from './dto/line-items-update.dto';

/** POST /v1/lineitems/update: the rules of a request that need no data (spec §4.2). */

export type FieldValues = Partial<Record<(typeof UPDATABLE_FIELDS)[number], number | string>>;

export const FROZEN_ERROR = 'Line item is frozen (paid out) and was skipped';
export const NOT_FOUND_ERROR = 'Line item not found';

export function pairKey(p: { orderId: number; lineItemId: number }): string {
  return `${p.orderId}:${p.lineItemId}`;
}

export function statusOf(hasFields: boolean, recalc: boolean): LineItemUpdateStatus {
  if (hasFields && recalc) return 'updated_and_recalculate_queued';
  return hasFields ? 'updated' : 'recalculate_queued';
}

/** The updatable fields the request gives a value (null and absent alike mean "not given"). */
export function presentFields(fields: LineItemFieldsDto | undefined | null): FieldValues {
  const out: FieldValues = {};
  if (!fields) return out;
  for (const k of UPDATABLE_FIELDS) {
    const v = (fields as Record<string, unknown>)[k];
    if (v !== undefined && v !== null) out[k] = v as number | string;
  }
  return out;
}

/** The mode rules of spec §4.2 that a DTO cannot express; 422 `{error}` when broken. */
export function assertValidUpdate(body: UpdateLineItemsDto): void {
  const hasItems = body.items !== undefined && body.items !== null;
  const hasSku = body.bySku !== undefined && body.bySku !== null;
  if (hasItems && hasSku) throw new ValidationError('Send either items or bySku, not both');
  if (!hasItems && !hasSku) {
    throw new ValidationError('Send items (an array of line item updates) or bySku (a SKU) with fields');
  }
  if (hasItems) {
    if (body.fields !== undefined || body.recalculate !== undefined) {
      throw new ValidationError(
        'fields and recalculate go inside each element of items; at the top level they belong to bySku mode',
      );
    }
    body.items!.forEach((item, i) => {
      if (Object.keys(presentFields(item.fields)).length === 0 && item.recalculate !== true) {
        throw new ValidationError(`items.${i} needs fields, recalculate: true, or both`);
      }
    });
    return;
  }
  if (body.bySku!.trim() === '') throw new ValidationError('bySku must be a non-empty SKU');
  if (Object.keys(presentFields(body.fields)).length === 0 && body.recalculate !== true) {
    throw new ValidationError('fields is required unless recalculate is true');
  }
}

/** The write of hand-given figures, valid only while the line is unfrozen and its `paid` unchanged. */
export function guardedFields(line: LineItem, fields: FieldValues): GuardedSet {
  const set: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) set[k] = k === 'commissionPlan' ? v : round2(v as number);
  if (set.payout !== undefined) Object.assign(set, payoutState(set.payout as number, line.paid));
  return { id: line._id, guard: { frozen: false, paid: line.paid }, set };
}
