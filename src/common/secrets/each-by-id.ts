import type { Types } from 'mongoose';

/**
 * Hands every document a repository pages by `_id` (ascending, `after` exclusive) to `each`, one at a
 * time and one page in memory: the walk of `secrets:rotate` over every shop's sealed values. A
 * document changed meanwhile keeps its place (its `_id` does not move), so a run sees each once.
 */
export async function eachById<T extends { _id: Types.ObjectId }>(
  page: (after: Types.ObjectId | null, limit: number) => Promise<T[]>,
  limit: number,
  each: (doc: T) => Promise<void>,
): Promise<void> {
  let after: Types.ObjectId | null = null;
  for (;;) {
    const docs = await page(after, limit);
    if (docs.length === 0) return;
    for (const doc of docs) await each(doc);
    after = docs[docs.length - 1]._id;
  }
}
