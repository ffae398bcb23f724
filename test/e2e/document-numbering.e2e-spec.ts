import { getModelToken } from '@nestjs/mongoose';
import { Test, TestingModule } from '@nestjs/testing';
import { Model, Types } from 'mongoose';
import { AppModule } from '../../src/app.module';
import { NotFoundError } from '../../src/common/errors';
import { shopScope, type ShopScope } from '../../src/common/tenancy';
import { DocumentCounter } from '../../src/documents/numbering/document-counter.schema';
import { DocumentNumberRecord } from '../../src/documents/numbering/document-number.schema';
import { DocumentCountersRepository } from '../../src/documents/numbering/document-counters.repository';
import { DocumentNumberingModule } from '../../src/documents/numbering/document-numbering.module';
import { DocumentNumbersRepository } from '../../src/documents/numbering/document-numbers.repository';
import { NumberedDocument } from '../../src/documents/numbering/numbered-document.schema';
import { NumberedDocumentsRepository } from '../../src/documents/numbering/numbered-documents.repository';
import { DOCUMENT_NUMBERING, type DocumentNumbering } from '../../src/documents/document-numbering.port';
import type { NumberedDocumentType } from '../../src/documents/document.types';
import { ShopLegalService } from '../../src/shops/shop-legal.service';
import { ShopsService } from '../../src/shops/shops.service';
import { uniqueDomain } from '../support/factory';

/**
 * DESIGN §14 numbering against the real store, through the Nest wiring the documents feature uses
 * (the DOCUMENT_NUMBERING port): documents issued at once get 1..N in the order their claims
 * succeeded, shops apart. The crash points are the unit tests' and the fault test's (numbering).
 */
describe('document numbering (real store)', () => {
  let moduleRef: TestingModule;
  let numbering: DocumentNumbering;
  let counters: DocumentCountersRepository;
  let register: DocumentNumbersRepository;
  let documents: NumberedDocumentsRepository;
  let docModel: Model<NumberedDocument>;
  const AT = new Date('2026-06-15T10:00:00.000Z');

  beforeAll(async () => {
    moduleRef = await Test.createTestingModule({
      imports: [AppModule.forRole('cli'), DocumentNumberingModule],
    }).compile();
    await moduleRef.init();
    numbering = moduleRef.get<DocumentNumbering>(DOCUMENT_NUMBERING);
    counters = moduleRef.get(DocumentCountersRepository);
    register = moduleRef.get(DocumentNumbersRepository);
    documents = moduleRef.get(NumberedDocumentsRepository);
    docModel = moduleRef.get(getModelToken(NumberedDocument.name));
  });

  afterAll(async () => {
    await moduleRef?.close();
  });

  async function newShop(): Promise<ShopScope> {
    const created = await moduleRef.get(ShopsService).create({ domain: uniqueDomain('numbering') });
    return shopScope(created.shopId);
  }

  /** Unnumbered documents of the shop, as the documents feature stores them before numbering: one
   * per batch (the documents' unique key is shop, batch, vendor, kind, order). */
  async function newDocuments(scope: ShopScope, n: number): Promise<string[]> {
    const rows = Array.from({ length: n }, () => ({
      _id: new Types.ObjectId(),
      shopId: new Types.ObjectId(scope.shopId),
      batchId: new Types.ObjectId(),
      vendorId: new Types.ObjectId(),
      orderId: null,
      type: 'commission_invoice',
      state: 'pending',
      number: null,
      issuedAt: AT,
    }));
    await docModel.collection.insertMany(rows);
    return rows.map((r) => r._id.toHexString());
  }

  /** What the store holds for the series: each document's seq, the register's, the counter. */
  async function stored(
    scope: ShopScope,
    ids: string[],
    series: NumberedDocumentType = 'commission_invoice',
  ) {
    const docs = await Promise.all(ids.map((id) => documents.numberOf(scope, new Types.ObjectId(id))));
    const key = { series, year: 2026 };
    return {
      seqs: docs.map((d) => d!.seq),
      registered: (await register.list(scope, key)).map((r) => [r.seq, r.documentId.toHexString(), r.number]),
      counter: await counters.find(scope, key),
    };
  }

  const oneTo = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
  const seqOf = (n: string) => Number(n.slice(-6));

  it('has the unique indexes the steps rely on as soon as the application is up', async () => {
    const keys = async (name: string) =>
      (await moduleRef.get<Model<unknown>>(getModelToken(name)).collection.indexes())
        .filter((i) => i.unique)
        .map((i) => i.key);
    expect(await keys(DocumentCounter.name)).toEqual([{ shopId: 1, series: 1, year: 1 }]);
    expect(await keys(DocumentNumberRecord.name)).toEqual([{ shopId: 1, series: 1, year: 1, seq: 1 }]);
  });

  it('numbers 20 documents of one shop issued at once 1..20 in claim order, a second shop’s 5 apart', async () => {
    const [shop, other] = [await newShop(), await newShop()];
    await moduleRef.get(ShopLegalService).update(other, { prefixes: { commission_invoice: 'F-' } });
    const [ids, otherIds] = [await newDocuments(shop, 20), await newDocuments(other, 5)];

    // the order in which claims succeeded, watched on the real repository (its writes unchanged)
    const claimed: Record<string, string[]> = { [shop.shopId]: [], [other.shopId]: [] };
    const claim = counters.claim.bind(counters);
    const spy = jest.spyOn(counters, 'claim').mockImplementation(async (scope, key, id) => {
      const at = await claim(scope, key, id);
      const list = claimed[scope.shopId];
      if (at.holder?.equals(id) && !list.includes(id.toHexString())) list.push(id.toHexString());
      return at;
    });
    const [numbers, otherNumbers] = await Promise.all([
      Promise.all(ids.map((id) => numbering.assign(shop, id, 'commission_invoice', AT))),
      Promise.all(otherIds.map((id) => numbering.assign(other, id, 'commission_invoice', AT))),
    ]);
    spy.mockRestore();

    expect(numbers.map(seqOf).sort((a, b) => a - b)).toEqual(oneTo(20));
    expect(numbers.every((n, i) => n === `INV-2026-${String(seqOf(n)).padStart(6, '0')}` && ids[i])).toBe(
      true,
    );
    expect(claimed[shop.shopId].map((id) => seqOf(numbers[ids.indexOf(id)]))).toEqual(oneTo(20));
    const s = await stored(shop, ids);
    expect(s.seqs).toEqual(numbers.map(seqOf));
    expect(s.registered).toEqual(
      [...ids]
        .sort((a, b) => seqOf(numbers[ids.indexOf(a)]) - seqOf(numbers[ids.indexOf(b)]))
        .map((id, i) => [i + 1, id, `INV-2026-${String(i + 1).padStart(6, '0')}`]),
    );
    expect(s.counter).toMatchObject({ holder: null, next: 21 });

    expect([...otherNumbers].sort()).toEqual(oneTo(5).map((i) => `F-2026-00000${i}`));
    expect(claimed[other.shopId].map((id) => seqOf(otherNumbers[otherIds.indexOf(id)]))).toEqual(oneTo(5));
    expect((await stored(other, otherIds)).counter).toMatchObject({ holder: null, next: 6 });
  });

  it('answers a numbered document its number again, and another shop’s document as unknown', async () => {
    const [shop, other] = [await newShop(), await newShop()];
    const [[a], [foreign]] = [await newDocuments(shop, 1), await newDocuments(other, 1)];
    expect(await numbering.assign(shop, a, 'credit_note', AT)).toBe('CN-2026-000001');
    expect(await numbering.assign(shop, a, 'credit_note', AT)).toBe('CN-2026-000001');
    await expect(numbering.assign(shop, foreign, 'credit_note', AT)).rejects.toBeInstanceOf(NotFoundError);
    expect(await documents.numberOf(other, new Types.ObjectId(foreign))).toMatchObject({ number: null });
    expect(await counters.find(other, { series: 'credit_note', year: 2026 })).toBeNull();
    expect((await stored(shop, [a], 'credit_note')).counter).toMatchObject({ holder: null, next: 2 });
  });

  it('finishes a holder that died after registering its number, before taking the next one', async () => {
    const shop = await newShop();
    const [dead, next] = await newDocuments(shop, 2);
    const key = { series: 'self_billed_invoice' as const, year: 2026 };
    const deadId = new Types.ObjectId(dead);
    // what a process killed after its second write leaves: the slot held, number 1 registered
    expect(await counters.claim(shop, key, deadId)).toMatchObject({ holder: deadId, next: 1 });
    await register.register(shop, key, { documentId: deadId, seq: 1, number: 'SB-2026-000001' });
    expect(await numbering.assign(shop, next, 'self_billed_invoice', AT)).toBe('SB-2026-000002');
    expect(await documents.numberOf(shop, deadId)).toMatchObject({ number: 'SB-2026-000001', seq: 1 });
    expect(await numbering.assign(shop, dead, 'self_billed_invoice', AT)).toBe('SB-2026-000001');
    const s = await stored(shop, [dead, next], 'self_billed_invoice');
    expect(s.seqs).toEqual([1, 2]);
    expect(s.counter).toMatchObject({ holder: null, next: 3 });
  });
});
