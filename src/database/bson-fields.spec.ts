import fc from 'fast-check';
import { BSON, Decimal128, Long } from 'mongodb';
import { Types } from 'mongoose';
import { bsonFieldReader } from './bson-fields';

/** What the cursor without `raw` gives for the wanted fields: the driver's deserialize, filtered. */
function oracle(bytes: Uint8Array, fields: string[]): Record<string, unknown> {
  const full = BSON.deserialize(bytes) as Record<string, unknown>;
  return Object.fromEntries(fields.filter((f) => f in full).map((f) => [f, full[f]]));
}

describe('bsonFieldReader', () => {
  const FIELDS = [
    '_id',
    'vendorId',
    'name',
    'sales',
    'quantity',
    'orderId',
    'orderCreatedAt',
    'batchId',
    'paid',
  ];
  const read = bsonFieldReader<Record<string, unknown>>(FIELDS);

  it('decodes the wanted fields of a line item exactly as the driver does, skipping the rest', () => {
    const doc = {
      _id: new Types.ObjectId(),
      shopId: new Types.ObjectId(),
      shippingAddress: { city: 'Zürich', lines: ['a', 'b'] },
      vendorId: new Types.ObjectId(),
      name: 'Tote = bag ☂ "quoted", two\nlines',
      sales: -45,
      quantity: 2,
      orderId: 2 ** 40 + 3, // stored as a double beyond int32
      orderCreatedAt: new Date('2026-03-01T10:00:00.123Z'),
      tags: [1, 'x', null],
      blob: new BSON.Binary(Buffer.from([1, 2, 3])),
      batchId: null,
      paid: 0.1 + 0.2,
      big: Long.fromString('9007199254740993'),
      dec: Decimal128.fromString('1.005'),
    };
    const bytes = BSON.serialize(doc);
    const got = read(bytes);
    expect(got).toEqual(oracle(bytes, FIELDS));
    expect(String(got._id)).toBe(String(doc._id));
    expect(got.paid).toBe(0.30000000000000004);
    expect(got.orderCreatedAt).toEqual(doc.orderCreatedAt);
  });

  it('leaves a field absent from the document absent (not null, not undefined-valued)', () => {
    const got = read(BSON.serialize({ _id: new Types.ObjectId(), sales: 1 }));
    expect(Object.keys(got).sort()).toEqual(['_id', 'sales']);
  });

  it('keeps −0, int32 and int64 numbers as the driver gives them', () => {
    const bytes = BSON.serialize({ sales: -0, quantity: 7, orderId: Long.fromNumber(5_000_000_123) });
    const got = read(bytes);
    expect(Object.is(got.sales, -0)).toBe(true);
    expect(got).toEqual(oracle(bytes, FIELDS));
    expect(got.orderId).toBe(5_000_000_123);
  });

  it.each([
    ['an int64 beyond 2^53 (a Long)', { orderId: Long.fromString('9007199254740993') }],
    ['a Decimal128', { sales: Decimal128.fromString('1.005') }],
    ['a nested document', { name: { first: 'a' } }],
    ['a regular expression elsewhere (a type it does not skip)', { re: /x/i, name: 'n' }],
  ])('falls back to the driver for %s', (_what, doc) => {
    const bytes = BSON.serialize(doc);
    expect(read(bytes)).toEqual(oracle(bytes, FIELDS));
  });

  it('agrees with BSON.deserialize on arbitrary documents (property)', () => {
    const value = fc.oneof(
      fc.double(),
      fc.integer(),
      fc.string(),
      fc.string({ unit: 'grapheme' }),
      fc.boolean(),
      fc.constant(null),
      fc.date({ min: new Date(-8.64e15), max: new Date(8.64e15) }),
      fc.constant(new Types.ObjectId()),
      fc.array(fc.integer(), { maxLength: 3 }),
      fc.dictionary(fc.string({ maxLength: 4 }), fc.integer(), { maxKeys: 3 }),
      fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map((b) => Long.fromBigInt(b)),
    );
    const key = fc.oneof(fc.constantFrom(...FIELDS), fc.string({ minLength: 1, maxLength: 12 }));
    fc.assert(
      fc.property(fc.dictionary(key, value, { maxKeys: 14 }), (doc) => {
        const clean = Object.fromEntries(
          Object.entries(doc).filter(([k]) => !k.includes('\0') && !k.startsWith('$') && !k.includes('.')),
        );
        const bytes = BSON.serialize(clean);
        expect(read(bytes)).toEqual(oracle(bytes, FIELDS));
      }),
      { numRuns: 3000 },
    );
  });

  it('reads a Uint8Array that is not a Buffer, and falls back on a malformed document', () => {
    const bytes = BSON.serialize({ name: 'x', sales: 2 });
    expect(read(new Uint8Array(bytes))).toEqual({ name: 'x', sales: 2 });
    const cut = Buffer.from(bytes);
    cut.writeInt32LE(cut.length + 5, 0);
    expect(() => read(cut)).toThrow(); // the driver's own error, as a non-raw cursor would give
  });
});
