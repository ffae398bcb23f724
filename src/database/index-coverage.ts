import type { Branch, CommandShape } from './query-shape';

/** An index as the schemas declare it (mongoose `schema.indexes()`, plus `_id`). */
export interface DeclaredIndex {
  collection: string;
  name: string;
  key: Array<[field: string, direction: 1 | -1]>;
  unique: boolean;
}

export interface Verdict {
  served: boolean;
  /** The serving index, or the closest one when none serves. */
  index: DeclaredIndex | null;
  reason: string;
}

function keyName(key: DeclaredIndex['key']): string {
  return key.map(([f, d]) => `${f}_${d}`).join('_');
}

export function indexName(index: Pick<DeclaredIndex, 'key'>): string {
  return keyName(index.key);
}

/**
 * How far `index` serves `branch` under MongoDB's ESR rule: its leading keys are the equality
 * fields (any order), then the sort keys in order (all in the index's direction or all reversed;
 * sort keys matched by equality drop out), then the range fields. A unique index whose every key
 * is matched by equality serves any filter (a point lookup: at most one document).
 * `consumed` is how many index keys matched before the first mismatch (to name the closest index).
 */
export function assess(
  branch: Branch,
  index: DeclaredIndex,
): { served: boolean; consumed: number; reason: string } {
  if (branch.opaque?.length)
    return { served: false, consumed: 0, reason: `unmodelled operators ${branch.opaque.join(', ')}` };
  const eq = new Set(branch.eq);
  const fields = index.key.map(([f]) => f);
  if (index.unique && fields.every((f) => eq.has(f)))
    return { served: true, consumed: fields.length, reason: 'unique point lookup' };
  if (eq.size === 0 && branch.range.length === 0 && branch.sort.length === 0) {
    return { served: false, consumed: 0, reason: 'no filter and no sort: a collection scan' };
  }
  let i = 0;
  while (i < fields.length && eq.has(fields[i])) i++;
  const missingEq = branch.eq.filter((f) => !fields.slice(0, i).includes(f));
  if (missingEq.length > 0) {
    return {
      served: false,
      consumed: i,
      reason: `equality on ${missingEq.join(', ')} is not in the index's leading keys`,
    };
  }
  let orientation = 0;
  for (const [field, direction] of branch.sort.filter(([f]) => !eq.has(f))) {
    const key = index.key[i];
    if (!key || key[0] !== field) {
      return { served: false, consumed: i, reason: `sort on ${field} does not follow the equality keys` };
    }
    const o = key[1] === direction ? 1 : -1;
    if (orientation !== 0 && o !== orientation) {
      return { served: false, consumed: i, reason: `sort direction of ${field} mixes orientations` };
    }
    orientation = o;
    i++;
  }
  const sorted = new Set(branch.sort.map(([f]) => f));
  const ranges = new Set(branch.range.filter((f) => !sorted.has(f)));
  const next = new Set(fields.slice(i, i + ranges.size));
  const missingRange = [...ranges].filter((f) => !next.has(f));
  if (missingRange.length === 0)
    return { served: true, consumed: i + ranges.size, reason: 'equality, sort, range' };
  // Without a sort (a count, a $group), a range on later keys of the index is still answered from
  // the index alone: MongoDB bounds every key and skips, no document is fetched, nothing is sorted.
  const later = new Set(fields.slice(i));
  if (branch.sort.length === 0 && missingRange.every((f) => later.has(f))) {
    return {
      served: true,
      consumed: i + ranges.size,
      reason: 'equality, then an index-only filter on later keys',
    };
  }
  return {
    served: false,
    consumed: i,
    reason: `range on ${missingRange.join(', ')} is not next in the index`,
  };
}

/** The index that serves a branch, or the closest one with the reason none does. */
export function verdict(branch: Branch, indexes: DeclaredIndex[]): Verdict {
  let best: { index: DeclaredIndex; consumed: number; reason: string } | null = null;
  for (const index of indexes) {
    const a = assess(branch, index);
    if (a.served) return { served: true, index, reason: a.reason };
    if (
      !best ||
      a.consumed > best.consumed ||
      (a.consumed === best.consumed && index.key.length < best.index.key.length)
    ) {
      best = { index, consumed: a.consumed, reason: a.reason };
    }
  }
  return {
    served: false,
    index: best?.index ?? null,
    reason: best?.reason ?? 'the collection declares no index',
  };
}

export interface CoverageRow {
  collection: string;
  command: string;
  shape: string;
  count: number;
  served: boolean;
  index: string | null;
  reason: string;
  example?: string;
}

export interface CoverageReport {
  rows: CoverageRow[];
  unserved: CoverageRow[];
  unusedIndexes: DeclaredIndex[];
  /** Reads that returned two or more rows in no one order where several indexes compete. */
  unordered: CoverageRow[];
}

/**
 * Whether the rows a branch matches come back in one order only: some unique index has every key
 * either matched to one value or sorted on (`_id` is such an index). Two rows could otherwise
 * compare equal, and then the order depends on the plan.
 */
export function totallyOrdered(branch: Branch, indexes: DeclaredIndex[]): boolean {
  const multi = new Set(branch.multi ?? []);
  const fixed = new Set(branch.eq.filter((f) => !multi.has(f)));
  const sorted = new Set(branch.sort.map(([f]) => f));
  return withIdIndex(indexes).some((ix) => ix.unique && ix.key.every(([f]) => fixed.has(f) || sorted.has(f)));
}

/**
 * Whether more than one index could answer the branch (their first key is filtered or sorted on):
 * the plans the development store then tries over the whole collection to return mongod's order,
 * unless that order is total (database/store-ranges.ts).
 * MongoDB: trial-runs such plans for one bounded batch and caches the winner; a total order costs it nothing.
 */
export function contested(branch: Branch, indexes: DeclaredIndex[]): boolean {
  const named = new Set([...branch.eq, ...branch.range, ...branch.sort.slice(0, 1).map(([f]) => f)]);
  return withIdIndex(indexes).filter((ix) => named.has(ix.key[0]?.[0])).length > 1;
}

/** The collection's indexes with its `_id` index, which every collection has (declared or not). */
function withIdIndex(indexes: DeclaredIndex[]): Array<Pick<DeclaredIndex, 'key' | 'unique'>> {
  const hasId = indexes.some((ix) => ix.key.length === 1 && ix.key[0][0] === '_id');
  return hasId ? indexes : [...indexes, { key: [['_id', 1]], unique: true }];
}

export function describeBranch(b: Branch): string {
  const parts = [`eq(${[...b.eq].sort().join(',')})`];
  if (b.sort.length) parts.push(`sort(${b.sort.map(([f, d]) => `${f}:${d}`).join(',')})`);
  if (b.range.length) parts.push(`range(${[...b.range].sort().join(',')})`);
  if (b.opaque?.length) parts.push(`opaque(${b.opaque.join(',')})`);
  return parts.join(' ');
}

/** Every distinct statement branch of the captured commands against the declared indexes. */
export function coverage(
  commands: Array<CommandShape & { example?: string; docs?: number; op?: string | null }>,
  declared: DeclaredIndex[],
): CoverageReport {
  const unordered = new Map<string, CoverageRow>();
  const byCollection = new Map<string, DeclaredIndex[]>();
  for (const ix of declared)
    byCollection.set(ix.collection, [...(byCollection.get(ix.collection) ?? []), ix]);
  const rows = new Map<string, CoverageRow>();
  const used = new Set<DeclaredIndex>();
  for (const c of commands) {
    for (const s of c.statements) {
      // an aggregation's `$unionWith` part reads its own collection
      const collection = s.collection ?? c.collection;
      const indexes = byCollection.get(collection) ?? [];
      for (const b of s.branches) {
        const shape = describeBranch(b);
        const id = `${collection}|${c.command}|${shape}`;
        // the application's reads (a request's or a job's); a test's own reads of the database are not
        if (
          c.op &&
          c.command === 'find' &&
          (c.docs ?? 0) >= 2 &&
          !totallyOrdered(b, indexes) &&
          contested(b, indexes)
        ) {
          const u = unordered.get(id);
          if (u) u.count++;
          else
            unordered.set(id, {
              collection,
              command: c.command,
              shape,
              count: 1,
              served: true,
              index: null,
              reason: 'two or more rows, several candidate indexes, and no total order',
              example: c.example,
            });
        }
        const row = rows.get(id);
        if (row) {
          row.count++;
          continue;
        }
        const v = verdict(b, indexes);
        if (v.served && v.index) used.add(v.index);
        // every other index that serves it counts as used too: the planner may pick any of them
        for (const ix of indexes) if (assess(b, ix).served) used.add(ix);
        rows.set(id, {
          collection,
          command: c.command,
          shape,
          count: 1,
          served: v.served,
          index: v.index ? v.index.name : null,
          reason: v.reason,
          example: c.example,
        });
      }
    }
  }
  const all = [...rows.values()].sort(
    (a, b) => a.collection.localeCompare(b.collection) || a.shape.localeCompare(b.shape),
  );
  return {
    rows: all,
    unserved: all.filter((r) => !r.served),
    unusedIndexes: declared.filter((ix) => !used.has(ix) && ix.name !== '_id_'),
    unordered: [...unordered.values()],
  };
}
