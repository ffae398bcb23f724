import type { Model } from 'mongoose';

export type IndexKey = Record<string, 1 | -1>;

const checked = new WeakMap<object, Set<string>>();

/**
 * A `hint` naming one of the model's declared indexes — the one MongoDB picks for the query anyway
 * (equality fields, then sort, then range: the index the coverage gate names for its shape). Throws
 * when the schema declares no such index, so a hint cannot outlive its index.
 *
 * Why hint at all: SecantusDB 0.5.3 (the development store) plans a query by trial-running every
 * index whose leading field the filter constrains, each over the whole range of that field — on
 * `line_items` that is 19 shop-prefixed indexes, each scanned across the shop. Its plan is never
 * cached, so every execution pays it: a vendor's changed rows (the tally) cost 80-90 ms of store
 * CPU in a shop of 1,248 rows and 4 ms hinted; an order's rows 5.8 ms and 2.3 ms hinted (measured
 * side by side, README "The development store"). MongoDB caches the plan after one trial and answers
 * the hinted query the same way. Queries by `_id` need no hint (the store goes to `_id` directly).
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
