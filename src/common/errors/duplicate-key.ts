/**
 * The one test for "a unique index refused this write": code 11000. SecantusDB (dev/CI) answers it
 * for insert, update, findAndModify and bulkWrite (checked 2026-11-27). FerretDB's code-1 answers
 * are no longer recognised: FerretDB is not a supported store (docs/adr/0037).
 * MongoDB: answers 11000 for inserts and updates alike (a bulk write lists it per refused statement).
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
}

interface DriverError extends DriverCode {
  writeErrors?: Array<DriverCode & { index?: number; err?: DriverCode }>;
}

function isDuplicateCode(e: DriverCode | undefined): boolean {
  return e?.code === 11000;
}
