import { BSON } from 'mongodb';
import { Types } from 'mongoose';

/**
 * Reads the named top-level fields of a raw BSON document (a cursor opened with `raw: true`),
 * decoding only those, into the object `BSON.deserialize` would give for them (numbers, strings,
 * ObjectIds, Dates, booleans, null; a field absent from the document is absent from the object).
 *
 * Why: the payouts CSV export reads 100,000 rows. Asking the store for a projection of the ~30
 * export fields made the development store (SecantusDB) re-encode every document field by field,
 * about as costly as the rest of the export together; reading whole documents raw is its fast path.
 * Deserializing those whole documents in the API (two nested addresses, fulfilment, tally…) then
 * cost more than the projection saved, so only the wanted elements are decoded here: the others
 * are skipped by their length. Profiled and measured in docs/adr/0036-csv-exports-read-raw-documents.md.
 * MongoDB: projects cheaply, so whole raw documents only cost it more bytes on the wire; same rows.
 *
 * Anything this does not decode exactly — a wanted field of another BSON type (a Decimal128, a
 * nested document, a 64-bit integer beyond 2^53), an element type it cannot skip, a malformed
 * document — falls back to the driver's own `BSON.deserialize` of the whole document, which is what
 * the cursor would have returned without `raw`.
 */
export function bsonFieldReader<T>(fields: readonly string[]): (doc: Uint8Array) => T {
  // Wanted names by byte length: an element's name is compared byte by byte only against the
  // wanted names of its length, so no string is made for a name that is not wanted.
  const byLength = new Map<number, Array<{ name: string; bytes: Buffer }>>();
  for (const name of new Set(fields)) {
    const bytes = Buffer.from(name, 'utf8');
    const list = byLength.get(bytes.length) ?? [];
    list.push({ name, bytes });
    byLength.set(bytes.length, list);
  }
  const wanted = new Set(fields);

  const fallback = (doc: Uint8Array): T => {
    const full = BSON.deserialize(doc) as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const name of wanted) if (name in full) out[name] = full[name];
    return out as T;
  };

  return (doc: Uint8Array): T => {
    const buf = Buffer.isBuffer(doc) ? doc : Buffer.from(doc.buffer, doc.byteOffset, doc.byteLength);
    const out: Record<string, unknown> = {};
    const end = buf.length - 1; // the document's closing 0
    if (buf.length < 5 || buf.readInt32LE(0) !== buf.length || buf[end] !== 0) return fallback(doc);
    let p = 4;
    while (p < end) {
      const type = buf[p++];
      const nameStart = p;
      while (p < end && buf[p] !== 0) p++;
      if (p >= end) return fallback(doc);
      const nameLength = p - nameStart;
      p++; // the name's 0
      const name = wantedName(byLength.get(nameLength), buf, nameStart);
      const size = valueSize(type, buf, p, end);
      if (size < 0 || p + size > end) return fallback(doc);
      if (name !== null) {
        const value = decode(type, buf, p, size);
        if (value === UNDECODED) return fallback(doc);
        out[name] = value;
      }
      p += size;
    }
    return out as T;
  };
}

function wantedName(
  candidates: Array<{ name: string; bytes: Buffer }> | undefined,
  buf: Buffer,
  at: number,
): string | null {
  if (!candidates) return null;
  for (const c of candidates) {
    let i = 0;
    while (i < c.bytes.length && c.bytes[i] === buf[at + i]) i++;
    if (i === c.bytes.length) return c.name;
  }
  return null;
}

/** The byte length of an element's value (BSON spec), or −1 for a type it does not skip. */
function valueSize(type: number, buf: Buffer, at: number, end: number): number {
  switch (type) {
    case 0x01: // double
    case 0x09: // UTC datetime
    case 0x11: // timestamp
    case 0x12: // int64
      return 8;
    case 0x02: // string
    case 0x0d: // JavaScript code
    case 0x0e: // symbol
      return at + 4 <= end ? 4 + buf.readInt32LE(at) : -1;
    case 0x03: // document
    case 0x04: // array
      return at + 4 <= end ? buf.readInt32LE(at) : -1;
    case 0x05: // binary: length, subtype, bytes
      return at + 4 <= end ? 5 + buf.readInt32LE(at) : -1;
    case 0x06: // undefined
    case 0x0a: // null
    case 0x7f: // max key
    case 0xff: // min key
      return 0;
    case 0x07: // ObjectId
      return 12;
    case 0x08: // boolean
      return 1;
    case 0x10: // int32
      return 4;
    case 0x13: // decimal128
      return 16;
    default: // regex, DBPointer, code with scope, unknown: the driver decodes the document
      return -1;
  }
}

const UNDECODED = Symbol('undecoded');
const TWO_32 = 2 ** 32;

/** A value as BSON.deserialize (default options) gives it, or UNDECODED. */
function decode(type: number, buf: Buffer, at: number, size: number): unknown {
  switch (type) {
    case 0x01:
      return buf.readDoubleLE(at);
    case 0x02:
      if (size < 5 || buf[at + size - 1] !== 0) return UNDECODED;
      return buf.toString('utf8', at + 4, at + size - 1);
    case 0x07:
      return new Types.ObjectId(Buffer.from(buf.subarray(at, at + 12))); // a copy: never pins the batch
    case 0x08:
      return buf[at] === 1;
    case 0x09: {
      const ms = buf.readInt32LE(at + 4) * TWO_32 + buf.readUInt32LE(at);
      return Number.isSafeInteger(ms) ? new Date(ms) : UNDECODED;
    }
    case 0x0a:
      return null;
    case 0x10:
      return buf.readInt32LE(at);
    case 0x12: {
      // the driver promotes an int64 to a number when it is exact, else gives a Long
      const n = buf.readInt32LE(at + 4) * TWO_32 + buf.readUInt32LE(at);
      return Number.isSafeInteger(n) ? n : UNDECODED;
    }
    default:
      return UNDECODED;
  }
}
