import { Error as MongooseError, Types } from 'mongoose';
import type { Model, Schema, SchemaType } from 'mongoose';

/**
 * New documents as `Model.insertMany` stores them — defaults, timestamps, version key, the schema's
 * validators — without building a mongoose document for each. Building them was the largest Node
 * cost of ingestion (issue 17's probe: `new Model(doc)` and its validation took ~2 s of each
 * ingesting process's CPU for 2,000 orders' line items and summaries); the insert itself goes to
 * the driver.
 *
 * The documents come from our own code (typed, never a client's JSON), so nothing is cast: a value
 * of the wrong type is refused instead (a string where the schema has a number, an id as a string),
 * as is a field the schema does not declare — stricter than mongoose, which would convert the one
 * and drop the other silently. As mongoose stores them, fields left `undefined` are not written and
 * empty plain objects are left out (the schema's `minimize`).
 * MongoDB: receives the very documents `insertMany` would send; nothing here is store-specific.
 */
export function storedDocuments<T>(
  model: Model<T>,
  docs: readonly object[],
  now: Date,
): Array<Record<string, unknown>> {
  const plan = planFor(model.schema);
  return docs.map((doc) => {
    const out: Record<string, unknown> = { ...doc };
    model.applyDefaults(out);
    for (const field of plan.timestamps) if (!out[field]) out[field] = now;
    if (plan.versionKey) out[plan.versionKey] = 0;
    if (plan.minimize) for (const key of Object.keys(out)) out[key] = minimized(out[key]);
    // built on the first failure only: an Error captures a stack (a cost per row otherwise)
    let errors: MongooseError.ValidationError | null = null;
    check(plan, out, '', (path, message) => {
      errors ??= new MongooseError.ValidationError();
      errors.addError(path, new MongooseError.ValidatorError({ path, message, value: undefined }));
    });
    if (errors) throw errors;
    return out;
  });
}

interface Plan {
  /** Top-level names the schema declares (a nested path's first piece included). */
  known: Set<string>;
  paths: Array<{ path: string; pieces: string[]; type: SchemaType; nested: Plan | null }>;
  timestamps: string[];
  versionKey: string | null;
  minimize: boolean;
}

const plans = new WeakMap<Schema, Plan>();

function planFor(schema: Schema): Plan {
  const cached = plans.get(schema);
  if (cached) return cached;
  const s = schema as Schema & {
    $timestamps?: { createdAt?: string | false; updatedAt?: string | false };
    childSchemas: Array<{ schema: Schema & { $timestamps?: unknown } }>;
  };
  for (const child of s.childSchemas) {
    // Subdocument timestamps are set by mongoose's document code only; none of ours has them.
    if (child.schema.$timestamps) throw new Error('storedDocuments: a subdocument schema with timestamps');
  }
  const paths = Object.entries(schema.paths).map(([path, type]) => {
    const t = type as SchemaType & { $isSingleNested?: boolean; schema?: Schema };
    return {
      path,
      pieces: path.split('.'),
      type,
      nested: t.$isSingleNested && t.schema ? planFor(t.schema) : null,
    };
  });
  const versionKey = schema.get('versionKey');
  const plan: Plan = {
    known: new Set(paths.map((p) => p.pieces[0])),
    paths,
    timestamps: [s.$timestamps?.createdAt, s.$timestamps?.updatedAt].filter((f): f is string => !!f),
    versionKey: typeof versionKey === 'string' ? versionKey : null,
    minimize: schema.get('minimize') !== false,
  };
  plans.set(schema, plan);
  return plan;
}

/** JavaScript values each declared type takes (null and undefined are the validators' business). */
const TYPE_CHECKS: Record<string, (v: unknown) => boolean> = {
  ObjectId: (v) => v instanceof Types.ObjectId,
  Number: (v) => typeof v === 'number' && Number.isFinite(v),
  String: (v) => typeof v === 'string',
  Boolean: (v) => typeof v === 'boolean',
  Date: (v) => v instanceof Date && !Number.isNaN(v.getTime()),
  Array: (v) => Array.isArray(v),
  Embedded: (v) => typeof v === 'object' && !Array.isArray(v),
};

function check(
  plan: Plan,
  doc: Record<string, unknown>,
  prefix: string,
  fail: (path: string, message: string) => void,
): void {
  for (const key of Object.keys(doc)) {
    if (doc[key] === undefined) delete doc[key];
    else if (!plan.known.has(key)) fail(prefix + key, `${prefix + key} is not in the schema`);
  }
  for (const { path, pieces, type, nested } of plan.paths) {
    let value: unknown = doc;
    for (const piece of pieces) value = value == null ? undefined : (value as Record<string, unknown>)[piece];
    const full = prefix + path;
    const isOfType = TYPE_CHECKS[type.instance];
    if (value != null && isOfType && !isOfType(value)) {
      fail(full, `${full}: ${type.instance} expected, got ${describe(value)}`);
      continue;
    }
    if (nested) {
      // a subdocument's own fields are checked below; of the subdocument itself, only `required`
      if (value == null && type.isRequired) fail(full, `${full} is required`);
    } else {
      const err = (
        type as SchemaType & { doValidateSync(v: unknown, scope: unknown): Error | null }
      ).doValidateSync(value, doc);
      if (err) fail(full, err.message);
    }
    if (nested && value != null) check(nested, value as Record<string, unknown>, `${full}.`, fail);
  }
}

function describe(value: unknown): string {
  return value === null
    ? 'null'
    : typeof value === 'object'
      ? (value.constructor?.name ?? 'object')
      : typeof value;
}

/**
 * A copy of a plain object without its `undefined` fields and empty plain objects, at any depth
 * (undefined when nothing is left), as mongoose's `minimize` stores it; any other value as it is.
 */
function minimized(value: unknown): unknown {
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  let kept = false;
  for (const [key, v] of Object.entries(value)) {
    const m = minimized(v);
    if (m === undefined) continue;
    out[key] = m;
    kept = true;
  }
  return kept ? out : undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}
