import { linesWith, pdfText, words } from '../../../test/support/pdf-text';
import { renderPackingSlipPdf } from './packing-slip.renderer';
import type { PackingSlipSnapshot } from './packing-slip.types';

const slip = (over: Partial<PackingSlipSnapshot> = {}): PackingSlipSnapshot => ({
  issuedAt: '2026-11-28T09:15:00.000Z',
  sender: {
    name: 'Harbour Market GmbH',
    address: {
      line1: '1 Quay Street',
      line2: null,
      city: 'Hamburg',
      postalCode: '20457',
      region: null,
      country: 'DE',
    },
  },
  vendor: { id: '6740b9f1c2a4e15b3c9d0a21', name: 'Acme Apparel' },
  order: { id: '5549201834154', name: '#1042', createdAt: '2026-11-20T09:30:00.000Z' },
  shipTo: {
    name: 'Jane Doe',
    company: null,
    address1: '12 Elm Road',
    address2: 'Flat 3',
    city: 'Leeds',
    province: 'West Yorkshire',
    zip: 'LS1 4AB',
    country: 'United Kingdom',
    phone: null,
  },
  lines: [
    { sku: 'ACME-TOTE', title: 'Canvas tote bag', quantity: 2 },
    { sku: null, title: 'Enamel pin', quantity: 13 },
  ],
  ...over,
});

describe('packing slip PDF', () => {
  it('lists the vendor’s lines (SKU, title, quantity) and the ship-to address, and no price', async () => {
    const text = pdfText(await renderPackingSlipPdf(slip()));
    expect(text).toContain('Packing slip');
    expect(text).toContain('#1042');
    expect(text).toContain('Acme Apparel');
    for (const part of [
      'Jane Doe',
      '12 Elm Road',
      'Flat 3',
      'LS1 4AB Leeds',
      'West Yorkshire, United Kingdom',
    ]) {
      expect(text).toContain(part);
    }
    expect(words(linesWith(text, 'Canvas tote bag')[0])).toEqual(['ACME-TOTE', 'Canvas', 'tote', 'bag', '2']);
    expect(words(linesWith(text, 'Enamel pin')[0])).toEqual(['—', 'Enamel', 'pin', '13']);
    // no amount anywhere: no decimal figure, no currency, no price/total wording
    expect(text).not.toMatch(/\d+\.\d{2}\b/);
    expect(text).not.toMatch(/price|total|EUR|USD|€|\$/i);
    expect(text).toMatch(/page 1 of 1/);
  });

  it('says so when the order has no shipping address', async () => {
    expect(pdfText(await renderPackingSlipPdf(slip({ shipTo: null })))).toContain(
      'No shipping address on the order',
    );
  });

  it('is deterministic: the same slip renders to identical bytes', async () => {
    const [a, b] = [await renderPackingSlipPdf(slip()), await renderPackingSlipPdf(slip())];
    expect(a.equals(b)).toBe(true);
  });
});
