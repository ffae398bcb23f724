import type { LegalAddress } from '../common/legal/legal-address.dto';
import type { ShopScope } from '../common/tenancy/scope';

/**
 * DESIGN §14: the kinds of document. Documents are issued, never edited: each stores a snapshot of
 * every party detail and figure at issue time, and its PDF is rendered from that snapshot alone.
 */
export const DOCUMENT_TYPES = [
  'commission_invoice',
  'credit_note',
  'self_billed_invoice',
  'payout_statement',
  'packing_slip',
] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

/** The kinds that take the next number of their series (per shop, per year of issue). */
export const NUMBERED_DOCUMENT_TYPES = ['commission_invoice', 'credit_note', 'self_billed_invoice'] as const;
export type NumberedDocumentType = (typeof NUMBERED_DOCUMENT_TYPES)[number];
export const isNumbered = (t: DocumentType): t is NumberedDocumentType =>
  (NUMBERED_DOCUMENT_TYPES as readonly string[]).includes(t);

/** A party as printed on a document (issuer or recipient). Sealed values are NOT in a snapshot except
 * the VAT id / tax id a document legally must carry (self-billing: both parties' VAT ids). */
export interface DocumentParty {
  legalName: string;
  address: LegalAddress | null;
  vatId: string | null;
  /** Printed only where the document requires it (self-billed invoice); otherwise null. */
  taxId: string | null;
  businessRegistrationNumber: string | null;
}

/** One line of a numbered document: one order of the batch (DESIGN §14 "one line per order"). All
 * money figures are decimal strings with two places (e.g. "12.50"), negative on a credit note. */
export interface DocumentLine {
  orderId: string;
  orderName: string | null;
  orderDate: string; // ISO date-time of the order's created_at
  description: string;
  /** commission_invoice / credit_note: Σ commission; self_billed_invoice: Σ goods (taxable amount). */
  net: string;
  /** commission_invoice / credit_note: Σ taxOnCommissions; self_billed_invoice: Σ tax on the goods. */
  tax: string;
  total: string;
}

export interface DocumentTotals {
  net: string;
  tax: string;
  total: string;
}

/** Everything a document shows, frozen at issue. The PDF is a pure function of this object. */
export interface DocumentSnapshot {
  type: DocumentType;
  /** null for unnumbered kinds */
  number: string | null;
  issuedAt: string; // ISO date-time
  currency: string;
  issuer: DocumentParty;
  recipient: DocumentParty;
  /** Mentions the law requires, printed verbatim (e.g. "Self-billing", "Reverse charge"). */
  mentions: string[];
  batchId: string | null;
  period: { from: string | null; to: string | null };
  lines: DocumentLine[];
  totals: DocumentTotals;
  /** credit_note: the invoices it corrects (their numbers). */
  corrects: { documentId: string; number: string }[];
}

/** The stored document as the API answers it (GET /v1/documents/{id}). */
export interface DocumentView {
  id: string;
  shopId: string;
  vendorId: string;
  type: DocumentType;
  number: string | null;
  batchId: string | null;
  orderId: string | null;
  issuedAt: string;
  snapshot: DocumentSnapshot;
}

/** What the PDF routes and signed links need from the documents store (implemented by the
 * documents repository/service; the PDF side depends only on this). All reads are tenant-scoped:
 * vendorId set → only that vendor's documents. */
export interface DocumentReader {
  findById(scope: ShopScope, id: string): Promise<DocumentView | null>;
  /** The newest numbered invoice (commission_invoice, else self_billed_invoice) whose lines include
   * the order, for that vendor; null when none is issued yet. */
  findInvoiceForOrder(scope: ShopScope, vendorId: string, orderId: string): Promise<DocumentView | null>;
}
export const DOCUMENT_READER = Symbol('DocumentReader');
