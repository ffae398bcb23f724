import type { DocumentParty, DocumentSnapshot, DocumentView } from './document.types';
import type { IssuedDocument } from './issued-document.schema';

/** The stored document as the API answers it (GET /v1/documents/{id}). */
export function toDocumentView(doc: IssuedDocument): DocumentView {
  return {
    id: String(doc._id),
    shopId: String(doc.shopId),
    vendorId: String(doc.vendorId),
    type: doc.type,
    number: doc.number,
    batchId: doc.batchId ? String(doc.batchId) : null,
    orderId: doc.orderId,
    issuedAt: doc.issuedAt.toISOString(),
    snapshot: doc.snapshot,
  };
}

const unsealed = (p: DocumentParty): DocumentParty => ({ ...p, taxId: null });

/**
 * The view without any tax id (DESIGN §14: tax ids never in events or audit snapshots): what the
 * `document.issued` event carries. The self-billed invoice's VAT ids are public and stay.
 */
export function publicDocumentView(doc: IssuedDocument): DocumentView {
  const view = toDocumentView(doc);
  const snapshot: DocumentSnapshot = {
    ...view.snapshot,
    issuer: unsealed(view.snapshot.issuer),
    recipient: unsealed(view.snapshot.recipient),
  };
  return { ...view, snapshot };
}
