import type { Model } from 'mongoose';
import { storeProfileOf } from './store-profile';

export interface BulkWriteTotals {
  insertedCount: number;
  matchedCount: number;
  modifiedCount: number;
  deletedCount: number;
  upsertedCount: number;
  /** Index in `ops` → _id of the document the upsert created. */
  upsertedIds: Record<number, unknown>;
}

/**
 * Every bulkWrite in the code base goes through here: unordered within a command, commands in
 * order, each at most as many statements as the connected server takes in one (`StoreProfile`).
 * MongoDB: takes 100,000 statements a command (the driver splits past that); 1,000 keeps replies small.
 */
export async function chunkedBulkWrite<T>(
  model: Model<T>,
  ops: Parameters<Model<T>['bulkWrite']>[0],
): Promise<BulkWriteTotals> {
  const chunk = storeProfileOf(model as unknown as Model<unknown>).bulkChunk;
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
