/**
 * Drops indexes a schema no longer declares: `autoIndex` creates new indexes but never drops old
 * ones, and an index nobody reads still costs every write. The model's declared indexes are built
 * first, so no moment is left without the one that replaces an old index. An index already gone
 * is nothing to do.
 * MongoDB: answers a missing index with IndexNotFound (27), ignored here like on the development store.
 */
export async function dropSupersededIndexes(
  model: { init(): Promise<unknown>; collection: { dropIndex(name: string): Promise<unknown> } },
  names: readonly string[],
): Promise<void> {
  await model.init();
  for (const name of names) await model.collection.dropIndex(name).catch(() => undefined);
}
