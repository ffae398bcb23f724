import fc from 'fast-check';
import { stringify } from 'csv-stringify/sync';
import { Readable } from 'node:stream';
import { parseCsv } from '../../../test/support/csv';
import { formatAmount } from '../money';
import { csvCell, CsvColumn, csvRecord, csvStream, neutraliseFormula } from './csv';
import { wantsCsv } from './content-negotiation';

async function text(stream: Readable): Promise<string> {
  let out = '';
  for await (const chunk of stream) out += String(chunk);
  return out;
}

describe('CSV', () => {
  it.each([
    ['=HYPERLINK("http://x","y")', `'=HYPERLINK("http://x","y")`],
    ['+1+1', "'+1+1"],
    ['-2+3', "'-2+3"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tcmd', "'\tcmd"],
    ['\rcmd', "'\rcmd"],
    // full-width forms, which spreadsheets (Numbers, Excel with IME input) read as = + - @
    ['\uFF1DHYPERLINK("http://x")', `'\uFF1DHYPERLINK("http://x")`],
    ['\uFF0B1\uFF0B1', "'\uFF0B1\uFF0B1"],
    ['\uFF0D2\uFF0B3', "'\uFF0D2\uFF0B3"],
    ['\uFF20SUM(A1)', "'\uFF20SUM(A1)"],
    ['Tote = bag', 'Tote = bag'],
    ['Tote \uFF1D bag', 'Tote \uFF1D bag'],
    ['', ''],
  ])('neutralises a text cell starting with a formula character: %j', (input, expected) => {
    expect(neutraliseFormula(input)).toBe(expected);
    expect(csvCell('text', input)).toBe(expected);
  });

  it('writes amounts as plain two-decimal numbers, half-up, never neutralised', () => {
    expect(csvCell('amount', -45)).toBe('-45.00');
    expect(csvCell('amount', 1.005)).toBe('1.01'); // 1.005 is 1.00499… as a double; decimal half-up reads "1.005"
    expect(csvCell('amount', -0.005)).toBe('-0.01');
    expect(csvCell('amount', 1e21)).toBe('1000000000000000000000.00');
    expect(csvCell('amount', -0)).toBe('0.00');
    expect(formatAmount(0.1 + 0.2)).toBe('0.30');
    expect(csvCell('amount', null)).toBe('');
    expect(csvCell('integer', 9007199254740993n)).toBe('9007199254740993');
    expect(csvCell('date', new Date('2026-03-01T10:00:00Z'))).toBe('2026-03-01T10:00:00.000Z');
  });

  it('streams RFC 4180: header row, CRLF, quoted commas, quotes and newlines, a row count at the end', async () => {
    type Row = { name: string; amount: number };
    const columns: CsvColumn<Row>[] = [
      { header: 'name', kind: 'text', value: (r) => r.name, description: 'n' },
      { header: 'amount', kind: 'amount', value: (r) => r.amount, description: 'a' },
    ];
    const rows: Row[] = [
      { name: 'a, b', amount: 1 },
      { name: 'say "hi"', amount: -45 },
      { name: 'two\nlines', amount: 0.5 },
      { name: '=1+1', amount: 2 },
    ];
    let counted = -1;
    const out = await text(csvStream(columns, Readable.from(rows), (n, err) => (counted = err ? -2 : n)));
    expect(out).toBe(
      'name,amount\r\n"a, b",1.00\r\n"say ""hi""",-45.00\r\n"two\nlines",0.50\r\n\'=1+1,2.00\r\n',
    );
    expect(parseCsv(out)).toEqual([
      ['name', 'amount'],
      ['a, b', '1.00'],
      ['say "hi"', '-45.00'],
      ['two\nlines', '0.50'],
      ["'=1+1", '2.00'],
    ]);
    await new Promise((r) => setImmediate(r));
    expect(counted).toBe(4);
  });

  it('writes the header alone when there is no row', async () => {
    const columns: CsvColumn<{ a: string }>[] = [
      { header: 'a', kind: 'text', value: (r) => r.a, description: 'a' },
      { header: 'b', kind: 'amount', value: () => 1, description: 'b' },
    ];
    expect(await text(csvStream(columns, Readable.from([])))).toBe('a,b\r\n');
  });

  it('writes every row exactly as csv-stringify writes the whole table (plain rows joined, the rest through it)', async () => {
    type Row = { a: string; b: string; n: number | null };
    const columns: CsvColumn<Row>[] = [
      { header: 'a', kind: 'text', value: (r) => r.a, description: 'a' },
      { header: 'n', kind: 'amount', value: (r) => r.n, description: 'n' },
      { header: 'b', kind: 'text', value: (r) => r.b, description: 'b' },
    ];
    // the oracle: csv-stringify over all records at once, with the options csvStream documents
    const oracle = (rows: Row[]) =>
      stringify(
        rows.map((r) => csvRecord(columns, r)),
        { header: true, columns: ['a', 'n', 'b'], record_delimiter: 'windows', quoted_match: /[\r\n]/ },
      );
    const cell = fc.string({
      unit: fc.constantFrom('a', ' ', ',', '"', '\r', '\n', 'é', '=', '-', "'", ';', '\t'),
    });
    const row = fc.record({
      a: cell,
      b: cell,
      n: fc.option(fc.integer({ min: -1e9, max: 1e9 }).map((c) => c / 100)),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(row, { maxLength: 130 }), async (rows) => {
        expect(await text(csvStream(columns, Readable.from(rows)))).toBe(oracle(rows));
      }),
      { numRuns: 300 },
    );
  });

  it('reports the error that stops a stream (a cursor failing mid-way)', async () => {
    async function* failing() {
      yield { name: 'x', amount: 1 };
      throw new Error('cursor died');
    }
    let seen: Error | null = null;
    const columns: CsvColumn<{ name: string }>[] = [
      { header: 'name', kind: 'text', value: (r) => r.name, description: 'n' },
    ];
    const stream = csvStream(columns, Readable.from(failing()), (_n, err) => (seen = err));
    await expect(text(stream)).rejects.toThrow('cursor died');
    expect(seen).not.toBeNull();
  });

  it.each([
    [undefined, false],
    ['application/json', false],
    ['*/*', false],
    ['text/csv', true],
    ['text/csv; charset=utf-8', true],
    ['application/json, text/csv', false],
    ['text/csv, application/json', true],
    ['application/json;q=0.5, text/csv', true],
    ['text/csv;q=0', false],
    ['TEXT/CSV', true],
  ])('Accept %j asks for CSV: %s', (accept, expected) => {
    expect(wantsCsv(accept)).toBe(expected);
  });
});
