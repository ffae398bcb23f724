import type { Schema } from 'mongoose';
import { QUERY_OPS } from './query-ops';

/**
 * The filter with `_id` as its first key (the same filter: key order means nothing to a query).
 * The development store takes its `_id` path only when `_id` is the filter's first key; otherwise
 * it plans on the other fields, and `{shopId, _id}` on `line_items` trial-runs the shop-prefixed
 * indexes across the shop: 28 ms of store CPU against 1.5 ms for `{_id, shopId}` at 6,750 rows (an
 * audit outbox's clearing write, 38 ms → 2.5 ms; database/store-ranges.ts).
 * MongoDB: a filter's key order means nothing to its planner; both orders get the same plan.
 */
export function idFirst<F extends Record<string, unknown>>(filter: F): F {
  const keys = Object.keys(filter);
  if (keys.length < 2 || keys[0] === '_id' || !keys.includes('_id')) return filter;
  const { _id, ...rest } = filter;
  return { _id, ...rest } as unknown as F;
}

/** Whether a filter names several documents by `_id` (an `$in` of two or more). */
export function readsSeveralIds(filter: Record<string, unknown>): boolean {
  const id = filter._id as { $in?: unknown } | undefined;
  return !!id && typeof id === 'object' && Array.isArray(id.$in) && id.$in.length > 1;
}

interface HookedQuery {
  op?: string;
  getFilter(): Record<string, unknown>;
  setQuery(f: Record<string, unknown>): void;
  getOptions(): { sort?: unknown };
  sort(s: Record<string, 1 | -1>): unknown;
}

/**
 * Puts `_id` first in every query filter of the schema's models (`idFirst`), and reads several
 * documents named by `_id` without a sort of their own in `_id` order: a total order, so the
 * development store does not try every candidate index over the collection for the order mongod's
 * plan would give (database/store-ranges.ts).
 * MongoDB: reads that order off the `_id` index it seeks anyway; the added sort costs nothing.
 */
export function idFirstPlugin(schema: Schema): void {
  schema.pre(QUERY_OPS as unknown as RegExp, function (this: HookedQuery) {
    const filter = this.getFilter();
    if (!filter || typeof filter !== 'object') return;
    const ordered = idFirst(filter);
    if (ordered !== filter) this.setQuery(ordered);
    if (this.op === 'find' && readsSeveralIds(ordered) && !this.getOptions().sort) this.sort({ _id: 1 });
  });
}
