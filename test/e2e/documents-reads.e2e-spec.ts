/* eslint-disable @typescript-eslint/no-explicit-any */
import { startApp, TestApp } from '../support/app';
import { documentsScenario, DocumentsScenario, ofType, YEAR } from '../support/documents';
import { day } from '../support/refund-scenario';
import { vendorKeyToken } from '../support/vendor-keys';

// Reading issued documents (DESIGN §14, issue 32 item 4): v1 lists and filters, V2 and the vendor
// surface, tenancy (another vendor's or shop's id → 404) and credentials (merchant token → 403).
process.env.QUEUE_PREFIX = `${process.env.QUEUE_PREFIX ?? 'mp-test'}-documents-reads`;

describe('reading documents (e2e)', () => {
  let t: TestApp;
  let w: DocumentsScenario;
  let invoice1: any;

  beforeAll(async () => {
    t = await startApp();
    w = await documentsScenario(t);
    await w.refundBatch();
    await w.betaBatch();
    await w.batchDocs(w.batch1._id, 2);
    await w.batchDocs(w.batch2._id, 2);
    await w.batchDocs(w.batchBeta._id, 3);
    [invoice1] = ofType((await w.docs(`batchId=${w.batch1._id}`)).documents, 'commission_invoice');
    expect(invoice1.number).toBe(`INV-${YEAR}-000001`);
  });
  afterAll(() => t.close());

  it('the vendor reads its own documents, never another vendor’s (404); no scope needed', async () => {
    // DESIGN §12: documents need no scope: a vendor API key holding only an unrelated one reads them
    const key = await vendorKeyToken(t, w.s.shop, w.alpha, ['products:read']);
    const byKey = await t.api.get('/documents', { token: key.token });
    expect(byKey.status).toBe(200);
    expect(byKey.body.data.totalCount).toBe(4);
    expect((await t.api.get(`/v2/documents/${invoice1.id}`, { token: key.token })).status).toBe(200);
    for (const base of ['/documents', '/v2/documents']) {
      const mine = await t.api.get(`${base}?first=100`, { token: w.tokAlpha });
      expect(mine.status).toBe(200);
      expect(mine.body.data.items.length).toBe(4);
      expect(mine.body.data.totalCount).toBe(4);
      expect(mine.body.data.items.every((d: any) => d.vendorId === w.alpha)).toBe(true);
      const own = await t.api.get(`${base}/${invoice1.id}`, { token: w.tokAlpha });
      expect(own.status).toBe(200);
      expect(own.body.data).toEqual(invoice1);
      expect((await t.api.get(`${base}/${invoice1.id}`, { token: w.tokBeta })).status).toBe(404);
      // a vendorId filter of another vendor narrows nothing open to it
      const foreign = await t.api.get(`${base}?vendorId=${w.alpha}`, { token: w.tokBeta });
      expect(foreign.body.data.items.every((d: any) => d.vendorId === w.beta)).toBe(true);
    }
    // newest first, paged by cursor
    const first = await t.api.get('/documents?first=1', { token: w.tokAlpha });
    const second = await t.api.get(`/documents?first=1&after=${first.body.data.pageInfo.endCursor}`, {
      token: w.tokAlpha,
    });
    expect(first.body.data.pageInfo.hasNextPage).toBe(true);
    expect(second.body.data.items[0].id).not.toBe(first.body.data.items[0].id);
    expect(first.body.data.items[0].issuedAt >= second.body.data.items[0].issuedAt).toBe(true);
  });

  it('a merchant token is refused (403); another shop’s token gets 404; a malformed id 404', async () => {
    expect((await t.api.get('/v2/documents', { token: w.mk.token })).status).toBe(403);
    expect((await t.api.get(`/v2/documents/${invoice1.id}`, { token: w.mk.token })).status).toBe(403);
    expect((await t.api.get('/documents', { token: w.mk.token })).status).toBe(403);
    expect((await t.api.get('/v1/documents', { token: w.mk.token })).status).toBe(403);
    expect((await t.api.get('/v1/documents', { token: w.tokAlpha })).status).toBe(403);
    expect((await t.api.get(`/v1/documents/${invoice1.id}`, { token: w.other.token })).status).toBe(404);
    expect((await t.api.get(`/v2/documents/${invoice1.id}`, { token: w.other.token })).status).toBe(404);
    expect((await w.docs('', w.other.token)).total).toBe(0);
    expect((await t.api.get('/v1/documents/not-an-id', { token: w.s.shop.token })).status).toBe(404);
  });

  it('list filters: type, vendorId, batchId, orderId, start/end, offset paging; bad filters 422', async () => {
    const all = (await w.docs('')).documents;
    expect(all.length).toBe(7);
    expect((await w.docs('type=credit_note')).documents.map((d: any) => d.number)).toEqual([
      `CN-${YEAR}-000001`,
    ]);
    expect((await w.docs(`vendorId=${w.beta}`)).documents.every((d: any) => d.vendorId === w.beta)).toBe(
      true,
    );
    expect((await w.docs(`vendorId=${w.beta}`)).total).toBe(3);
    expect(
      (await w.docs(`vendorId=${w.alpha}&type=commission_invoice`)).documents.map((d: any) => d.id),
    ).toEqual([invoice1.id]);
    expect((await w.docs(`batchId=${w.batch2._id}&type=credit_note`)).total).toBe(1);
    // w.o1 is named by the first invoice and statement, then the credit note and the second statement
    const named = await w.docs(`orderId=${w.o1.id}`);
    expect(named.documents.map((d: any) => d.type).sort()).toEqual([
      'commission_invoice',
      'credit_note',
      'payout_statement',
      'payout_statement',
    ]);
    expect((await w.docs(`orderId=${w.o1.id}&vendorId=${w.beta}`)).total).toBe(0);
    const today = new Date().toISOString().slice(0, 10);
    expect((await w.docs(`start=${today}&end=${today}`)).total).toBe(7);
    expect((await w.docs(`start=${day(1).toISOString().slice(0, 10)}`)).total).toBe(0);
    // newest first, offset paging
    const page = await t.api.get('/v1/documents?limit=3&offset=0', { token: w.s.shop.token });
    expect(page.body).toMatchObject({ total: 7, nextOffset: 3 });
    expect(page.body.documents.map((d: any) => d.id)).toEqual(all.slice(0, 3).map((d: any) => d.id));
    const last = await t.api.get('/v1/documents?limit=3&offset=6', { token: w.s.shop.token });
    expect(last.body).toMatchObject({ total: 7, nextOffset: null });
    for (const bad of [
      'type=invoice',
      'vendorId=xyz',
      'batchId=1',
      'orderId=abc',
      'start=2026-02-30',
      'limit=0',
    ]) {
      const res = await t.api.get(`/v1/documents?${bad}`, { token: w.s.shop.token });
      expect([bad, res.status]).toEqual([bad, 422]);
    }
  });
});
