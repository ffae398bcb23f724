import { batchDocuments, type BatchDocumentInput, type DocumentRow } from './document-snapshot';
import type { DocumentParty } from './document.types';

// The oracle: BigInt cents, half-up, written here apart from the builder (and from common/money).
const c = (s: string): bigint => {
  const neg = s.startsWith('-');
  const [i, f = ''] = s.replace('-', '').split('.');
  const v = BigInt(i) * 100n + BigInt((f + '00').slice(0, 2));
  return neg ? -v : v;
};
const half = (a: bigint, b: bigint) => (a * 2n + b) / (2n * b);
const fmt = (v: bigint) => {
  const a = v < 0n ? -v : v;
  return `${v < 0n ? '-' : ''}${a / 100n}.${String(a % 100n).padStart(2, '0')}`;
};
/** A sale row at 10 % commission and 20 % tax on it; figures as the money function stores them. */
function sale(orderId: number, price: string, qty: number, tax = '0.00', at = '2026-03-01T10:00:00Z') {
  const sales = c(price) * BigInt(qty);
  const commission = half(sales * 10n, 100n);
  const toc = half(commission * 20n, 100n);
  const row: DocumentRow = {
    orderId,
    orderName: `#${orderId}`,
    orderCreatedAt: new Date(at),
    type: 'sale',
    commission: Number(fmt(commission)),
    taxOnCommissions: Number(fmt(toc)),
    salesAfterDiscount: Number(fmt(sales)),
    tax: Number(tax),
    batchPaidAmount: Number(fmt(sales - commission - toc)),
  };
  return { row, commission, toc, sales, tax: c(tax) };
}
const refundOf = (r: DocumentRow, at = '2026-03-05T10:00:00Z'): DocumentRow => ({
  ...r,
  type: 'refund',
  orderCreatedAt: new Date(at),
  commission: -r.commission,
  taxOnCommissions: -r.taxOnCommissions,
  salesAfterDiscount: -r.salesAfterDiscount,
  tax: -r.tax,
  batchPaidAmount: -(r.batchPaidAmount ?? 0),
});
const party = (legalName: string, taxId: string): DocumentParty => ({
  legalName,
  address: null,
  vatId: `VAT-${legalName}`,
  taxId,
  businessRegistrationNumber: null,
});
const input = (rows: DocumentRow[], more: Partial<BatchDocumentInput> = {}): BatchDocumentInput => ({
  batchId: 'b2',
  periodEnd: new Date('2026-03-31T23:59:59.999Z'),
  rows,
  adjustmentTotal: 0,
  adjustmentCount: 0,
  issuedAt: new Date('2026-04-01T02:00:00Z'),
  currency: 'EUR',
  shop: party('Shop', 'SHOP-TAX'),
  vendor: party('Vendor', 'VENDOR-TAX'),
  selfBilling: false,
  priorInvoices: [],
  ...more,
});

describe('batchDocuments (DESIGN §14 snapshots)', () => {
  const a = sale(1, '50.00', 2); // commission 10.00, tax on it 2.00
  const b = sale(1, '19.99', 1); // 2.00 (1.999), 0.40
  const d = sale(2, '0.35', 3, '0.21', '2026-03-02T10:00:00Z'); // 0.11 (0.105 half-up), 0.02 (0.022)

  it('a positive commission: one invoice, one line per order, figures and totals equal the oracle', () => {
    const docs = batchDocuments(input([a.row, b.row, d.row]));
    expect(docs.map((x) => x.type)).toEqual(['commission_invoice', 'payout_statement']);
    const inv = docs[0];
    expect(inv.series).toBe('commission_invoice');
    expect(inv.orderIds).toEqual(['1', '2']);
    const o1 = { net: a.commission + b.commission, tax: a.toc + b.toc };
    const o2 = { net: d.commission, tax: d.toc };
    expect(inv.snapshot.lines.map((l) => [l.orderId, l.net, l.tax, l.total])).toEqual([
      ['1', fmt(o1.net), fmt(o1.tax), fmt(o1.net + o1.tax)],
      ['2', fmt(o2.net), fmt(o2.tax), fmt(o2.net + o2.tax)],
    ]);
    const net = o1.net + o2.net;
    const tax = o1.tax + o2.tax;
    expect(inv.snapshot.totals).toEqual({ net: fmt(net), tax: fmt(tax), total: fmt(net + tax) });
    expect(inv.snapshot.totals).toEqual({ net: '12.11', tax: '2.42', total: '14.53' });
    expect(inv.snapshot).toMatchObject({
      number: null,
      currency: 'EUR',
      batchId: 'b2',
      mentions: [],
      corrects: [],
    });
    expect(inv.snapshot.period).toEqual({ from: '2026-03-01T10:00:00.000Z', to: '2026-03-31T23:59:59.999Z' });
    // tax ids only on a self-billed invoice
    expect(inv.snapshot.issuer).toMatchObject({ legalName: 'Shop', vatId: 'VAT-Shop', taxId: null });
    expect(inv.snapshot.recipient).toMatchObject({ legalName: 'Vendor', taxId: null });
  });

  it('refunds that give commission back: a credit note correcting the invoices of the refunded orders only', () => {
    const other = sale(3, '10.00', 1);
    const docs = batchDocuments(
      input([refundOf(a.row), other.row], {
        priorInvoices: [
          {
            documentId: 'i1',
            number: 'INV-2026-000001',
            type: 'commission_invoice',
            batchId: 'b1',
            orderIds: ['1', '2'],
          },
          {
            documentId: 'i9',
            number: 'INV-2026-000009',
            type: 'commission_invoice',
            batchId: 'b0',
            orderIds: ['7'],
          },
          {
            documentId: 's1',
            number: 'SB-2026-000001',
            type: 'self_billed_invoice',
            batchId: 'b1',
            orderIds: ['1'],
          },
          { documentId: 'p1', number: null, type: 'payout_statement', batchId: 'b1', orderIds: ['1'] },
        ],
      }),
    );
    expect(docs.map((x) => x.type)).toEqual(['credit_note', 'payout_statement']);
    const note = docs[0];
    expect(note.series).toBe('credit_note');
    expect(note.snapshot.corrects).toEqual([{ documentId: 'i1', number: 'INV-2026-000001' }]);
    const net = -a.commission + other.commission;
    const tax = -a.toc + other.toc;
    expect(net + tax < 0n).toBe(true);
    expect(note.snapshot.totals).toEqual({ net: fmt(net), tax: fmt(tax), total: fmt(net + tax) });
    // oldest order date first: the sale of order 3 (1 March) before the refund of order 1 (5 March)
    expect(note.snapshot.lines.map((l) => l.net)).toEqual([fmt(other.commission), fmt(-a.commission)]);
  });

  it('a commission that nets to zero issues neither invoice nor credit note', () => {
    expect(batchDocuments(input([a.row, refundOf(a.row)])).map((x) => x.type)).toEqual(['payout_statement']);
  });

  it('self-billing only when agreed: the goods and their tax, "Self-billing", both parties’ VAT and tax ids', () => {
    expect(batchDocuments(input([d.row])).some((x) => x.type === 'self_billed_invoice')).toBe(false);
    const docs = batchDocuments(input([a.row, d.row], { selfBilling: true }));
    const sb = docs.find((x) => x.type === 'self_billed_invoice')!;
    expect(sb.series).toBe('self_billed_invoice');
    expect(sb.snapshot.mentions).toEqual(['Self-billing']);
    expect(sb.snapshot.issuer).toMatchObject({
      legalName: 'Vendor',
      vatId: 'VAT-Vendor',
      taxId: 'VENDOR-TAX',
    });
    expect(sb.snapshot.recipient).toMatchObject({ legalName: 'Shop', vatId: 'VAT-Shop', taxId: 'SHOP-TAX' });
    expect(sb.snapshot.lines.map((l) => [l.net, l.tax])).toEqual([
      [fmt(a.sales), fmt(a.tax)],
      [fmt(d.sales), fmt(d.tax)],
    ]);
    const net = a.sales + d.sales;
    const tax = a.tax + d.tax;
    expect(sb.snapshot.totals).toEqual({ net: fmt(net), tax: fmt(tax), total: fmt(net + tax) });
  });

  it('the payout statement: what the batch paid per order, then its adjustments; total = the batch total', () => {
    const docs = batchDocuments(input([a.row, b.row, d.row], { adjustmentTotal: 5.25, adjustmentCount: 1 }));
    const st = docs.find((x) => x.type === 'payout_statement')!;
    expect(st.series).toBeNull();
    const paid = (r: DocumentRow) => c(String(r.batchPaidAmount));
    expect(st.snapshot.lines.map((l) => [l.orderId, l.net])).toEqual([
      ['1', fmt(paid(a.row) + paid(b.row))],
      ['2', fmt(paid(d.row))],
      ['', '5.25'],
    ]);
    expect(st.snapshot.totals.total).toBe(fmt(paid(a.row) + paid(b.row) + paid(d.row) + 525n));
    expect(st.snapshot.issuer.taxId).toBeNull();
  });
});
