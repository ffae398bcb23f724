import { NotFoundError } from '../../common/errors';
import { asReal, OTHER_SHOP, SHOP } from '../../../test/fakes/fake';
import {
  Crash,
  FakeDocumentCounters,
  FakeDocumentNumbers,
  FakeNumberedDocuments,
  FakeShopLegal,
  Writes,
} from '../../../test/fakes/document-numbering.fake';
import type { NumberedDocumentType } from '../document.types';
import type { DocumentCountersRepository } from './document-counters.repository';
import { DocumentNumberingService } from './document-numbering.service';
import type { DocumentNumbersRepository } from './document-numbers.repository';
import type { NumberedDocumentsRepository } from './numbered-documents.repository';

const AT = new Date('2026-06-15T10:00:00.000Z');

function setup() {
  const writes = new Writes();
  const counters = new FakeDocumentCounters(writes);
  const register = new FakeDocumentNumbers(writes);
  const documents = new FakeNumberedDocuments(writes);
  const legal = new FakeShopLegal();
  const service = new DocumentNumberingService(
    asReal<DocumentCountersRepository>(counters),
    asReal<DocumentNumbersRepository>(register),
    asReal<NumberedDocumentsRepository>(documents),
    legal,
  );
  return { writes, counters, register, documents, legal, service };
}
type Setup = ReturnType<typeof setup>;

/** The series as stored: every document's seq, the register's, and the counter. */
async function series(
  s: Setup,
  type: NumberedDocumentType = 'commission_invoice',
  year = 2026,
  scope = SHOP,
) {
  const docs = s.documents.docs
    .filter((d) => d.shopId === scope.shopId && d.series === type && d.year === year)
    .map((d) => d.seq!)
    .sort((a, b) => a - b);
  const registered = (await s.register.list(scope, { series: type, year })).map((r) => r.seq);
  const counter = await s.counters.find(scope, { series: type, year });
  return { docs, registered, counter };
}

const oneTo = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

describe('DocumentNumberingService', () => {
  it('numbers a series from 000001 in the format {prefix}{year}-{seq:06}, once per document', async () => {
    const s = setup();
    const [a, b] = [s.documents.add(SHOP), s.documents.add(SHOP)];
    expect(await s.service.assign(SHOP, a, 'commission_invoice', AT)).toBe('INV-2026-000001');
    expect(await s.service.assign(SHOP, b, 'commission_invoice', AT)).toBe('INV-2026-000002');
    const writes = s.writes.log.length;
    // again: the same number, nothing written, the series not moved on
    expect(await s.service.assign(SHOP, a, 'commission_invoice', AT)).toBe('INV-2026-000001');
    expect(s.writes.log.length).toBe(writes);
    expect(await series(s)).toEqual({ docs: [1, 2], registered: [1, 2], counter: { holder: null, next: 3 } });
    expect(s.documents.get(a)).toMatchObject({ series: 'commission_invoice', year: 2026, seq: 1 });
  });

  it('keeps one series per type with the default prefixes, or the shop legal settings’ prefixes', async () => {
    const s = setup();
    const got: string[] = [];
    for (const type of ['commission_invoice', 'credit_note', 'self_billed_invoice', 'credit_note'] as const)
      got.push(await s.service.assign(SHOP, s.documents.add(SHOP), type, AT));
    expect(got).toEqual(['INV-2026-000001', 'CN-2026-000001', 'SB-2026-000001', 'CN-2026-000002']);

    s.legal.prefixes.set(OTHER_SHOP.shopId, { commission_invoice: 'F/', self_billed_invoice: 'AUTO-' });
    expect(await s.service.assign(OTHER_SHOP, s.documents.add(OTHER_SHOP), 'commission_invoice', AT)).toBe(
      'F/2026-000001',
    );
    expect(await s.service.assign(OTHER_SHOP, s.documents.add(OTHER_SHOP), 'self_billed_invoice', AT)).toBe(
      'AUTO-2026-000001',
    );
    expect(await s.service.assign(OTHER_SHOP, s.documents.add(OTHER_SHOP), 'credit_note', AT)).toBe(
      'CN-2026-000001',
    );
  });

  it('starts each calendar year (UTC) of issue at 000001, the old year’s series going on by itself', async () => {
    const s = setup();
    const assign = (at: string) =>
      s.service.assign(SHOP, s.documents.add(SHOP), 'commission_invoice', new Date(at));
    expect(await assign('2026-12-31T23:59:59.999Z')).toBe('INV-2026-000001');
    expect(await assign('2027-01-01T00:00:00.000Z')).toBe('INV-2027-000001');
    // 00:30 in Berlin on 1 January is still 2026 in UTC
    expect(await assign('2026-12-31T23:30:00.000+00:00')).toBe('INV-2026-000002');
    expect(await assign('2027-03-01T08:00:00.000Z')).toBe('INV-2027-000002');
    expect((await series(s, 'commission_invoice', 2027)).counter).toEqual({ holder: null, next: 3 });
  });

  it('keeps shops apart: another shop’s document is unknown, and its series does not move', async () => {
    const s = setup();
    const foreign = s.documents.add(OTHER_SHOP);
    await expect(s.service.assign(SHOP, foreign, 'commission_invoice', AT)).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await expect(s.service.assign(SHOP, 'not-an-id', 'commission_invoice', AT)).rejects.toBeInstanceOf(
      NotFoundError,
    );
    expect(s.writes.log).toEqual([]);
    expect(await s.service.assign(OTHER_SHOP, foreign, 'commission_invoice', AT)).toBe('INV-2026-000001');
    expect(await s.service.assign(SHOP, s.documents.add(SHOP), 'commission_invoice', AT)).toBe(
      'INV-2026-000001',
    );
  });

  it('refuses to number an unnumbered kind', async () => {
    const s = setup();
    const id = s.documents.add(SHOP);
    await expect(
      s.service.assign(SHOP, id, 'packing_slip' as unknown as NumberedDocumentType, AT),
    ).rejects.toThrow('packing_slip documents are not numbered');
    expect(s.writes.log).toEqual([]);
  });

  it('numbers 20 documents issued at once 1..20, in the order their claims succeeded', async () => {
    const s = setup();
    const ids = Array.from({ length: 20 }, () => s.documents.add(SHOP));
    const numbers = await Promise.all(ids.map((id) => s.service.assign(SHOP, id, 'commission_invoice', AT)));
    expect(numbers.map((n) => Number(n.slice(-6))).sort((a, b) => a - b)).toEqual(oneTo(20));
    // claim order = number order
    expect(s.counters.claims.map((id) => s.documents.get(id).seq)).toEqual(oneTo(20));
    expect(await series(s)).toEqual({
      docs: oneTo(20),
      registered: oneTo(20),
      counter: { holder: null, next: 21 },
    });
  });

  it('gives a document asked for twice at once one number, and the next document the next one', async () => {
    const s = setup();
    const [a, b] = [s.documents.add(SHOP), s.documents.add(SHOP)];
    const got = await Promise.all([
      s.service.assign(SHOP, a, 'credit_note', AT),
      s.service.assign(SHOP, a, 'credit_note', AT),
      s.service.assign(SHOP, a, 'credit_note', AT),
    ]);
    expect(got).toEqual(['CN-2026-000001', 'CN-2026-000001', 'CN-2026-000001']);
    expect(await s.service.assign(SHOP, b, 'credit_note', AT)).toBe('CN-2026-000002');
    expect(await series(s, 'credit_note')).toEqual({
      docs: [1, 2],
      registered: [1, 2],
      counter: { holder: null, next: 3 },
    });
  });

  it('frees unused a slot held again by a numbered document (a repeated call that read it unnumbered)', async () => {
    const s = setup();
    const [a, b] = [s.documents.add(SHOP), s.documents.add(SHOP)];
    expect(await s.service.assign(SHOP, a, 'credit_note', AT)).toBe('CN-2026-000001');
    // the repeated call read `a` before it was numbered and claimed the slot after it was (then died)
    s.counters.rows.get(`${SHOP.shopId}/credit_note/2026`)!.holder = s.documents.get(a)._id;
    expect(await s.service.assign(SHOP, b, 'credit_note', AT)).toBe('CN-2026-000002');
    expect(s.writes.log.slice(-5)).toEqual([
      `release ${a} 2`,
      `claim ${b}`,
      `register ${b} 2`,
      `number ${b} CN-2026-000002`,
      `advance ${b} 2`,
    ]);
    expect(await series(s, 'credit_note')).toEqual({
      docs: [1, 2],
      registered: [1, 2],
      counter: { holder: null, next: 3 },
    });
  });

  // The writes of one number, in order: claim (1), register (2), number on the document (3), advance (4).
  describe.each([
    [1, 'claim'],
    [2, 'register'],
    [3, 'number'],
    [4, 'advance'],
  ])('killed right after write %i (%s)', (n, what) => {
    async function killedHolder(s: Setup) {
      const first = s.documents.add(SHOP);
      await s.service.assign(SHOP, first, 'commission_invoice', AT); // 000001, cleanly
      const a = s.documents.add(SHOP);
      s.writes.crashAfter(n);
      await expect(s.service.assign(SHOP, a, 'commission_invoice', AT)).rejects.toBeInstanceOf(Crash);
      expect(s.writes.log.at(-1)).toMatch(new RegExp(`^${what} `));
      return a;
    }

    it('the same document asked again finishes its number: no gap, no duplicate', async () => {
      const s = setup();
      const a = await killedHolder(s);
      expect(await s.service.assign(SHOP, a, 'commission_invoice', AT)).toBe('INV-2026-000002');
      expect(await s.service.assign(SHOP, s.documents.add(SHOP), 'commission_invoice', AT)).toBe(
        'INV-2026-000003',
      );
      expect(await series(s)).toEqual({
        docs: [1, 2, 3],
        registered: [1, 2, 3],
        counter: { holder: null, next: 4 },
      });
    });

    it('the next document finishes the dead holder’s number first, then takes the next one', async () => {
      const s = setup();
      const a = await killedHolder(s);
      expect(await s.service.assign(SHOP, s.documents.add(SHOP), 'commission_invoice', AT)).toBe(
        'INV-2026-000003',
      );
      expect(s.documents.get(a).number).toBe('INV-2026-000002');
      expect(await s.service.assign(SHOP, a, 'commission_invoice', AT)).toBe('INV-2026-000002');
      expect(await series(s)).toEqual({
        docs: [1, 2, 3],
        registered: [1, 2, 3],
        counter: { holder: null, next: 4 },
      });
    });

    it('a helper killed while finishing is finished by the next call', async () => {
      const s = setup();
      const a = await killedHolder(s);
      const b = s.documents.add(SHOP);
      // b helps a (its remaining writes) and dies after its first write
      s.writes.crashAfter(1);
      await expect(s.service.assign(SHOP, b, 'commission_invoice', AT)).rejects.toBeInstanceOf(Crash);
      const c = s.documents.add(SHOP);
      const [nb, nc] = await Promise.all([
        s.service.assign(SHOP, b, 'commission_invoice', AT),
        s.service.assign(SHOP, c, 'commission_invoice', AT),
      ]);
      expect(s.documents.get(a).seq).toBe(2);
      expect([nb, nc].sort()).toEqual(['INV-2026-000003', 'INV-2026-000004']);
      expect(await series(s)).toEqual({
        docs: [1, 2, 3, 4],
        registered: [1, 2, 3, 4],
        counter: { holder: null, next: 5 },
      });
    });
  });

  it('refuses to put a number on a second document when the register holds it for another', async () => {
    const s = setup();
    const [a, b] = [s.documents.add(SHOP), s.documents.add(SHOP)];
    // a register row of number 1 for `a`, whose document never got it (an invariant broken by hand)
    await s.register.register(
      SHOP,
      { series: 'commission_invoice', year: 2026 },
      {
        documentId: s.documents.get(a)._id,
        seq: 1,
        number: 'INV-2026-000001',
      },
    );
    await expect(s.service.assign(SHOP, b, 'commission_invoice', AT)).rejects.toThrow(
      'commission_invoice 2026 number 1 is registered to another document: refusing a duplicate',
    );
    expect(s.documents.get(b).number).toBeNull();
  });
});
