import { Logger } from '@nestjs/common';
import { Types } from 'mongoose';
import { DataCipher, keyId } from './data-cipher';
import { resealAll, type ResealTarget } from './reseal';

const OLD = '1'.repeat(64);
const NEW = '2'.repeat(64);
const cipher = (current: string, previous?: string) =>
  new DataCipher(
    { encryptionKey: current, previousEncryptionKey: previous },
    { jwtSecret: 'x'.repeat(40) },
    { nodeEnv: 'production' },
  );

/** A document with two sealed fields, one of them optional. */
interface Row {
  _id: Types.ObjectId;
  aEnc: string | null;
  bEnc: string | null;
}

/** The rows in memory, paged by `_id`, with a compare-and-set write that can be made to fail. */
class Rows implements ResealTarget<Row> {
  rows: Row[] = [];
  writes = 0;
  failOn?: Types.ObjectId;
  logger = new Logger('ResealSpec');
  what = 'A test value';
  async page(after: Types.ObjectId | null, limit: number) {
    return this.rows
      .filter((r) => !after || String(r._id) > String(after))
      .slice(0, limit)
      .map((r) => ({ ...r }));
  }
  fields(row: Row) {
    return [
      { purpose: 'vendor-tax-id' as const, binding: String(row._id), stored: row.aEnc },
      { purpose: 'vendor-date-of-birth' as const, binding: String(row._id), stored: row.bEnc },
    ];
  }
  async replace(before: Row, [aEnc, bEnc]: Array<string | null>) {
    if (this.failOn?.equals(before._id)) throw new Error('the store went away');
    const row = this.rows.find((r) => r._id.equals(before._id))!;
    if (row.aEnc !== before.aEnc || row.bEnc !== before.bEnc) return false;
    this.writes++;
    Object.assign(row, { aEnc, bEnc });
    return true;
  }
  logFields(row: Row, index: number) {
    return { id: String(row._id), index };
  }
  add(c: DataCipher, a: string | null, b: string | null): Row {
    const _id = new Types.ObjectId();
    const row = {
      _id,
      aEnc: a === null ? null : c.seal('vendor-tax-id', String(_id), a),
      bEnc: b === null ? null : c.seal('vendor-date-of-birth', String(_id), b),
    };
    this.rows.push(row);
    return row;
  }
}

const keyOf = (sealed: string | null) => sealed?.split('.')[1];

describe('resealAll (the one loop of secrets:rotate)', () => {
  beforeEach(() => jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined));
  afterEach(() => jest.restoreAllMocks());

  it('re-seals a row sealed under the old key under the new one; a current row is neither counted stale nor written', async () => {
    const repo = new Rows();
    const stale = repo.add(cipher(OLD), 'TAX-1', '1990-01-02');
    const current = repo.add(cipher(NEW), 'TAX-2', null);
    const currentBefore = { ...current };
    repo.add(cipher(NEW), null, null); // holds nothing: not a document of the report
    const report = await resealAll(cipher(NEW, OLD), repo);
    expect(report).toEqual({ documents: 2, resealed: 1, current: 1, unreadable: 0, skipped: 0 });
    expect(repo.writes).toBe(1);
    const newKey = keyId(Buffer.from(NEW, 'hex'));
    expect([keyOf(stale.aEnc), keyOf(stale.bEnc)]).toEqual([newKey, newKey]);
    const onlyNew = cipher(NEW);
    expect(onlyNew.open('vendor-tax-id', String(stale._id), stale.aEnc!)).toBe('TAX-1');
    expect(onlyNew.open('vendor-date-of-birth', String(stale._id), stale.bEnc!)).toBe('1990-01-02');
    expect(current).toEqual(currentBefore);
  });

  it('counts every document with countEmpty, and leaves a value no key opens as it is (logged)', async () => {
    const repo = new Rows();
    const lost = repo.add(cipher('3'.repeat(64)), 'LOST', null);
    const lostBefore = lost.aEnc;
    repo.add(cipher(NEW), null, null);
    const report = await resealAll(cipher(NEW, OLD), Object.assign(repo, { countEmpty: true }));
    expect(report).toEqual({ documents: 2, resealed: 0, current: 0, unreadable: 1, skipped: 0 });
    expect(lost.aEnc).toBe(lostBefore);
    expect(repo.writes).toBe(0);
    expect(Logger.prototype.warn).toHaveBeenCalledWith(
      { id: String(lost._id), index: 0 },
      'A test value opens under no configured key; left as it is',
    );
  });

  it('a run that fails mid-way is finished by running it again: nothing lost, nothing sealed twice', async () => {
    const repo = new Rows();
    const rows = Array.from({ length: 450 }, (_, i) => repo.add(cipher(OLD), `TAX-${i}`, null));
    repo.rows.sort((a, b) => String(a._id).localeCompare(String(b._id)));
    repo.failOn = repo.rows[300]._id;
    await expect(resealAll(cipher(NEW, OLD), repo)).rejects.toThrow('the store went away');
    expect(repo.writes).toBe(300);
    const newKey = keyId(Buffer.from(NEW, 'hex'));
    expect(repo.rows.filter((r) => keyOf(r.aEnc) === newKey)).toHaveLength(300);

    repo.failOn = undefined;
    expect(await resealAll(cipher(NEW, OLD), repo)).toEqual({
      documents: 450,
      resealed: 150,
      current: 300,
      unreadable: 0,
      skipped: 0,
    });
    const onlyNew = cipher(NEW);
    rows.forEach((r, i) => expect(onlyNew.open('vendor-tax-id', String(r._id), r.aEnc!)).toBe(`TAX-${i}`));
  });

  it('never overwrites a document changed since it was read: skipped, its newer value kept', async () => {
    const repo = new Rows();
    const row = repo.add(cipher(OLD), 'TAX-OLD', null);
    const newer = cipher(NEW).seal('vendor-tax-id', String(row._id), 'TAX-NEW');
    const page = repo.page.bind(repo);
    repo.page = async (after, limit) => {
      const docs = await page(after, limit);
      row.aEnc = newer; // written through the API after the read
      return docs;
    };
    expect(await resealAll(cipher(NEW, OLD), repo)).toEqual({
      documents: 1,
      resealed: 0,
      current: 0,
      unreadable: 0,
      skipped: 1,
    });
    expect(row.aEnc).toBe(newer);
  });
});
