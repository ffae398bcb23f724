/* eslint-disable @typescript-eslint/no-explicit-any */
import { getModelToken } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { DocumentsMaintenanceProcessor } from '../../src/documents/documents.processor';
import { IssuedDocument } from '../../src/documents/issued-document.schema';
import { PayoutBatch } from '../../src/payouts/payout-batch.schema';
import { startApp, TestApp } from '../support/app';
import { cents } from '../support/cents';
import {
  ADDRESS as address,
  BETA_TAX_ID,
  documentsScenario,
  DocumentsScenario,
  expectLines,
  ofType,
  oracleLine,
  SHOP_TAX_ID,
  YEAR,
} from '../support/documents';
import { linesWith, pdfText, words } from '../support/pdf-text';
import { day } from '../support/refund-scenario';
import { HOUR } from '../support/test-clock';

// Documents issued on batch completion (DESIGN §14, issue 32 item 2), every figure checked to the
// cent against the BigInt-cents oracle of test/support/documents.ts (not the app's money function).
process.env.QUEUE_PREFIX = `${process.env.QUEUE_PREFIX ?? 'mp-test'}-documents`;

describe('documents issued on batch completion (e2e)', () => {
  let t: TestApp;
  let w: DocumentsScenario;
  let invoice1: any;

  beforeAll(async () => {
    t = await startApp();
    w = await documentsScenario(t);
  });
  afterEach(() => t.clock.reset());
  afterAll(() => t.close());

  it('a paid batch issues one commission invoice (INV-<year>-000001): both parties, each order’s commission, totals = oracle', async () => {
    const list = await w.batchDocs(w.batch1._id, 2);
    expect(list.map((d) => d.type).sort()).toEqual(['commission_invoice', 'payout_statement']);
    [invoice1] = ofType(list, 'commission_invoice');
    expect(invoice1).toMatchObject({
      shopId: w.s.shop.shopId,
      vendorId: w.alpha,
      number: `INV-${YEAR}-000001`,
      batchId: w.batch1._id,
      orderId: null,
    });
    const snap = invoice1.snapshot;
    expect(snap).toMatchObject({
      type: 'commission_invoice',
      number: `INV-${YEAR}-000001`,
      currency: 'USD',
      mentions: [],
      batchId: w.batch1._id,
      corrects: [],
      issuer: { legalName: 'Docs Market Ltd', vatId: 'GB111111111', taxId: null },
      recipient: { legalName: 'Alpha Goods', vatId: 'GB222222222', taxId: null },
    });
    expect(snap.issuer.address).toMatchObject(address);
    expectLines(
      invoice1,
      [
        { order: w.o1, lines: [oracleLine('50.00', 2), oracleLine('19.99', 1)] },
        { order: w.o2, lines: [oracleLine('0.35', 3)] },
      ],
      (l) => [l.commission, l.taxOnCommissions],
    );
    // 10.00 + 2.00 (the first order's lines), 0.11 + 0.02 (the half-up traps)
    expect(snap.totals).toEqual({ net: '12.11', tax: '2.42', total: '14.53' });
    // w.alpha gave no self-billing consent: no self-billed invoice
    expect(ofType(list, 'self_billed_invoice')).toEqual([]);
    // the payout statement: unnumbered, what the batch paid per order, its total the batch's
    const [statement] = ofType(list, 'payout_statement');
    expect(statement.number).toBeNull();
    expect(cents(statement.snapshot.totals.total)).toBe(cents(String(w.batch1.total)));
    expect(statement.snapshot.recipient.taxId).toBeNull();
    // the JSON by id equals the list's, on v1 and V2
    expect((await t.api.get(`/v1/documents/${invoice1.id}`, { token: w.s.shop.token })).body).toEqual(
      invoice1,
    );
    const v2 = await t.api.get(`/v2/documents/${invoice1.id}`, { token: w.s.shop.token });
    expect(v2.body).toEqual({ success: true, data: invoice1 });
  });

  it('the issued invoice as a PDF (real store → snapshot → PDF, read with pdftotext): number, parties, each order’s figures, totals; the vendor’s signed link serves the same bytes without a token', async () => {
    const res = await fetch(`${t.url}/v1/documents/${invoice1.id}/pdf`, {
      headers: { 'x-access-token': w.s.shop.token },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/pdf');
    const bytes = Buffer.from(await res.arrayBuffer());
    const text = pdfText(bytes);
    expect(text).toContain(`INV-${YEAR}-000001`);
    expect(text).toContain('Docs Market Ltd');
    expect(text).toContain('Alpha Goods');
    expect(text).toContain('GB111111111');
    expect(text).toContain('GB222222222');
    // each order line prints the oracle-checked snapshot figures (net, tax, total) on one row
    for (const line of invoice1.snapshot.lines) {
      const row = linesWith(text, String(line.orderName ?? line.orderId))
        .map(words)
        .find((w) => w.includes(line.total));
      expect(row).toEqual(expect.arrayContaining([line.net, line.tax, line.total]));
    }
    expect(linesWith(text, 'Total').join(' ')).toEqual(expect.stringContaining('12.11'));
    expect(text).toContain('14.53');
    // the vendor asks for the order's invoice link and opens it without a token
    const link = await t.api.post('/documents/invoice', { orderId: String(w.o1.id) }, { token: w.tokAlpha });
    expect(link.status).toBe(201);
    const open = await fetch(link.body.data.url);
    expect(open.status).toBe(200);
    expect(Buffer.from(await open.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('a later batch whose refunds give commission back issues a credit note correcting the first invoice', async () => {
    // w.o1's first line refunded in full (its commission 10.00 and tax on it 2.00 come back), +200.00 adjustment
    const batch2 = await w.refundBatch();
    const list = await w.batchDocs(w.batch2._id, 2);
    expect(list.map((d) => d.type).sort()).toEqual(['credit_note', 'payout_statement']);
    const [note] = ofType(list, 'credit_note');
    expect(note.number).toBe(`CN-${YEAR}-000001`);
    expect(note.snapshot.corrects).toEqual([{ documentId: invoice1.id, number: `INV-${YEAR}-000001` }]);
    expectLines(
      note,
      [{ order: w.o1, lines: [oracleLine('50.00', 2)] }],
      (l) => [l.commission, l.taxOnCommissions],
      -1n,
    );
    expect(note.snapshot.totals).toEqual({ net: '-10.00', tax: '-2.00', total: '-12.00' });
    const [statement] = ofType(list, 'payout_statement');
    expect(cents(statement.snapshot.totals.total)).toBe(cents(String(batch2.total)));
    expect(statement.snapshot.lines.at(-1)).toMatchObject({ orderId: '', net: '200.00' });
  });

  it('with the shop’s selfBilling and the vendor’s consent: one self-billed invoice with both VAT ids and tax ids', async () => {
    await w.betaBatch();
    const o3 = w.o3;
    const list = await w.batchDocs(w.batchBeta._id, 3);
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
    const events = await t.api.get('/v1/events?limit=250&type=document.issued', { token: w.s.shop.token });
    expect(events.status).toBe(200);
    const issued = events.body.events.map((e: any) => e.data.object.id).sort();
    expect(issued).toEqual((await w.docs('')).documents.map((d: any) => d.id).sort());
    const sbEvent = events.body.events.find((e: any) => e.data.object.id === sb.id);
    expect(sbEvent.data.object.snapshot.issuer).toMatchObject({ vatId: 'GB333333333', taxId: null });
    expect(JSON.stringify(events.body)).not.toMatch(/TAX-998877|TAX-112233/);
    const audit = await t.api.get('/v1/audit-events?limit=250&action=document.issue', {
      token: w.s.shop.token,
    });
    expect(audit.body.total).toBe(issued.length);
    expect(JSON.stringify(audit.body)).not.toMatch(/TAX-998877|TAX-112233/);
  });

  it('rerunning or sweeping a batch issues nothing twice; a document a crash left pending is finished once', async () => {
    const model = t.app.get<Model<IssuedDocument>>(getModelToken(IssuedDocument.name));
    const batches = t.app.get<Model<PayoutBatch>>(getModelToken(PayoutBatch.name));
    const before = (await w.docs('')).documents;
    // a crash after writing the statement and before issuing it, the batch's marker still set
    const [statement] = ofType(await w.batchDocs(w.batch1._id, 2), 'payout_statement');
    const shopId = new Types.ObjectId(w.s.shop.shopId);
    await model
      .updateOne({ shopId, _id: new Types.ObjectId(statement.id) }, { $set: { state: 'pending' } })
      .exec();
    await batches
      .updateMany(
        { shopId, _id: { $in: [w.batch1._id, w.batch2._id].map((id) => new Types.ObjectId(id)) } },
        { $set: { documentsDue: true } },
      )
      .exec();
    expect((await w.docs(`batchId=${w.batch1._id}`)).total).toBe(1); // pending: not shown
    t.clock.advance(HOUR);
    const sweeper = t.app.get(DocumentsMaintenanceProcessor);
    expect(await sweeper.sweepNow()).toBeGreaterThanOrEqual(2);
    expect(await sweeper.sweepNow()).toBe(0);
    const after = (await w.docs('')).documents;
    expect(after).toEqual(before);
    const stored = await model
      .find({ shopId: new Types.ObjectId(w.s.shop.shopId) })
      .lean()
      .exec();
    expect(stored.every((d) => d.state === 'issued')).toBe(true);
    const due = (
      await batches
        .find({
          shopId,
          _id: { $in: [w.batch1._id, w.batch2._id, w.batchBeta._id].map((id) => new Types.ObjectId(id)) },
        })
        .lean()
        .exec()
    ).filter((b) => b.documentsDue);
    expect(due).toEqual([]);
    // each document audited and announced once
    const audit = await t.api.get('/v1/audit-events?limit=250&action=document.issue', {
      token: w.s.shop.token,
    });
    expect(audit.body.total).toBe(after.length);
    const events = await t.api.get('/v1/events?limit=250&type=document.issued', { token: w.s.shop.token });
    expect(events.body.total).toBe(after.length);
    // the same trigger again: the batch is settled, nothing new
    await t.api.post(
      '/v1/payouts/batches',
      { until: day(-8).toISOString().slice(0, 10), vendorId: w.alpha },
      { token: w.s.shop.token },
    );
    expect((await w.docs('')).total).toBe(after.length);
  });
});
