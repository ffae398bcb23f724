import { cents, fmt } from '../../../test/support/cents';
import { linesWith, pdfInfo, pdfText, words } from '../../../test/support/pdf-text';
import type { DocumentLine, DocumentParty, DocumentSnapshot, DocumentType } from '../document.types';
import { renderDocumentPdf } from './document.renderer';

const operator: DocumentParty = {
  legalName: 'Harbour Market GmbH',
  address: {
    line1: '1 Quay Street',
    line2: null,
    city: 'Hamburg',
    postalCode: '20457',
    region: null,
    country: 'DE',
  },
  vatId: 'DE123456789',
  taxId: null,
  businessRegistrationNumber: 'HRB 12345',
};
const vendor: DocumentParty = {
  legalName: 'Acme Apparel SARL',
  address: {
    line1: '9 Rue du Port',
    line2: 'Bât. B',
    city: 'Lyon',
    postalCode: '69002',
    region: null,
    country: 'FR',
  },
  vatId: 'FR40303265045',
  taxId: null,
  businessRegistrationNumber: null,
};

/** Three orders' commission and tax in cents (the oracle); the 0.105 → "0.11" half-up trap is upstream. */
const ORDERS: [string, bigint, bigint][] = [
  ['#1001', 1234n, 247n],
  ['#1002', 99999n, 19999n],
  ['#1003', 11n, 2n],
];

function snapshot(
  type: DocumentType,
  sign: 1n | -1n = 1n,
  over: Partial<DocumentSnapshot> = {},
): DocumentSnapshot {
  const lines: DocumentLine[] = ORDERS.map(([name, net, tax], i) => ({
    orderId: String(5549201834154 + i),
    orderName: name,
    orderDate: `2026-11-0${i + 1}T10:00:00.000Z`,
    description: `Commission on order ${name}`,
    net: fmt(sign * net),
    tax: fmt(sign * tax),
    total: fmt(sign * (net + tax)),
  }));
  const sum = (pick: (o: [string, bigint, bigint]) => bigint) =>
    fmt(sign * ORDERS.reduce((a, o) => a + pick(o), 0n));
  return {
    type,
    number: 'INV-2026-000042',
    issuedAt: '2026-11-30T12:00:00.000Z',
    currency: 'EUR',
    issuer: operator,
    recipient: vendor,
    mentions: [],
    batchId: '6742c1d2e3f4a5b6c7d8e9f0',
    period: { from: '2026-11-01T10:00:00.000Z', to: '2026-11-30' },
    lines,
    totals: { net: sum((o) => o[1]), tax: sum((o) => o[2]), total: sum((o) => o[1] + o[2]) },
    corrects: [],
    ...over,
  };
}

/** Every line's figures and the totals, as the independent oracle has them, are in the text. */
function expectFigures(text: string, sign: 1n | -1n) {
  for (const [name, net, tax] of ORDERS) {
    const row = linesWith(text, name).find((l) => l.includes('Commission on order'));
    expect(row).toBeDefined();
    expect(words(row!).slice(-3)).toEqual([fmt(sign * net), fmt(sign * tax), fmt(sign * (net + tax))]);
  }
  const total = (f: (o: [string, bigint, bigint]) => bigint) =>
    fmt(sign * ORDERS.reduce((a, o) => a + f(o), 0n));
  expect(words(linesWith(text, 'Total (EUR)')[0]).pop()).toBe(total((o) => o[1] + o[2]));
  expect(text).toMatch(new RegExp(`Total commission\\s+${total((o) => o[1]).replace('.', '\\.')}`));
  expect(text).toMatch(new RegExp(`Total tax on commission\\s+${total((o) => o[2]).replace('.', '\\.')}`));
}

describe('document PDFs (pdfmake, read back with pdftotext)', () => {
  it('commission invoice: number, both parties, each order’s figures, the totals, page X of Y', async () => {
    const text = pdfText(await renderDocumentPdf(snapshot('commission_invoice')));
    expect(text).toContain('Commission invoice');
    expect(text).toContain('INV-2026-000042');
    expect(text).toContain('2026-11-30');
    expect(text).toContain('Harbour Market GmbH');
    expect(text).toContain('Acme Apparel SARL');
    expect(text).toContain('DE123456789');
    expect(text).toContain('69002 Lyon');
    expect(text).toMatch(/2026-11-01 – 2026-11-30/);
    expect(text).toMatch(/page 1 of 1/);
    expectFigures(text, 1n);
    expect(cents('1234.44')).toBe(123444n); // the oracle's parser is the shared one, in cents
  });

  it('credit note: negative figures and the invoices it corrects', async () => {
    const s = snapshot('credit_note', -1n, {
      number: 'CN-2026-000003',
      corrects: [
        { documentId: '6750aa00aa00aa00aa00aa01', number: 'INV-2026-000040' },
        { documentId: '6750aa00aa00aa00aa00aa02', number: 'INV-2026-000041' },
      ],
    });
    const text = pdfText(await renderDocumentPdf(s));
    expect(text).toContain('Credit note');
    expect(text).toContain('CN-2026-000003');
    expect(text).toMatch(/Corrects: INV-2026-000040, INV-2026-000041/);
    expectFigures(text, -1n);
  });

  it('self-billed invoice: "Self-billing" printed, both parties’ VAT ids, the vendor as supplier', async () => {
    // the vendor's invoice, issued on its behalf: the vendor is the issuer (as the documents store snapshots it)
    const s = snapshot('self_billed_invoice', 1n, {
      number: 'SB-2026-000001',
      mentions: ['Self-billing'],
      issuer: vendor,
      recipient: operator,
    });
    const text = pdfText(await renderDocumentPdf(s));
    expect(text).toContain('Self-billed invoice');
    expect(text).toContain('Self-billing');
    expect(text).toContain('SB-2026-000001');
    expect(text).toContain('VAT id: DE123456789');
    expect(text).toContain('VAT id: FR40303265045');
    const supplierRow = linesWith(text, 'Supplier (vendor)')[0];
    expect(supplierRow.indexOf('Supplier')).toBeLessThan(supplierRow.indexOf('Customer'));
    const names = linesWith(text, 'Acme Apparel SARL')[0];
    expect(names.indexOf('Acme Apparel SARL')).toBeLessThan(names.indexOf('Harbour Market GmbH'));
    for (const [name, net, tax] of ORDERS) {
      expect(words(linesWith(text, name).find((l) => l.includes('Commission on'))!).slice(-3)).toEqual([
        fmt(net),
        fmt(tax),
        fmt(net + tax),
      ]);
    }
  });

  it('payout statement: unnumbered, its rows and totals', async () => {
    const text = pdfText(await renderDocumentPdf(snapshot('payout_statement', 1n, { number: null })));
    expect(text).toContain('Payout statement');
    expect(text).not.toContain('INV-2026');
    expect(text).toContain('6742c1d2e3f4a5b6c7d8e9f0');
    expect(words(linesWith(text, 'Total (EUR)')[0]).pop()).toBe(
      fmt(ORDERS.reduce((a, o) => a + o[1] + o[2], 0n)),
    );
  });

  it('is deterministic: the same snapshot renders to identical bytes, its metadata dated at issue', async () => {
    const [a, b] = [
      await renderDocumentPdf(snapshot('commission_invoice')),
      await renderDocumentPdf(snapshot('commission_invoice')),
    ];
    expect(a.equals(b)).toBe(true);
    const info = pdfInfo(a);
    expect(info.CreationDate).toBe('2026-11-30T12:00:00Z');
    expect(info.ModDate).toBe('2026-11-30T12:00:00Z');
    expect(info.Pages).toBe('1');
    const later = await renderDocumentPdf(
      snapshot('commission_invoice', 1n, { issuedAt: '2026-12-01T00:00:00.000Z' }),
    );
    expect(later.equals(a)).toBe(false);
  });

  it('a long invoice breaks over pages, each numbered "page X of Y"', async () => {
    const many = snapshot('commission_invoice');
    many.lines = Array.from({ length: 120 }, (_, i) => ({ ...many.lines[0], orderName: `#${2000 + i}` }));
    const text = pdfText(await renderDocumentPdf(many));
    const pages = text.match(/page \d+ of (\d+)/g) ?? [];
    expect(pages.length).toBeGreaterThan(1);
    expect(pages).toEqual(pages.map((_, i) => `page ${i + 1} of ${pages.length}`));
    for (let i = 0; i < 120; i++) expect(text).toContain(`#${2000 + i}`);
  });
});
