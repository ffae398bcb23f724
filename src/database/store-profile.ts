import type { Connection, Model } from 'mongoose';

/**
 * What the connected server can take, where it differs from MongoDB. Detected once at connect
 * (`buildInfo`); feature code never asks which server it talks to — the database module's helpers
 * (chunkedBulkWrite) read the profile instead.
 *
 * FerretDB is no longer a supported store (docs/adr/0037); SecantusDB and MongoDB both get
 * MONGODB_PROFILE. The detection stays: removing it would drop the `buildInfo` command SecantusDB
 * receives at every connect, and issue 29 left the default path's commands unchanged. Its only
 * effect left is to keep a FerretDB someone points MONGODB_URI at from deadlocking on a bulkWrite.
 * MongoDB: answers `buildInfo` without a `ferretdbVersion`: 1,000 statements per bulkWrite command.
 */
export interface StoreProfile {
  server: 'mongodb' | 'ferretdb';
  /**
   * Statements per bulkWrite command. MongoDB takes 100,000; 1,000 keeps a command's reply small.
   * FerretDB v1.24 keeps the query of every statement of an `update` command open — one backend
   * connection each, out of a pool of 100 (SQLite) or 50 (PostgreSQL) — until the whole command
   * ends, so one bulkWrite of ~100 matched updates deadlocks that database for good: 16 is safe.
   */
  bulkChunk: number;
}

export const MONGODB_PROFILE: StoreProfile = { server: 'mongodb', bulkChunk: 1000 };
export const FERRETDB_PROFILE: StoreProfile = { server: 'ferretdb', bulkChunk: 16 };

const profiles = new WeakMap<object, StoreProfile>();

/**
 * Asks the server what it is (FerretDB answers `buildInfo` with a `ferretdbVersion`, SecantusDB with
 * a `secantusVersion` and MongoDB with neither).
 */
export async function detectStoreProfile(connection: Connection): Promise<StoreProfile> {
  let profile = MONGODB_PROFILE;
  try {
    const info = await connection.db!.admin().command({ buildInfo: 1 });
    if (info.ferretdbVersion) profile = FERRETDB_PROFILE;
  } catch {
    // a server without buildInfo is treated as MongoDB
  }
  profiles.set(connection, profile);
  return profile;
}

/** The profile of the connection a model is bound to (MongoDB's until detection ran). */
export function storeProfileOf(model: Pick<Model<unknown>, 'db'>): StoreProfile {
  return profiles.get(model.db) ?? MONGODB_PROFILE;
}
