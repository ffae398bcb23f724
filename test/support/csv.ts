/**
 * A small RFC 4180 reader for tests, written independently of the CSV library the app uses: fields
 * separated by commas, records by CRLF, a quoted field may hold commas, CR, LF and doubled quotes.
 * Throws on anything RFC 4180 does not allow (a bare LF record end, a quote inside an unquoted
 * field, text after a closing quote), so a test reading the app's output also checks its framing.
 */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    let field = '';
    if (text[i] === '"') {
      i++;
      for (;;) {
        if (i >= n) throw new Error('unterminated quoted field');
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        field += text[i++];
      }
      if (i < n && text[i] !== ',' && text[i] !== '\r') throw new Error(`text after a closing quote at ${i}`);
    } else {
      while (i < n && text[i] !== ',' && text[i] !== '\r') {
        if (text[i] === '"') throw new Error(`quote inside an unquoted field at ${i}`);
        if (text[i] === '\n') throw new Error(`bare LF at ${i}`);
        field += text[i++];
      }
    }
    record.push(field);
    if (i >= n) throw new Error('the last record does not end with CRLF');
    if (text[i] === ',') {
      i++;
      continue;
    }
    if (text[i] !== '\r' || text[i + 1] !== '\n') throw new Error(`record end is not CRLF at ${i}`);
    i += 2;
    records.push(record);
    record = [];
  }
  return records;
}

/** Records as objects keyed by the header row. */
export function csvObjects(text: string): { header: string[]; rows: Array<Record<string, string>> } {
  const [header, ...rest] = parseCsv(text);
  return {
    header,
    rows: rest.map((r) => {
      if (r.length !== header.length)
        throw new Error(`record of ${r.length} fields, header has ${header.length}`);
      return Object.fromEntries(header.map((h, i) => [h, r[i]]));
    }),
  };
}
