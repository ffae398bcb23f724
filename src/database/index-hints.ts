import type { Model } from 'mongoose';

export type IndexKey = Record<string, 1 | -1>;

const checked = new WeakMap<object, Set<string>>();

/**
 * A `hint` naming one of the model's declared indexes — the one MongoDB picks for the query anyway
 * (equality fields, then sort, then range: the index the coverage gate names for its shape). Throws
 * when the schema declares no such index, so a hint cannot outlive its index.
 *
 * Used by one read only: a vendor's rows marked for the tally (line-items.repository.ts,
 * `changedForTally`). On SecantusDB 0.5.3 (the development store) a hinted query scans the whole
 * named index whatever its bounds (database/store-ranges.ts), yet for this read, run several times
 * a second while orders are ingested, it cost the store least: a 2,000-order seed took 46-48 s with
 * it and 56-66 s with the unhinted `{$gte: 1}` form that is cheaper at rest (store CPU 41-46 s
 * against 54-61 s, builds run side by side; README "The development store"). MongoDB answers the
 * hinted query with the index it would pick anyway.
 */
export function declaredIndex<T>(model: Model<T>, key: IndexKey): IndexKey {
  const wanted = JSON.stringify(key);
  let seen = checked.get(model.schema);
  if (!seen) checked.set(model.schema, (seen = new Set()));
  if (!seen.has(wanted)) {
    const declared = model.schema.indexes().some(([fields]) => JSON.stringify(fields) === wanted);
    if (!declared) throw new Error(`${model.modelName} declares no index ${wanted} to hint`);
    seen.add(wanted);
  }
  return key;
}
