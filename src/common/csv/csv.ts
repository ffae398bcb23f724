import { stringify as stringifySync } from 'csv-stringify/sync';
import { PassThrough, pipeline, Readable, Transform } from 'node:stream';
import { formatAmount } from '../money';

/**
 * How a column's values are written. `amount`: two decimals, half-up (`-45.00`); `integer`: digits;
 * `date`: ISO 8601 UTC; `text`: anything a person or the store platform typed (names, titles, SKUs,
 * comments, ids), neutralised against formula injection.
 */
export type CsvKind = 'text' | 'amount' | 'integer' | 'date';

export interface CsvColumn<R> {
  header: string;
  kind: CsvKind;
  value: (row: R) => unknown;
  /** What the column holds (the OpenAPI description of the text/csv response lists it). */
  description: string;
}

/** The characters a spreadsheet reads as the start of a formula (OWASP CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A text cell that a spreadsheet would evaluate (`=HYPERLINK(…)`, `+1+cmd|…`, `@SUM(…)`, a
 * leading tab or CR) is prefixed with `'`, which spreadsheets show as text. Amounts are never
 * passed through this (a refund's `-45.00` must stay a number); only text columns are.
 */
export function neutraliseFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** One cell as its column writes it; null and undefined are empty cells. */
export function csvCell(kind: CsvKind, value: unknown): string {
  if (value === null || value === undefined) return '';
  switch (kind) {
    case 'amount':
      return formatAmount(value as number);
    case 'integer':
      return String(value);
    case 'date':
      return value instanceof Date ? value.toISOString() : String(value);
    case 'text':
      return neutraliseFormula(String(value));
  }
}

/** The record of one row: its cells in column order. */
export function csvRecord<R>(columns: ReadonlyArray<CsvColumn<R>>, row: R): string[] {
  return columns.map((c) => csvCell(c.kind, c.value(row)));
}

/** `header1,header2,…` for the OpenAPI description of a text/csv response. */
export function describeColumns<R>(columns: ReadonlyArray<CsvColumn<R>>): string {
  return columns.map((c) => `\`${c.header}\` (${c.kind}): ${c.description}`).join('; ');
}

/** Rows stringified per chunk: one write per ~12 KB instead of one per row. */
const ROWS_PER_CHUNK = 50;
/**
 * Rows read ahead of the formatting: three export cursor batches (EXPORT_BATCH_SIZE, 100), so the
 * next getMore is in flight while these are formatted, and few enough to die young (RSS).
 */
const READ_AHEAD_ROWS = 300;

/**
 * RFC 4180 text of `rows` (any object-mode Readable: a database cursor streams straight through),
 * with a header row and CRLF line ends; quoting is csv-stringify's (fields holding a comma, quote,
 * CR or LF are quoted, quotes doubled; see `quoted_match`). Rows are stringified in chunks of
 * ROWS_PER_CHUNK with csv-stringify's sync API: the streaming API's per-record stream plumbing was
 * most of an export's CPU (profiled). Backpressure
 * runs end to end: the cursor fetches its next batch only as the client reads. `done` is told the
 * row count once the last row is written, or the error that stopped it (a client gone, the
 * database failing mid-stream).
 */
export function csvStream<R>(
  columns: ReadonlyArray<CsvColumn<R>>,
  rows: Readable,
  done?: (rows: number, err: Error | null) => void,
): Readable {
  let count = 0;
  let pending: string[][] = [];
  let header = true;
  const options = {
    columns: columns.map((c) => c.header),
    record_delimiter: 'windows' as const,
    // csv-stringify quotes a field holding the record delimiter (CRLF) but not a bare LF or CR,
    // which spreadsheets and most readers still take for a line break: quote those too.
    quoted_match: /[\r\n]/,
  };
  const drain = (): string => {
    const text = stringifySync(pending, { ...options, header });
    header = false;
    pending = [];
    return text;
  };
  const out = new Transform({
    writableObjectMode: true,
    transform(row: R, _enc, cb) {
      count++;
      pending.push(csvRecord(columns, row));
      cb(null, pending.length >= ROWS_PER_CHUNK ? drain() : undefined);
    },
    flush(cb) {
      // the header alone when there is no row
      cb(null, pending.length > 0 || header ? drain() : undefined);
    },
  });
  // A read-ahead buffer of two cursor batches: the driver asks the database for the next batch
  // while this process is still formatting the previous one (the two run on different processes).
  const ahead = new PassThrough({ objectMode: true, highWaterMark: READ_AHEAD_ROWS });
  pipeline(rows, ahead, out, (err) => done?.(count, err ?? null));
  return out;
}
