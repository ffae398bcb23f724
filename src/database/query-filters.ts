/**
 * An optional enum filter as an index-friendly condition: the given value, or every value of the
 * enum. Sending `$in` over the whole (small) enum when a list filter is absent keeps the field in
 * the query's equality prefix, so one compound index (…, field, sort keys) serves the list with and
 * without that filter: MongoDB scans each point range in sort order and merges them, instead of
 * needing a second index without the field.
 */
export function valueOrAny<T>(value: T | undefined, all: readonly T[]): T | { $in: readonly T[] } {
  return value !== undefined ? value : { $in: all };
}
