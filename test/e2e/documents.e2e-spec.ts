/* eslint-disable @typescript-eslint/no-explicit-any */
import { getModelToken } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { DocumentsMaintenanceProcessor } from '../../src/documents/documents.processor';
import { IssuedDocument } from '../../src/documents/issued-document.schema';
import { PayoutBatch } from '../../src/payouts/payout-batch.schema';
import { startApp, TestApp } from '../support/app';
import { vendorToken } from '../support/catalog';
import { cents, divHalfUp, fmt } from '../support/cents';
import { createMerchantKey, createShop, TestMerchantKey, TestShop } from '../support/factory';
import { day, refundScenario } from '../support/refund-scenario';
import { shopifyRefund } from '../support/refunds';
import { HOUR } from '../support/test-clock';

// Documents issued on batch completion (DESIGN §14, issue 32 items 2 and 4), every figure checked
// to the cent against a BigInt-cents oracle written here (not the app's money function).
process.env.QUEUE_PREFIX = `${process.env.QUEUE_PREFIX ?? 'mp-test'}-documents`;

const YEAR = new Date().getUTCFullYear();
const RATE = 10n; // the vendors' commission, %
const TAX_ON_COMMISSION = 20n; // the shop's taxOnCommissionRate, %

/** One sale line's figures in cents, as DESIGN §6 defines them (percentage commission). */
function oracleLine(price: string, qty: number, tax = '0.00') {
  const sales = cents(price) * BigInt(qty);
  const commission = divHalfUp(sales * RATE, 100n);
  const taxOnCommissions = divHalfUp(commission * TAX_ON_COMMISSION, 100n);
  return { sales, commission, taxOnCommissions, tax: cents(tax) };
}
type OracleLine = ReturnType<typeof oracleLine>;
const sum = (xs: bigint[]) => xs.reduce((a, b) => a + b, 0n);

describe('documents issued on batch completion (e2e)', () => {
  let t: TestApp;
  let s: Awaited<ReturnType<typeof refundScenario>>;
  let other: TestShop;
  let mk: TestMerchantKey;
  let alpha: string;
  let beta: string;
  let tokAlpha: string;
  let tokBeta: string;
  let o1: any; // alpha: 50.00 × 2 and 19.99 × 1
  let o2: any; // alpha: 0.35 × 3 (commission 0.105 → 0.11, tax on it 0.022 → 0.02)
  let o3: any; // beta: 80.00 × 1, tax 16.00
  let batch1: any;
  let batch2: any;
  let batchBeta: any;
  let invoice1: any;
  const SHOP_TAX_ID = 'SHOP-TAX-998877';
  const BETA_TAX_ID = 'BETA-TAX-112233';
  const address = { line1: '1 Market Street', city: 'Exampleton', postalCode: '12345', country: 'GB' };

  const docs = async (query: string, token = s.shop.token) => {
    const res = await t.api.get(`/v1/documents?limit=250&${query}`, { token });
    expect(res.status).toBe(200);
    return res.body;
  };
  /** The batch's documents once the documents job issued them (it runs after the batch settles). */
  const batchDocs = async (batchId: string, count: number) => {
    for (let i = 0; i < 200; i++) {
      const body = await docs(`batchId=${batchId}`);
      if (body.total >= count) return body.documents as any[];
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`batch ${batchId}: its ${count} documents were not issued`);
  };
  const ofType = (list: any[], type: string) => list.filter((d) => d.type === type);
  const expectLines = (
    doc: any,
    orders: Array<{ order: any; lines: OracleLine[] }>,
    pick: (l: OracleLine) => [bigint, bigint],
    sign = 1n,
  ) => {
    const expected = orders.map(({ order, lines }) => {
      const net = sign * sum(lines.map((l) => pick(l)[0]));
      const tax = sign * sum(lines.map((l) => pick(l)[1]));
      return { orderId: String(order.id), net: fmt(net), tax: fmt(tax), total: fmt(net + tax) };
    });
    expect(
      doc.snapshot.lines.map((l: any) => ({ orderId: l.orderId, net: l.net, tax: l.tax, total: l.total })),
    ).toEqual(expected);
    const net = sum(expected.map((e) => cents(e.net)));
    const tax = sum(expected.map((e) => cents(e.tax)));
    expect(doc.snapshot.totals).toEqual({ net: fmt(net), tax: fmt(tax), total: fmt(net + tax) });
  };

  beforeAll(async () => {
    t = await startApp();
    s = await refundScenario(t, 'docs', ['alpha', 'beta']);
    other = await createShop(t, 'docs-other');
    mk = await createMerchantKey(t, s.shop);
    [alpha, beta] = s.vendors.map((v) => v._id);
    tokAlpha = await vendorToken(t, s.shop, alpha);
    tokBeta = await vendorToken(t, s.shop, beta);
    const put = (path: string, body: unknown) => t.api.put(path, body, { token: s.shop.token });
    expect((await put('/v1/shop/settings', { taxOnCommissionRate: Number(TAX_ON_COMMISSION) })).status).toBe(
      200,
    );
    expect(
      (
        await put('/v1/shop/legal', {
          legalName: 'Docs Market Ltd',
          address,
          vatId: 'GB111111111',
          taxId: SHOP_TAX_ID,
          selfBilling: true,
        })
      ).status,
    ).toBe(200);
    expect(
      (await put(`/v1/vendors/${alpha}/tax-profile`, { legalName: 'Alpha Goods', vatId: 'GB222222222' }))
        .status,
    ).toBe(200);
    expect(
      (
        await put(`/v1/vendors/${beta}/tax-profile`, {
          legalName: 'Beta Trading',
          entityType: 'business',
          address,
          vatId: 'GB333333333',
          taxId: BETA_TAX_ID,
          taxIdCountry: 'GB',
          selfBillingConsent: true,
        })
      ).status,
    ).toBe(200);
    o1 = await s.order(
      [
        { price: '50.00', quantity: 2 },
        { price: '19.99', quantity: 1 },
      ],
      day(-10),
    );
    o2 = await s.order([{ price: '0.35', quantity: 3 }], day(-9));
    await s.send('orders/create', o1);
    await s.send('orders/create', o2);
    batch1 = await s.batch(day(-8));
    expect(batch1.status).toBe('completed');
  });
  afterEach(() => t.clock.reset());
  afterAll(() => t.close());

  it('a paid batch issues one commission invoice (INV-<year>-000001): both parties, each order’s commission, totals = oracle', async () => {
    const list = await batchDocs(batch1._id, 2);
    expect(list.map((d) => d.type).sort()).toEqual(['commission_invoice', 'payout_statement']);
    [invoice1] = ofType(list, 'commission_invoice');
    expect(invoice1).toMatchObject({
      shopId: s.shop.shopId,
      vendorId: alpha,
      number: `INV-${YEAR}-000001`,
      batchId: batch1._id,
      orderId: null,
    });
    const snap = invoice1.snapshot;
    expect(snap).toMatchObject({
      type: 'commission_invoice',
      number: `INV-${YEAR}-000001`,
      currency: 'USD',
      mentions: [],
      batchId: batch1._id,
      corrects: [],
      issuer: { legalName: 'Docs Market Ltd', vatId: 'GB111111111', taxId: null },
      recipient: { legalName: 'Alpha Goods', vatId: 'GB222222222', taxId: null },
    });
    expect(snap.issuer.address).toMatchObject(address);
    expectLines(
      invoice1,
      [
        { order: o1, lines: [oracleLine('50.00', 2), oracleLine('19.99', 1)] },
        { order: o2, lines: [oracleLine('0.35', 3)] },
      ],
      (l) => [l.commission, l.taxOnCommissions],
    );
    // 10.00 + 2.00 (the first order's lines), 0.11 + 0.02 (the half-up traps)
    expect(snap.totals).toEqual({ net: '12.11', tax: '2.42', total: '14.53' });
    // alpha gave no self-billing consent: no self-billed invoice
    expect(ofType(list, 'self_billed_invoice')).toEqual([]);
    // the payout statement: unnumbered, what the batch paid per order, its total the batch's
    const [statement] = ofType(list, 'payout_statement');
    expect(statement.number).toBeNull();
    expect(cents(statement.snapshot.totals.total)).toBe(cents(String(batch1.total)));
    expect(statement.snapshot.recipient.taxId).toBeNull();
    // the JSON by id equals the list's, on v1 and V2
    expect((await t.api.get(`/v1/documents/${invoice1.id}`, { token: s.shop.token })).body).toEqual(invoice1);
    const v2 = await t.api.get(`/v2/documents/${invoice1.id}`, { token: s.shop.token });
    expect(v2.body).toEqual({ success: true, data: invoice1 });
  });

  it('a later batch whose refunds give commission back issues a credit note correcting the first invoice', async () => {
    // o1's first line refunded in full: its commission 10.00 and tax on it 2.00 come back
    await s.send(
      'refunds/create',
      shopifyRefund({
        orderId: o1.id,
        processedAt: day(-5),
        lines: [{ lineItemId: o1.line_items[0].id, quantity: 2 }],
      }),
    );
    // a positive adjustment keeps the batch's net positive (a paid batch)
    const adj = await t.api.post(
      '/v2/payout-adjustments',
      {
        vendorId: alpha,
        amount: 200,
        type: 'ADDITION',
        comments: 'bonus',
        customItemDate: day(-5).toISOString().slice(0, 10),
      },
      { token: mk.token },
    );
    expect(adj.status).toBe(201);
    batch2 = await s.batch(day(-4));
    expect(batch2.status).toBe('completed');
    const list = await batchDocs(batch2._id, 2);
    expect(list.map((d) => d.type).sort()).toEqual(['credit_note', 'payout_statement']);
    const [note] = ofType(list, 'credit_note');
    expect(note.number).toBe(`CN-${YEAR}-000001`);
    expect(note.snapshot.corrects).toEqual([{ documentId: invoice1.id, number: `INV-${YEAR}-000001` }]);
    expectLines(
      note,
      [{ order: o1, lines: [oracleLine('50.00', 2)] }],
      (l) => [l.commission, l.taxOnCommissions],
      -1n,
    );
    expect(note.snapshot.totals).toEqual({ net: '-10.00', tax: '-2.00', total: '-12.00' });
    const [statement] = ofType(list, 'payout_statement');
    expect(cents(statement.snapshot.totals.total)).toBe(cents(String(batch2.total)));
    expect(statement.snapshot.lines.at(-1)).toMatchObject({ orderId: '', net: '200.00' });
  });

  it('with the shop’s selfBilling and the vendor’s consent: one self-billed invoice with both VAT ids and tax ids', async () => {
    o3 = await s.order([{ vendor: 1, price: '80.00', quantity: 1 }], day(-3), {});
    o3.line_items[0].tax_lines = [{ title: 'VAT', price: '16.00', rate: 0.2 }];
    await s.send('orders/create', o3);
    batchBeta = await s.batch(day(-2), 1);
    expect(batchBeta.status).toBe('completed');
    const list = await batchDocs(batchBeta._id, 3);
    expect(list.map((d) => d.type).sort()).toEqual([
      'commission_invoice',
      'payout_statement',
      'self_billed_invoice',
    ]);
    expect(ofType(list, 'commission_invoice')[0].number).toBe(`INV-${YEAR}-000002`);
    const [sb] = ofType(list, 'self_billed_invoice');
    expect(sb.number).toBe(`SB-${YEAR}-000001`);
    expect(sb.snapshot.mentions).toEqual(['Self-billing']);
    expect(sb.snapshot.issuer).toMatchObject({
      legalName: 'Beta Trading',
      vatId: 'GB333333333',
      taxId: BETA_TAX_ID,
    });
    expect(sb.snapshot.recipient).toMatchObject({
      legalName: 'Docs Market Ltd',
      vatId: 'GB111111111',
      taxId: SHOP_TAX_ID,
    });
    expectLines(sb, [{ order: o3, lines: [oracleLine('80.00', 1, '16.00')] }], (l) => [l.sales, l.tax]);
    expect(sb.snapshot.totals).toEqual({ net: '80.00', tax: '16.00', total: '96.00' });
    // tax ids never in the events or the audit trail
    const events = await t.api.get('/v1/events?limit=250&type=document.issued', { token: s.shop.token });
    expect(events.status).toBe(200);
    const issued = events.body.events.map((e: any) => e.data.object.id).sort();
    expect(issued).toEqual((await docs('')).documents.map((d: any) => d.id).sort());
    const sbEvent = events.body.events.find((e: any) => e.data.object.id === sb.id);
    expect(sbEvent.data.object.snapshot.issuer).toMatchObject({ vatId: 'GB333333333', taxId: null });
    expect(JSON.stringify(events.body)).not.toMatch(/TAX-998877|TAX-112233/);
    const audit = await t.api.get('/v1/audit-events?limit=250&action=document.issue', {
      token: s.shop.token,
    });
    expect(audit.body.total).toBe(issued.length);
    expect(JSON.stringify(audit.body)).not.toMatch(/TAX-998877|TAX-112233/);
  });

  it('rerunning or sweeping a batch issues nothing twice; a document a crash left pending is finished once', async () => {
    const model = t.app.get<Model<IssuedDocument>>(getModelToken(IssuedDocument.name));
    const batches = t.app.get<Model<PayoutBatch>>(getModelToken(PayoutBatch.name));
    const before = (await docs('')).documents;
    // a crash after writing the statement and before issuing it, the batch's marker still set
    const [statement] = ofType(await batchDocs(batch1._id, 2), 'payout_statement');
    const shopId = new Types.ObjectId(s.shop.shopId);
    await model
      .updateOne({ shopId, _id: new Types.ObjectId(statement.id) }, { $set: { state: 'pending' } })
      .exec();
    await batches
      .updateMany(
        { shopId, _id: { $in: [batch1._id, batch2._id].map((id) => new Types.ObjectId(id)) } },
        { $set: { documentsDue: true } },
      )
      .exec();
    expect((await docs(`batchId=${batch1._id}`)).total).toBe(1); // pending: not shown
    t.clock.advance(HOUR);
    const sweeper = t.app.get(DocumentsMaintenanceProcessor);
    expect(await sweeper.sweepNow()).toBeGreaterThanOrEqual(2);
    expect(await sweeper.sweepNow()).toBe(0);
    const after = (await docs('')).documents;
    expect(after).toEqual(before);
    const stored = await model
      .find({ shopId: new Types.ObjectId(s.shop.shopId) })
      .lean()
      .exec();
    expect(stored.every((d) => d.state === 'issued')).toBe(true);
    const due = (
      await batches
        .find({
          shopId,
          _id: { $in: [batch1._id, batch2._id, batchBeta._id].map((id) => new Types.ObjectId(id)) },
        })
        .lean()
        .exec()
    ).filter((b) => b.documentsDue);
    expect(due).toEqual([]);
    // each document audited and announced once
    const audit = await t.api.get('/v1/audit-events?limit=250&action=document.issue', {
      token: s.shop.token,
    });
    expect(audit.body.total).toBe(after.length);
    const events = await t.api.get('/v1/events?limit=250&type=document.issued', { token: s.shop.token });
    expect(events.body.total).toBe(after.length);
    // the same trigger again: the batch is settled, nothing new
    await t.api.post(
      '/v1/payouts/batches',
      { until: day(-8).toISOString().slice(0, 10), vendorId: alpha },
      { token: s.shop.token },
    );
    expect((await docs('')).total).toBe(after.length);
  });

  it('the vendor reads its own documents, never another vendor’s (404); no scope needed', async () => {
    for (const base of ['/documents', '/v2/documents']) {
      const mine = await t.api.get(`${base}?first=100`, { token: tokAlpha });
      expect(mine.status).toBe(200);
      expect(mine.body.data.items.length).toBe(4);
      expect(mine.body.data.totalCount).toBe(4);
      expect(mine.body.data.items.every((d: any) => d.vendorId === alpha)).toBe(true);
      const own = await t.api.get(`${base}/${invoice1.id}`, { token: tokAlpha });
      expect(own.status).toBe(200);
      expect(own.body.data).toEqual(invoice1);
      expect((await t.api.get(`${base}/${invoice1.id}`, { token: tokBeta })).status).toBe(404);
      // a vendorId filter of another vendor narrows nothing open to it
      const foreign = await t.api.get(`${base}?vendorId=${alpha}`, { token: tokBeta });
      expect(foreign.body.data.items.every((d: any) => d.vendorId === beta)).toBe(true);
    }
    // newest first, paged by cursor
    const first = await t.api.get('/documents?first=1', { token: tokAlpha });
    const second = await t.api.get(`/documents?first=1&after=${first.body.data.pageInfo.endCursor}`, {
      token: tokAlpha,
    });
    expect(first.body.data.pageInfo.hasNextPage).toBe(true);
    expect(second.body.data.items[0].id).not.toBe(first.body.data.items[0].id);
    expect(first.body.data.items[0].issuedAt >= second.body.data.items[0].issuedAt).toBe(true);
  });

  it('a merchant token is refused (403); another shop’s token gets 404; a malformed id 404', async () => {
    expect((await t.api.get('/v2/documents', { token: mk.token })).status).toBe(403);
    expect((await t.api.get(`/v2/documents/${invoice1.id}`, { token: mk.token })).status).toBe(403);
    expect((await t.api.get('/documents', { token: mk.token })).status).toBe(403);
    expect((await t.api.get('/v1/documents', { token: mk.token })).status).toBe(403);
    expect((await t.api.get('/v1/documents', { token: tokAlpha })).status).toBe(403);
    expect((await t.api.get(`/v1/documents/${invoice1.id}`, { token: other.token })).status).toBe(404);
    expect((await t.api.get(`/v2/documents/${invoice1.id}`, { token: other.token })).status).toBe(404);
    expect((await docs('', other.token)).total).toBe(0);
    expect((await t.api.get('/v1/documents/not-an-id', { token: s.shop.token })).status).toBe(404);
  });

  it('list filters: type, vendorId, batchId, orderId, start/end, offset paging; bad filters 422', async () => {
    const all = (await docs('')).documents;
    expect(all.length).toBe(7);
    expect((await docs('type=credit_note')).documents.map((d: any) => d.number)).toEqual([
      `CN-${YEAR}-000001`,
    ]);
    expect((await docs(`vendorId=${beta}`)).documents.every((d: any) => d.vendorId === beta)).toBe(true);
    expect((await docs(`vendorId=${beta}`)).total).toBe(3);
    expect((await docs(`vendorId=${alpha}&type=commission_invoice`)).documents.map((d: any) => d.id)).toEqual(
      [invoice1.id],
    );
    expect((await docs(`batchId=${batch2._id}&type=credit_note`)).total).toBe(1);
    // o1 is named by the first invoice and statement, then the credit note and the second statement
    const named = await docs(`orderId=${o1.id}`);
    expect(named.documents.map((d: any) => d.type).sort()).toEqual([
      'commission_invoice',
      'credit_note',
      'payout_statement',
      'payout_statement',
    ]);
    expect((await docs(`orderId=${o1.id}&vendorId=${beta}`)).total).toBe(0);
    const today = new Date().toISOString().slice(0, 10);
    expect((await docs(`start=${today}&end=${today}`)).total).toBe(7);
    expect((await docs(`start=${day(1).toISOString().slice(0, 10)}`)).total).toBe(0);
    // newest first, offset paging
    const page = await t.api.get('/v1/documents?limit=3&offset=0', { token: s.shop.token });
    expect(page.body).toMatchObject({ total: 7, nextOffset: 3 });
    expect(page.body.documents.map((d: any) => d.id)).toEqual(all.slice(0, 3).map((d: any) => d.id));
    const last = await t.api.get('/v1/documents?limit=3&offset=6', { token: s.shop.token });
    expect(last.body).toMatchObject({ total: 7, nextOffset: null });
    for (const bad of [
      'type=invoice',
      'vendorId=xyz',
      'batchId=1',
      'orderId=abc',
      'start=2026-02-30',
      'limit=0',
    ]) {
      const res = await t.api.get(`/v1/documents?${bad}`, { token: s.shop.token });
      expect([bad, res.status]).toEqual([bad, 422]);
    }
  });
});
