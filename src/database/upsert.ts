import { isDuplicateKeyError } from '../common/errors/duplicate-key';

/**
 * Runs a `findOneAndUpdate(…, { upsert: true, new: true })` and returns the document it found or
 * created. Two concurrent upserts of the same unique key can both try to insert: on MongoDB the
 * loser fails with E11000; SecantusDB (the dev/CI store) may instead answer the loser with no
 * document and no error. Either way the key exists now, so the loser runs once more and updates it.
 * MongoDB: answers the loser E11000 (4.2+: retries an equality-on-unique-key upsert itself); never null.
 */
export async function upsertReturningDocument<T>(run: () => Promise<T | null>): Promise<T> {
  try {
    const doc = await run();
    if (doc) return doc;
  } catch (err) {
    if (!isDuplicateKeyError(err)) throw err;
  }
  const doc = await run();
  if (!doc) throw new Error('an upsert returned no document twice');
  return doc;
}
