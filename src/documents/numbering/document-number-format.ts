import type { NumberedDocumentType } from '../document.types';
import type { SeriesKey } from './document-counter.schema';

/** `{prefix}{year}-{seq:06}` (DESIGN §14): `INV-2026-000001`; a 7th digit appears after 999999. */
export function formatDocumentNumber(prefix: string, year: number, seq: number): string {
  return `${prefix}${year}-${String(seq).padStart(6, '0')}`;
}

/** The series a document takes its number from: its type, in the calendar year (UTC) of issue. */
export function seriesOf(type: NumberedDocumentType, issuedAt: Date): SeriesKey {
  const year = issuedAt.getUTCFullYear();
  if (!Number.isInteger(year)) throw new Error('A document is numbered in the year of a valid issue date');
  return { series: type, year };
}
