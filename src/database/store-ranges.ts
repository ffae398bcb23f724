/**
 * Query shapes the development store (SecantusDB 0.5.3, DESIGN §1) serves as one index seek, and
 * the ones it does not. Measured with the store's CPU time (`/proc/<pid>/stat`) per command, one
 * collection of 10,000 rows in one shop, and again on a soak's grown shop (docs/operations/development-store.md "The development
 * store"):
 *
 * - an equality, an `$in` of values, or a range on an index's fields is a seek: ~0.5-3 ms whatever
 *   the collection holds;
 * - but `$ne: v`, or an exclusive bound at `v` (`$gt: v`, `$lt: v`), steps over every entry equal
 *   to `v` one by one: when most rows hold `v` (a clean mark's 0) that is the whole range (~40 ms
 *   at 10,000 rows, against 3 ms for `$gte` of the next value);
 *   MongoDB: makes `$ne: v` two index intervals either side of `v` and seeks past the `v` entries;
 * - a `hint` makes a query a scan of the whole named index, whatever its bounds (a hinted
 *   equality read 20-40 ms against 0.5 ms unhinted), so no query carries one;
 *   MongoDB: a hint only fixes the index and the bounds still apply; unhinted, its planner picks;
 * - a second `$in` after an `$in` is not a seek either (19.5 ms against 0.5 ms for the first alone);
 *   MongoDB: seeks every pair of the two lists' values (the product of their point intervals);
 * - a `limit` does not stop the scan: a page reads its whole index range first (a list keeps its
 *   range bounded, not only its page);
 *   MongoDB: stops reading the index after `skip + limit` keys when the index gives the sort;
 * - a read that returns two or more rows, where several indexes could serve its filter, without a
 *   sort that leaves no two rows equal ("a total order"), is answered in the order mongod's plan
 *   trial would give: the store reads the whole collection (up to 2,000 documents; past that, 2,000
 *   to find it is larger) and runs every candidate plan over it. An order's three line-item rows
 *   cost 146-154 ms of store CPU at 1,453 rows unsorted or sorted with ties, and 1 ms sorted by the
 *   unique index's fields; such reads were over half the store's work in a 2,000-order seed.
 *   MongoDB: trial-runs plans for one bounded batch, caches the winner; a trailing `_id` sort is free.
 *
 * MongoDB serves every one of these shapes as the same index bounds, so writing the seekable form
 * costs it nothing.
 */

/**
 * A change mark that is set: marks are counters, 0 when clean and ≥ 1 after each change (`$inc`).
 * `{ $gte: 1 }` rather than `{ $ne: 0 }` (the same rows once every row has a mark; the store seeks
 * the first and scans for the second). A row stored before its mark existed has none: the sweeper
 * that counts marks gives such rows one first.
 * MongoDB: seeks both forms (`$ne: 0` as two intervals); they differ only for a row without a mark.
 */
export const MARKED = { $gte: 1 } as const;
