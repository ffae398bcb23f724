import type { Model, Types, UpdateQuery } from 'mongoose';
import { systemQuery } from '../database/tenant-guard.plugin';

/**
 * Pending-event markers (DESIGN §11). A feature whose events do not ride the audit outbox sets a
 * marker (a date: when the change was made) on the source document in the same single-document
 * write as the change; the request clears it once the event is recorded. A crash in between leaves
 * it, and the feature's finisher (run by the events sweeper) re-derives the event from the source —
 * same key, so the same event id — records it and clears the marker. These helpers are called by
 * the features' repositories with their own model (the repositories stay the only code touching
 * models); the scan is a system query, served by an index that starts with the marker field (after
 * equality fields, if any).
 */
export const EVENT_PENDING_AT = 'eventPendingAt';

/** The documents a finisher handles: the ones whose marker is older than `before`, oldest first. */
export function markedBefore<T>(
  model: Model<T>,
  what: string,
  q: {
    field?: string;
    eq?: Record<string, unknown>;
    before: Date;
    limit: number;
    projection?: Record<string, 0 | 1>;
  },
): Promise<T[]> {
  const field = q.field ?? EVENT_PENDING_AT;
  return model
    .find({ ...(q.eq ?? {}), [field]: { $lt: q.before } }, q.projection)
    .sort({ [field]: 1 })
    .limit(q.limit)
    .setOptions(systemQuery(`events sweeper: ${what} whose event a crash left unrecorded`))
    .lean<T[]>()
    .exec();
}

/**
 * Clears the marker of these documents (of the scope: `scoped` is the repository's tenant filter)
 * where it still holds `at`: a newer pending event on the same document keeps its marker. `extra`
 * narrows further (e.g. a version the finisher read). Leaves `updatedAt` alone: clearing a marker is
 * bookkeeping, not a change of the resource. Served by `_id` (a point lookup).
 */
export async function clearMarker<T>(
  model: Model<T>,
  scoped: (filter: Record<string, unknown>) => Record<string, unknown>,
  ids: Types.ObjectId[],
  at: Date,
  opts: { field?: string; extra?: Record<string, unknown> } = {},
): Promise<number> {
  if (ids.length === 0) return 0;
  const field = opts.field ?? EVENT_PENDING_AT;
  const res = await model
    .updateMany(
      scoped({ _id: ids.length === 1 ? ids[0] : { $in: ids }, [field]: at, ...(opts.extra ?? {}) }),
      { $unset: { [field.split('.')[0]]: '' } } as UpdateQuery<T>,
      { timestamps: false },
    )
    .exec();
  return res.modifiedCount;
}

/**
 * Clears the marker of these documents (of the scope) where it is older than `before`: for markers
 * whose events the finisher found stored, in one write whatever their times. Only for a marker a
 * document gets once (set at its insert), so no newer pending event can hide behind the range.
 */
export async function clearMarkersBefore<T>(
  model: Model<T>,
  scoped: (filter: Record<string, unknown>) => Record<string, unknown>,
  ids: Types.ObjectId[],
  before: Date,
): Promise<number> {
  if (ids.length === 0) return 0;
  const res = await model
    .updateMany(
      scoped({ _id: ids.length === 1 ? ids[0] : { $in: ids }, [EVENT_PENDING_AT]: { $lt: before } }),
      { $unset: { [EVENT_PENDING_AT]: '' } } as UpdateQuery<T>,
      { timestamps: false },
    )
    .exec();
  return res.modifiedCount;
}

/** Groups documents by their shop (a finisher records each shop's events in its own scope). */
export function byShop<T extends { shopId: Types.ObjectId }>(docs: T[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const d of docs) out.set(String(d.shopId), [...(out.get(String(d.shopId)) ?? []), d]);
  return out;
}

/** Documents grouped by their marker's time (the rows of one write share it). */
export function byMarker<T>(rows: T[], at: (row: T) => Date | undefined | null): Map<number, T[]> {
  const out = new Map<number, T[]>();
  for (const r of rows) {
    const t = at(r);
    if (!t) continue;
    const k = new Date(t).getTime();
    out.set(k, [...(out.get(k) ?? []), r]);
  }
  return out;
}
