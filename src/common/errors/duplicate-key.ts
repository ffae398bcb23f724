/**
 * The one test for "a unique index refused this write". MongoDB answers code 11000 for inserts and
 * updates alike (a bulk insert lists it per refused document in `writeErrors`); FerretDB (dev/CI)
 * does so for inserts only and reports an update that would duplicate a unique key as code 1 with
 * its backend's message (SQLite: "UNIQUE constraint failed"; PostgreSQL: "duplicate key value
 * violates unique constraint", SQLSTATE 23505).
 */
export function isDuplicateKeyError(err: unknown): boolean {
  const e = err as DriverError | null | undefined;
  if (!e) return false;
  if (isDuplicateCode(e)) return true;
  return !!e.writeErrors?.some((w) => isDuplicateCode(w) || isDuplicateCode(w.err));
}

/**
 * The positions (in the inserted array) of the documents an unordered bulk insert refused as
 * duplicates; null when the error is anything else (or also refused something for another reason).
 */
export function duplicateKeyIndexes(err: unknown): number[] | null {
  const writeErrors = (err as DriverError | null | undefined)?.writeErrors;
  if (!writeErrors?.length || writeErrors.some((w) => !isDuplicateCode(w) && !isDuplicateCode(w.err)))
    return null;
  return writeErrors.map((w) => w.index ?? -1);
}

interface DriverCode {
  code?: number;
  message?: string;
}

interface DriverError extends DriverCode {
  writeErrors?: Array<DriverCode & { index?: number; err?: DriverCode }>;
}

function isDuplicateCode(e: DriverCode | undefined): boolean {
  if (!e) return false;
  if (e.code === 11000) return true;
  return (
    e.code === 1 &&
    typeof e.message === 'string' &&
    (e.message.includes('UNIQUE constraint failed') || e.message.includes('violates unique constraint'))
  );
}
