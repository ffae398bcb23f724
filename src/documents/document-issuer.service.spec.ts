import { Types } from 'mongoose';
import { asReal, FixedClock, SHOP } from '../../test/fakes/fake';
import { FakeDocumentsRepository, FakeNumbering } from '../../test/fakes/documents.fake';
import type { MoneyRowSource } from '../line-items/line-item-views';
import type { PayoutRowsRepository } from '../line-items/payout-rows.repository';
import type { PayoutBatch } from '../payouts/payout-batch.schema';
import type { PayoutBatchesRepository } from '../payouts/payout-batches.repository';
import type { ShopLegalParty, ShopLegalService } from '../shops/shop-legal.service';
import type { ShopsService } from '../shops/shops.service';
import type { TaxProfilesService, VendorTaxParty } from '../tax-profiles/tax-profiles.service';
import type { PayoutProvidersService } from '../transfers/payout-providers.service';
import { DocumentIssuer } from './document-issuer.service';
import type { DocumentEvents } from './document-events';
import { publicDocumentView } from './document.mapper';
import type { DocumentsRepository } from './documents.repository';
import type { IssuedDocument } from './issued-document.schema';

const VENDOR = new Types.ObjectId();

/** The world one issuer sees: a batch, its settled rows, both parties; every dependency a typed fake. */
function world(opts: { selfBilling?: boolean; consent?: boolean; status?: PayoutBatch['status'] } = {}) {
  const batch = {
    _id: new Types.ObjectId(),
    shopId: new Types.ObjectId(SHOP.shopId),
    vendorId: VENDOR,
    vendorName: 'acme',
    periodEnd: '2026-03-31',
    cutoff: new Date('2026-03-31T23:59:59.999Z'),
    status: opts.status ?? 'completed',
    total: 88,
    adjustmentTotal: 0,
    adjustmentCount: 0,
    documentsDue: true,
  } as PayoutBatch;
  // one order of 100.00 at 10 %, 20 % tax on the commission, 10.00 VAT on the goods
  const rows = [
    {
      orderId: 5001,
      orderName: '#5001',
      orderCreatedAt: new Date('2026-03-02T10:00:00Z'),
      type: 'sale',
      commission: 10,
      taxOnCommissions: 2,
      salesAfterDiscount: 100,
      tax: 10,
      batchPaidAmount: 88,
    },
  ] as MoneyRowSource[];
  const batches: Pick<PayoutBatchesRepository, 'findById' | 'documentsIssued'> = {
    findById: async () => ({ ...batch }),
    documentsIssued: async () => {
      batch.documentsDue = false;
    },
  };
  const lineRows: Pick<PayoutRowsRepository, 'batchRows'> = { batchRows: async () => rows };
  const shopParty: ShopLegalParty = {
    legalName: 'Market Ltd',
    address: null,
    vatId: 'GB1',
    taxId: 'SHOP-SECRET',
    prefixes: { commission_invoice: 'INV-', credit_note: 'CN-', self_billed_invoice: 'SB-' },
    selfBilling: opts.selfBilling ?? false,
  };
  const legal: Pick<ShopLegalService, 'party'> = { party: async () => shopParty };
  const vendorParty = {
    vendorId: String(VENDOR),
    legalName: 'Acme Goods',
    address: null,
    vatId: 'GB2',
    taxId: 'VENDOR-SECRET',
    businessRegistrationNumber: null,
    selfBillingConsent: opts.consent ?? false,
  } as unknown as VendorTaxParty;
  const taxProfiles: Pick<TaxProfilesService, 'party'> = { party: async () => vendorParty };
  const providers: Pick<PayoutProvidersService, 'currency'> = { currency: async () => 'EUR' };
  const shops: Pick<ShopsService, 'getById'> = { getById: async () => ({ name: 'market' }) as never };
  const announced: IssuedDocument[] = [];
  const events: Pick<DocumentEvents, 'issued'> = {
    issued: async (_scope, doc) => {
      announced.push(doc);
    },
  };
  const documents = new FakeDocumentsRepository();
  const numbering = new FakeNumbering();
  const issuer = new DocumentIssuer(
    asReal<DocumentsRepository>(documents),
    asReal<PayoutBatchesRepository>(batches),
    asReal<PayoutRowsRepository>(lineRows),
    asReal<ShopLegalService>(legal),
    asReal<ShopsService>(shops),
    asReal<TaxProfilesService>(taxProfiles),
    asReal<PayoutProvidersService>(providers),
    asReal<DocumentEvents>(events),
    new FixedClock(new Date('2026-04-01T02:00:00Z')),
    numbering,
  );
  const run = () => issuer.issueForBatch(SHOP, String(batch._id));
  return { batch, documents, numbering, announced, run };
}

describe('DocumentIssuer (DESIGN §14, resumable without transactions)', () => {
  it('a paid batch: commission invoice and statement, numbered, issued, announced once, marker cleared', async () => {
    const w = world();
    expect(await w.run()).toBe(2);
    expect(w.documents.docs.map((d) => [d.type, d.state, d.number])).toEqual([
      ['commission_invoice', 'issued', 'INV-2026-000001'],
      ['payout_statement', 'issued', null],
    ]);
    expect(w.documents.docs[0].snapshot).toMatchObject({
      number: 'INV-2026-000001',
      currency: 'EUR',
      totals: { net: '10.00', tax: '2.00', total: '12.00' },
    });
    expect(w.announced.map((d) => d.type)).toEqual(['commission_invoice', 'payout_statement']);
    expect(w.batch.documentsDue).toBe(false);
  });

  it('rerunning or sweeping issues nothing twice', async () => {
    const w = world({ selfBilling: true, consent: true });
    expect(await w.run()).toBe(3);
    expect(await w.run()).toBe(0); // the marker is gone
    w.batch.documentsDue = true; // a sweep of a batch whose marker was left
    expect(await w.run()).toBe(0);
    expect(w.documents.docs).toHaveLength(3);
    expect(w.announced).toHaveLength(3);
    expect(w.numbering.assigned.size).toBe(2);
  });

  it('a crash after the number is assigned: the rerun issues the same document with the same number', async () => {
    const w = world();
    w.numbering.afterAssign = () => {
      throw new Error('killed');
    };
    await expect(w.run()).rejects.toThrow('killed');
    expect(w.documents.docs.map((d) => d.state)).toEqual(['pending', 'pending']);
    expect(w.batch.documentsDue).toBe(true);
    const assigned = [...w.numbering.assigned.values()];
    w.numbering.afterAssign = () => undefined;
    expect(await w.run()).toBe(2);
    expect(w.documents.docs).toHaveLength(2);
    expect(w.documents.docs[0].number).toBe(assigned[0]);
    expect(w.numbering.assigned.size).toBe(1); // no second number: no gap
    expect(w.batch.documentsDue).toBe(false);
  });

  it.each([
    [false, false, false],
    [true, false, false],
    [false, true, false],
    [true, true, true],
  ])(
    'self-billing (shop %s, vendor consent %s) → self-billed invoice %s',
    async (selfBilling, consent, issued) => {
      const w = world({ selfBilling, consent });
      await w.run();
      const sb = w.documents.docs.filter((d) => d.type === 'self_billed_invoice');
      expect(sb.length).toBe(issued ? 1 : 0);
      if (issued) {
        expect(sb[0].number).toBe('SB-2026-000001');
        expect(sb[0].snapshot.totals).toEqual({ net: '100.00', tax: '10.00', total: '110.00' });
        expect(sb[0].snapshot.issuer).toMatchObject({
          legalName: 'Acme Goods',
          vatId: 'GB2',
          taxId: 'VENDOR-SECRET',
        });
        expect(sb[0].snapshot.recipient).toMatchObject({
          legalName: 'Market Ltd',
          vatId: 'GB1',
          taxId: 'SHOP-SECRET',
        });
        // the event's view carries no tax id
        expect(JSON.stringify(publicDocumentView(sb[0]))).not.toMatch(/SECRET/);
      }
      // never a tax id on the other kinds
      for (const d of w.documents.docs.filter((x) => x.type !== 'self_billed_invoice'))
        expect(JSON.stringify(d.snapshot)).not.toMatch(/SECRET/);
    },
  );

  it('a carried-forward batch issues nothing (its rows are invoiced by the batch that pays them)', async () => {
    const w = world({ status: 'carried_forward' });
    expect(await w.run()).toBe(0);
    expect(w.documents.docs).toEqual([]);
    expect(w.batch.documentsDue).toBe(false);
  });
});
