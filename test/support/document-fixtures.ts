import type {
  DocumentLine,
  DocumentParty,
  DocumentReader,
  DocumentSnapshot,
  DocumentType,
  DocumentView,
} from '../../src/documents/document.types';
import type { ShopScope } from '../../src/common/tenancy';
import { Types } from 'mongoose';

/**
 * A test-only DocumentReader (DESIGN §14's port) over documents the test inserts, honouring the
 * scope as the documents store must: the shop always, the vendor when the scope names one. Bound in
 * place of DOCUMENT_READER with `startApp((b) => b.overrideProvider(DOCUMENT_READER).useValue(docs))`.
 */
export class FixtureDocuments implements DocumentReader {
  readonly views: DocumentView[] = [];

  add(view: DocumentView): DocumentView {
    this.views.push(view);
    return view;
  }

  findById(scope: ShopScope, id: string): Promise<DocumentView | null> {
    const v = this.views.find(
      (d) => d.id === id && d.shopId === scope.shopId && (!scope.vendorId || d.vendorId === scope.vendorId),
    );
    return Promise.resolve(v ?? null);
  }

  findInvoiceForOrder(scope: ShopScope, vendorId: string, orderId: string): Promise<DocumentView | null> {
    const mine = this.views
      .filter((d) => d.shopId === scope.shopId && d.vendorId === vendorId)
      .filter((d) => d.snapshot.lines.some((l) => l.orderId === orderId))
      .sort((a, b) => b.issuedAt.localeCompare(a.issuedAt));
    return Promise.resolve(
      mine.find((d) => d.type === 'commission_invoice') ??
        mine.find((d) => d.type === 'self_billed_invoice') ??
        null,
    );
  }
}

export const party = (legalName: string, vatId: string | null): DocumentParty => ({
  legalName,
  address: {
    line1: '1 Quay Street',
    line2: null,
    city: 'Hamburg',
    postalCode: '20457',
    region: null,
    country: 'DE',
  },
  vatId,
  taxId: null,
  businessRegistrationNumber: null,
});

/** A stored document as the documents store would answer it. */
export function documentView(input: {
  shopId: string;
  vendorId: string;
  type: DocumentType;
  number: string | null;
  lines: DocumentLine[];
  totals: DocumentSnapshot['totals'];
  issuer?: DocumentParty;
  recipient?: DocumentParty;
  issuedAt?: string;
}): DocumentView {
  const id = new Types.ObjectId().toHexString();
  const issuedAt = input.issuedAt ?? '2026-11-30T12:00:00.000Z';
  return {
    id,
    shopId: input.shopId,
    vendorId: input.vendorId,
    type: input.type,
    number: input.number,
    batchId: null,
    orderId: null,
    issuedAt,
    snapshot: {
      type: input.type,
      number: input.number,
      issuedAt,
      currency: 'USD',
      issuer: input.issuer ?? party('Operator Legal Ltd', 'DE111111111'),
      recipient: input.recipient ?? party('Vendor Legal SARL', 'FR22222222222'),
      mentions: input.type === 'self_billed_invoice' ? ['Self-billing'] : [],
      batchId: null,
      period: { from: '2026-11-01T00:00:00.000Z', to: '2026-11-30' },
      lines: input.lines,
      totals: input.totals,
      corrects: [],
    },
  };
}
