/**
 * The index-relevant shape of a MongoDB command: for every statement, which fields it matches by
 * equality, which by range (or negation / existence), and its sort. Values are never kept. Used by
 * the command observer (round-trip budgets, the index-coverage check of the test suite).
 */
export type SortSpec = Array<[field: string, direction: 1 | -1]>;

/** One conjunctive branch of a filter (a `$or` yields one branch per alternative). */
export interface Branch {
  eq: string[];
  /** The equality fields matched against several values (an `$in` of two or more). */
  multi?: string[];
  range: string[];
  sort: SortSpec;
  /** Operators the coverage check does not model (`$where`, `$expr`, `$text`, …). */
  opaque?: string[];
}

/** One statement of a command (an `update` or `delete` command may carry many). */
export interface Statement {
  branches: Branch[];
  /** The collection it reads when not the command's (an aggregation's `$unionWith` part). */
  collection?: string;
}

export interface CommandShape {
  command: string;
  collection: string;
  statements: Statement[];
}

/** Commands whose filters go through the query planner. */
export const QUERY_COMMANDS = new Set([
  'find',
  'aggregate',
  'count',
  'distinct',
  'update',
  'delete',
  'findAndModify',
]);

const EQUALITY_OPS = new Set(['$eq', '$in']);
const RANGE_OPS = new Set([
  '$gt',
  '$gte',
  '$lt',
  '$lte',
  '$ne',
  '$nin',
  '$exists',
  '$type',
  '$not',
  '$regex',
  // `$regex`'s flags (`i`): no operator of its own, part of the regex range
  '$options',
  '$size',
  '$all',
  '$mod',
]);

type Doc = Record<string, unknown>;

function isOperatorObject(v: unknown): v is Doc {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  // BSON values (ObjectId, Date, Decimal128…) are values, not operator objects.
  if (v instanceof Date || (v as { _bsontype?: string })._bsontype) return false;
  const keys = Object.keys(v);
  return keys.length > 0 && keys.every((k) => k.startsWith('$'));
}

interface Acc {
  eq: Set<string>;
  multi: Set<string>;
  range: Set<string>;
  opaque: Set<string>;
  ors: Doc[][];
}

function collect(filter: Doc, acc: Acc): void {
  for (const [key, value] of Object.entries(filter ?? {})) {
    if (key === '$and' && Array.isArray(value)) {
      for (const part of value as Doc[]) collect(part, acc);
    } else if (key === '$or' && Array.isArray(value)) {
      acc.ors.push(value as Doc[]);
    } else if (key.startsWith('$')) {
      acc.opaque.add(key);
    } else if (isOperatorObject(value)) {
      const ops = Object.keys(value);
      if (Array.isArray(value.$in) && value.$in.length > 1) acc.multi.add(key);
      if (ops.every((op) => EQUALITY_OPS.has(op))) acc.eq.add(key);
      else if (ops.every((op) => EQUALITY_OPS.has(op) || RANGE_OPS.has(op))) acc.range.add(key);
      else {
        acc.range.add(key);
        for (const op of ops) if (!EQUALITY_OPS.has(op) && !RANGE_OPS.has(op)) acc.opaque.add(op);
      }
    } else {
      acc.eq.add(key);
    }
  }
}

/** The branches of a filter: its conjunction, multiplied out over every `$or` it contains. */
export function filterBranches(filter: Doc | undefined, sort: SortSpec = []): Branch[] {
  const acc: Acc = { eq: new Set(), multi: new Set(), range: new Set(), opaque: new Set(), ors: [] };
  collect(filter ?? {}, acc);
  let branches: Acc[] = [acc];
  for (const alternatives of acc.ors) {
    const next: Acc[] = [];
    for (const b of branches) {
      for (const alt of alternatives) {
        const child: Acc = {
          eq: new Set(b.eq),
          multi: new Set(b.multi),
          range: new Set(b.range),
          opaque: new Set(b.opaque),
          ors: [],
        };
        collect(alt, child);
        // a nested $or inside an alternative is multiplied out one level (deeper nesting is opaque)
        if (child.ors.length > 0) child.opaque.add('$or');
        next.push(child);
      }
    }
    branches = next;
  }
  return branches.map((b) => {
    const eq = [...b.eq];
    const range = [...b.range].filter((f) => !b.eq.has(f));
    const out: Branch = { eq, range, sort };
    const multi = eq.filter((f) => b.multi.has(f));
    if (multi.length > 0) out.multi = multi;
    if (b.opaque.size > 0) out.opaque = [...b.opaque];
    return out;
  });
}

/** A command's sort (the driver sends it as a Map or a plain object). */
export function toSortSpec(sort: unknown): SortSpec {
  if (!sort || typeof sort !== 'object') return [];
  const entries =
    sort instanceof Map ? [...(sort as Map<string, unknown>).entries()] : Object.entries(sort as Doc);
  return entries.map(([f, d]) => [f, Number(d) < 0 || d === 'desc' || d === 'descending' ? -1 : 1]);
}

/** The shape of one driver command, or null for commands that read no documents by filter. */
export function commandShape(name: string, command: Doc): CommandShape | null {
  if (!QUERY_COMMANDS.has(name)) return null;
  const collection = String(command[name]);
  const statements: Statement[] = [];
  switch (name) {
    case 'find':
      statements.push({ branches: filterBranches(command.filter as Doc, toSortSpec(command.sort)) });
      break;
    case 'count':
    case 'distinct':
      statements.push({ branches: filterBranches(command.query as Doc) });
      break;
    case 'findAndModify':
      statements.push({ branches: filterBranches(command.query as Doc, toSortSpec(command.sort)) });
      break;
    case 'update':
      for (const u of (command.updates as Doc[]) ?? [])
        statements.push({ branches: filterBranches(u.q as Doc) });
      break;
    case 'delete':
      for (const d of (command.deletes as Doc[]) ?? [])
        statements.push({ branches: filterBranches(d.q as Doc) });
      break;
    case 'aggregate': {
      const pipeline = (command.pipeline as Doc[]) ?? [];
      statements.push(pipelineStatement(pipeline));
      // each `$unionWith` part is a read of its own collection, served by that collection's indexes
      for (const stage of pipeline) {
        const union = stage.$unionWith as { coll?: string; pipeline?: Doc[] } | string | undefined;
        if (union === undefined) continue;
        const part = typeof union === 'string' ? { coll: union } : union;
        if (part.coll) {
          statements.push({ ...pipelineStatement(part.pipeline ?? []), collection: part.coll });
          statements.push(...lookupStatements(part.pipeline ?? []));
        }
      }
      statements.push(...lookupStatements(pipeline));
      break;
    }
  }
  return { command: name, collection, statements };
}

/**
 * Each `$lookup` of a pipeline is a read of its `from` collection per joined document: the equality
 * of `foreignField` (localField/foreignField form) plus its sub-pipeline's leading `$match`.
 */
function lookupStatements(pipeline: Doc[]): Statement[] {
  const out: Statement[] = [];
  for (const stage of pipeline) {
    const lookup = stage.$lookup as { from?: string; foreignField?: string; pipeline?: Doc[] } | undefined;
    if (!lookup?.from) continue;
    const match = (lookup.pipeline?.[0]?.$match as Doc | undefined) ?? {};
    const filter = lookup.foreignField ? { ...match, [lookup.foreignField]: '<joined value>' } : match;
    out.push({ branches: filterBranches(filter), collection: lookup.from });
  }
  return out;
}

/** A pipeline's read: its leading `$match` and a `$sort` right after it. */
function pipelineStatement(pipeline: Doc[]): Statement {
  const match = pipeline[0]?.$match as Doc | undefined;
  const sortStage = pipeline.find((s, i) => i <= 1 && s.$sort)?.$sort;
  return { branches: filterBranches(match ?? {}, toSortSpec(sortStage)) };
}

/** Documents a reply hands back to the client. */
export function documentsReturned(name: string, reply: Doc | undefined): number {
  if (!reply) return 0;
  const cursor = reply.cursor as { firstBatch?: unknown[]; nextBatch?: unknown[] } | undefined;
  if (cursor) return (cursor.firstBatch ?? cursor.nextBatch ?? []).length;
  if (name === 'findAndModify') return reply.value ? 1 : 0;
  if (name === 'distinct') return Array.isArray(reply.values) ? reply.values.length : 0;
  return 0;
}
