import { anyOf } from './query-filters';

/**
 * A document's work lease (`leaseId` of the holder, `leaseUntil`): free when never taken or
 * released (`null`) or when it lapsed before `now` — the filter a claim spreads beside its keys.
 * MongoDB: the same query as a top-level `$or` (see `anyOf`).
 */
export const leaseFree = (now: Date) => anyOf([{ leaseUntil: null }, { leaseUntil: { $lt: now } }]);
