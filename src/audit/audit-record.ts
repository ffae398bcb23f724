import { createHash } from 'node:crypto';
import { Types } from 'mongoose';
import type { AuditAction, AuditActorKind, AuditResourceType } from './audit-actions';

export interface AuditActor {
  kind: AuditActorKind;
  id: string;
}

/**
 * One audit event, as it waits in a document's outbox and as `audit_events` stores it (same `_id`
 * in both places, so moving it twice stores it once). `before` / `after` hold only the fields that
 * changed (all of them for a create or a delete); never a secret.
 */
export interface AuditRecord {
  _id: Types.ObjectId;
  shopId: Types.ObjectId;
  at: Date;
  actor: AuditActor;
  action: AuditAction;
  resource: { type: AuditResourceType; id: string };
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  requestId: string | null;
  /** The caller's own `x-request-id`, if it sent a sane one (never taken as `requestId`). */
  clientRequestId?: string | null;
  /** Filter keys (`t:` type, `r:` resource id, `a:` action, `k:` actor kind, `u:` actor id): one index serves any combination. */
  facets: string[];
}

/**
 * One audited write of a request: `key` names it in the outboxes of the documents it changes (one
 * key for all of them, so relaying them is one statement), `at` / `actor` / `requestId` go on each event.
 */
export interface AuditStamp {
  key: string;
  at: Date;
  actor: AuditActor;
  requestId: string | null;
  clientRequestId: string | null;
}

/** Field names whose values never enter the trail (the field may, with this value). */
const SECRET_FIELDS = new Set([
  'password',
  'passwordHash',
  'secretHash',
  'key',
  'apiKey',
  'apiKeyHash',
  'accessToken',
  'platformAccessTokenEnc',
  'webhookSecret',
  'token',
  // webhook endpoint signing secrets (in the clear, sealed, or the list of them)
  'secret',
  'secretEnc',
  'secrets',
]);
export const REDACTED = '[redacted]';

type Plain = Record<string, unknown>;

/** A value as the trail stores it: ids and dates as strings, secrets redacted, no undefined. */
export function auditValue(value: unknown, field?: string): unknown {
  if (field !== undefined && SECRET_FIELDS.has(field) && value !== undefined && value !== null)
    return REDACTED;
  if (value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Types.ObjectId) return value.toHexString();
  if (Array.isArray(value)) return value.map((v) => auditValue(v));
  if (value && typeof value === 'object') {
    if ((value as { _bsontype?: string })._bsontype) return String(value);
    const out: Plain = {};
    for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = auditValue(v, k);
    return out;
  }
  return value;
}

function isPlainObject(v: unknown): v is Plain {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

/** Nested plain objects as dotted leaf paths (arrays and scalars are leaves). */
function flatten(value: Plain, prefix = '', out: Map<string, unknown> = new Map()): Map<string, unknown> {
  for (const [k, v] of Object.entries(value)) {
    const path = prefix ? `${prefix}.${k}` : k;
    if (isPlainObject(v) && Object.keys(v).length > 0) flatten(v, path, out);
    else out.set(path, v);
  }
  return out;
}

function setPath(target: Plain, path: string, value: unknown): void {
  const parts = path.split('.');
  let node = target;
  for (const p of parts.slice(0, -1)) {
    if (!isPlainObject(node[p])) node[p] = {};
    node = node[p] as Plain;
  }
  node[parts[parts.length - 1]] = value;
}

/**
 * The fields that differ between two views of a document (nested objects compared leaf by leaf,
 * arrays as a whole), as `{before, after}` holding only those fields; null when nothing differs.
 */
export function fieldChanges(before: Plain, after: Plain): { before: Plain; after: Plain } | null {
  const a = flatten(auditValue(before) as Plain);
  const b = flatten(auditValue(after) as Plain);
  const out = { before: {} as Plain, after: {} as Plain };
  let changed = false;
  for (const path of new Set([...a.keys(), ...b.keys()])) {
    const x = a.has(path) ? a.get(path) : null;
    const y = b.has(path) ? b.get(path) : null;
    if (JSON.stringify(x) === JSON.stringify(y)) continue;
    changed = true;
    setPath(out.before, path, x);
    setPath(out.after, path, y);
  }
  return changed ? out : null;
}

/** A document view with `$set`-style dotted paths applied (the state an update will leave). */
export function applySet(view: Plain, set: Record<string, unknown>): Plain {
  const out = structuredCloneSafe(view);
  for (const [path, value] of Object.entries(set)) setPath(out, path, value);
  return out;
}

function structuredCloneSafe(view: Plain): Plain {
  return auditValue(view) as Plain;
}

export function auditFacets(r: Pick<AuditRecord, 'resource' | 'action' | 'actor'>): string[] {
  return [
    `t:${r.resource.type}`,
    `r:${r.resource.id}`,
    `a:${r.action}`,
    `k:${r.actor.kind}`,
    `u:${r.actor.id}`,
  ];
}

/**
 * The id of the event that deletes a resource: derived from the resource, because a resource is
 * deleted at most once, so two requests that both set out to delete it (one of which may have
 * died before deleting) can only ever store one deletion event.
 */
export function deletionEventId(type: AuditResourceType, id: string): Types.ObjectId {
  return new Types.ObjectId(
    createHash('sha256').update(`delete:${type}:${id}`).digest().subarray(0, 12).toString('hex'),
  );
}

/** Builds one event of a stamped write. `change` holds the before/after of the changed fields. */
export function auditRecord(
  shopId: string,
  stamp: AuditStamp,
  spec: {
    action: AuditAction;
    resource: { type: AuditResourceType; id: string | Types.ObjectId };
    before: Plain | null;
    after: Plain | null;
    id?: Types.ObjectId;
  },
): AuditRecord {
  const resource = { type: spec.resource.type, id: String(spec.resource.id) };
  const record: Omit<AuditRecord, 'facets'> = {
    _id: spec.id ?? new Types.ObjectId(),
    shopId: new Types.ObjectId(shopId),
    at: stamp.at,
    actor: { kind: stamp.actor.kind, id: stamp.actor.id },
    action: spec.action,
    resource,
    before: spec.before === null ? null : (auditValue(spec.before) as Plain),
    after: spec.after === null ? null : (auditValue(spec.after) as Plain),
    requestId: stamp.requestId,
    clientRequestId: stamp.clientRequestId,
  };
  return { ...record, facets: auditFacets(record) };
}
