/**
 * An optional enum filter as an index-friendly condition: the given value, or every value of the
 * enum. Sending `$in` over the whole (small) enum when a list filter is absent keeps the field in
 * the query's equality prefix, so one compound index (…, field, sort keys) serves the list with and
 * without that filter: MongoDB scans each point range in sort order and merges them, instead of
 * needing a second index without the field. SecantusDB's merge does more work than it reports,
 * growing with the ranges (docs/adr/0001: a payout page 23 ms single-valued, 103 ms with two `$in`s).
 * MongoDB: SORT_MERGE over the point ranges reads about one page of index keys; this is its form.
 */
export function valueOrAny<T>(value: T | undefined, all: readonly T[]): T | { $in: readonly T[] } {
  return value !== undefined ? value : { $in: all };
}

type Filter = Record<string, unknown>;

/**
 * "Any of these alternatives", to spread into a filter beside its equality fields:
 * `{ _id, shopId, ...anyOf([{ leaseUntil: null }, { leaseUntil: { $lt: now } }]) }`.
 *
 * It is written `{ $and: [{ $or }] }` rather than a bare top-level `$or`. To MongoDB the two are the
 * same query (the planner flattens the `$and`; index choice and results do not change). SecantusDB
 * 0.5.3 (the development store) does not: beside a top-level `$or` it stops using the equality
 * fields' index and scans the collection — a lease claim by `_id` took 24–37 ms at 25,000 webhook
 * deliveries instead of 1 ms, a cursor page 60 ms instead of 25 ms (measured; docs/adr/0001).
 * Combine filters that may each carry one with `allOf`.
 * MongoDB: flattens `{$and: [{$or}]}` into the same query as a top-level `$or`; same plan, same rows.
 */
export function anyOf(alternatives: Filter[]): { $and: [{ $or: Filter[] }] } {
  return { $and: [{ $or: alternatives }] };
}

/**
 * The conjunction of filters: their fields together and their `$and` lists concatenated (a plain
 * spread would let one filter's `$and` overwrite another's). A field set by two filters is a
 * programming error, not something to merge silently.
 */
export function allOf(...filters: Filter[]): Filter {
  const out: Filter = {};
  const and: unknown[] = [];
  for (const f of filters) {
    for (const [k, v] of Object.entries(f)) {
      if (k === '$and') and.push(...(v as unknown[]));
      else if (k in out) throw new Error(`allOf: both filters constrain '${k}'`);
      else out[k] = v;
    }
  }
  if (and.length > 0) out.$and = and;
  return out;
}
