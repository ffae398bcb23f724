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

/**
 * The characters a spreadsheet reads as the start of a formula (OWASP CSV injection), with their
 * full-width forms (U+FF1D ＝, U+FF0B ＋, U+FF0D －, U+FF20 ＠), which Apple Numbers and East Asian
 * input in Excel normalise to `= + - @`: the same set csv-stringify's `escape_formulas` covers.
 */
const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

/**
 * A text cell that a spreadsheet would evaluate (`=HYPERLINK(…)`, `+1+cmd|…`, `@SUM(…)`, `＝1+1`, a
 * leading tab or CR) is prefixed with `'`, which spreadsheets show as text. Amounts are never
 * passed through this (a refund's `-45.00` must stay a number); only text columns are. Every CSV
 * writer (exports, statements, the bank file) neutralises its text cells with this one function.
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
 * Rows read ahead of the formatting: one export cursor batch (EXPORT_BATCH_SIZE, 100), so the next
 * getMore is in flight while these are formatted, and few enough to die young (RSS). 300 and 50
 * measured the same rows/s.
 */
const READ_AHEAD_ROWS = 100;

/**
 * A cell csv-stringify would quote with csvStream's options: one holding the delimiter, the quote,
 * a CR or an LF. A row with none of them is its cells joined by commas, exactly as csv-stringify
 * writes it (property-tested against csv-stringify in csv.spec.ts).
 */
const NEEDS_QUOTING = /[",\r\n]/;

/**
 * RFC 4180 text of `rows` (any object-mode Readable: a database cursor streams straight through),
 * with a header row and CRLF line ends. Quoting is csv-stringify's: the header and every row with a
 * cell that needs quoting (a comma, quote, CR or LF; quotes doubled, see `quoted_match`) go through
 * its sync API; a row whose cells need none is joined directly. Why: csv-stringify decides quoting
 * per field with several arrays and closures allocated per field; at ~30 cells a row that was the
 * largest part of a 100,000-row export's CPU and garbage (profiled, docs/adr/0036-csv-exports-read-raw-documents.md), for
 * rows (ids, amounts, dates, plain names) where its answer is always "no quotes".
 * Rows are written in chunks of ROWS_PER_CHUNK. Backpressure runs end to end: the cursor fetches
 * its next batch only as the client reads. `done` is told the row count once the last row is
 * written, or the error that stopped it (a client gone, the database failing mid-stream).
 */
export function csvStream<R>(
  columns: ReadonlyArray<CsvColumn<R>>,
  rows: Readable,
  done?: (rows: number, err: Error | null) => void,
): Readable {
  let count = 0;
  const options = {
    columns: columns.map((c) => c.header),
    record_delimiter: 'windows' as const,
    // csv-stringify quotes a field holding the record delimiter (CRLF) but not a bare LF or CR,
    // which spreadsheets and most readers still take for a line break: quote those too.
    quoted_match: /[\r\n]/,
  };
  const rowOptions = { ...options, header: false };
  // the header row, written before the first chunk (alone when there is no row)
  let text = stringifySync([], { ...options, header: true });
  let inChunk = 0;
  const take = (): string => {
    const chunk = text;
    text = '';
    inChunk = 0;
    return chunk;
  };
  const out = new Transform({
    writableObjectMode: true,
    transform(row: R, _enc, cb) {
      count++;
      const cells = csvRecord(columns, row);
      text += cells.some((c) => NEEDS_QUOTING.test(c))
        ? stringifySync([cells], rowOptions)
        : `${cells.join(',')}\r\n`;
      cb(null, ++inChunk >= ROWS_PER_CHUNK ? take() : undefined);
    },
    flush(cb) {
      cb(null, text.length > 0 ? take() : undefined);
    },
  });
  // A read-ahead buffer of cursor batches: the driver asks the database for the next batch
  // while this process is still formatting the previous one (the two run on different processes).
  const ahead = new PassThrough({ objectMode: true, highWaterMark: READ_AHEAD_ROWS });
  pipeline(rows, ahead, out, (err) => done?.(count, err ?? null));
  return out;
}
