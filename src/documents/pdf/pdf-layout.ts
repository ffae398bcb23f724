import type { Content, TDocumentDefinitions } from 'pdfmake/interfaces';
import type { LegalAddress } from '../../common/legal/legal-address.dto';
import type { DocumentParty } from '../document.types';

/** The look shared by every document: A4, margins for the footer, a few named styles. */
export const PAGE: Pick<TDocumentDefinitions, 'pageSize' | 'pageMargins' | 'styles'> = {
  pageSize: 'A4',
  pageMargins: [40, 40, 40, 70],
  styles: {
    title: { fontSize: 18, bold: true, margin: [0, 0, 0, 4] },
    label: { fontSize: 8, color: '#555555' },
    partyName: { bold: true },
    th: { bold: true, fontSize: 8, color: '#333333' },
    totalLabel: { bold: true },
    mention: { bold: true, fontSize: 11, margin: [0, 6, 0, 6] },
    footer: { fontSize: 7, color: '#555555' },
  },
};

/** `2026-11-30T…` → `2026-11-30` (UTC): dates print as ISO days, whatever the reader's locale. */
export const day = (iso: string | null | undefined): string => (iso ? iso.slice(0, 10) : '—');

export function addressLines(a: LegalAddress | null): string[] {
  if (!a) return [];
  return [
    a.line1,
    a.line2,
    [a.postalCode, a.city].filter(Boolean).join(' '),
    [a.region, a.country].filter(Boolean).join(', '),
  ].filter((l): l is string => !!l);
}

/** An issuer or recipient block: the name, the address, then the identifiers it carries. */
export function partyBlock(heading: string, p: DocumentParty): Content {
  const ids = [
    p.vatId ? `VAT id: ${p.vatId}` : null,
    p.taxId ? `Tax id: ${p.taxId}` : null,
    p.businessRegistrationNumber ? `Registration no.: ${p.businessRegistrationNumber}` : null,
  ].filter((l): l is string => !!l);
  return {
    stack: [
      { text: heading, style: 'label' },
      { text: p.legalName, style: 'partyName' },
      ...addressLines(p.address).map((text) => ({ text })),
      ...ids.map((text) => ({ text })),
    ],
  };
}

/** Key/value pairs under the title (number, date, period, batch). */
export function metaBlock(pairs: [string, string][]): Content {
  return {
    table: {
      widths: ['auto', '*'],
      body: pairs.map(([k, v]) => [
        { text: k, style: 'label' },
        { text: v, bold: true },
      ]),
    },
    layout: 'noBorders',
    margin: [0, 0, 0, 12],
  };
}

/** The footer of every page: the legal mentions and the issuer's identity, then "page X of Y". */
export function footer(lines: string[]): TDocumentDefinitions['footer'] {
  return (currentPage: number, pageCount: number): Content => ({
    margin: [40, 10, 40, 0],
    columns: [
      { width: '*', stack: lines.map((text) => ({ text, style: 'footer' })) },
      { width: 'auto', text: `page ${currentPage} of ${pageCount}`, style: 'footer' },
    ],
  });
}

export function issuerFooterLine(p: DocumentParty): string {
  return [p.legalName, addressLines(p.address).join(', '), p.vatId ? `VAT id ${p.vatId}` : null]
    .filter(Boolean)
    .join(' · ');
}

export const TABLE_LAYOUT = 'lightHorizontalLines';
