import type { Model } from 'mongoose';

/**
 * Statements per bulkWrite command. FerretDB v1.24 keeps the query of every statement of an
 * `update` command open — one SQLite connection each, out of a pool of 100 per database — until
 * the whole command ends, so one bulkWrite of ~100 updates (or a few concurrent ones of 40)
 * deadlocks that database for good. Small chunks cost one round trip each and are harmless on MongoDB.
 */
export const BULK_WRITE_CHUNK = 16;

/**
 * Statements per bulk write made only of `updateMany` statements. Unlike a matched `updateOne`, an
 * `updateMany` runs its query to the end, so FerretDB releases its connection after each statement;
 * larger chunks are safe and save round trips.
 */
export const UPDATE_MANY_CHUNK = 200;

export interface BulkWriteTotals {
  insertedCount: number;
  matchedCount: number;
  modifiedCount: number;
  deletedCount: number;
  upsertedCount: number;
  /** Index in `ops` → _id of the document the upsert created. */
  upsertedIds: Record<number, unknown>;
}

/** Every bulkWrite in the code base goes through here (unordered within a chunk, chunks in order). */
export async function chunkedBulkWrite<T>(
  model: Model<T>,
  ops: Parameters<Model<T>['bulkWrite']>[0],
  chunk = BULK_WRITE_CHUNK,
): Promise<BulkWriteTotals> {
  const totals: BulkWriteTotals = {
    insertedCount: 0,
    matchedCount: 0,
    modifiedCount: 0,
    deletedCount: 0,
    upsertedCount: 0,
    upsertedIds: {},
  };
  for (let start = 0; start < ops.length; start += chunk) {
    const res = await model.bulkWrite(ops.slice(start, start + chunk), { ordered: false });
    totals.insertedCount += res.insertedCount;
    totals.matchedCount += res.matchedCount;
    totals.modifiedCount += res.modifiedCount;
    totals.deletedCount += res.deletedCount;
    totals.upsertedCount += res.upsertedCount;
    for (const [i, id] of Object.entries(res.upsertedIds ?? {})) totals.upsertedIds[start + Number(i)] = id;
  }
  return totals;
}
