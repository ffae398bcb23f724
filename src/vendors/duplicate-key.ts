/**
 * A write refused by a unique index. MongoDB answers code 11000 for inserts and updates alike;
 * FerretDB (dev/CI) does so for inserts only and reports an update that would duplicate a unique
 * key as code 1 with SQLite's "UNIQUE constraint failed" message.
 */
export function isDuplicateKeyError(err: unknown): boolean {
  const e = err as { code?: number; message?: string } | null;
  if (!e) return false;
  if (e.code === 11000) return true;
  return e.code === 1 && typeof e.message === 'string' && e.message.includes('UNIQUE constraint failed');
}
