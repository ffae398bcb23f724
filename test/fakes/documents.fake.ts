import { Types } from 'mongoose';
import type { ShopScope } from '../../src/common/tenancy';
import type { DocumentNumbering } from '../../src/documents/document-numbering.port';
import type { NumberedDocumentType } from '../../src/documents/document.types';
import type { DocumentsRepository, PendingDocument } from '../../src/documents/documents.repository';
import type { IssuedDocument } from '../../src/documents/issued-document.schema';
import { inScope } from './fake';

/** A stored document as a read hands it out (ids stay ObjectIds; the snapshot is a copy). */
const copy = (d: IssuedDocument): IssuedDocument => ({
  ...d,
  orderIds: [...d.orderIds],
  snapshot: structuredClone(d.snapshot),
});

/** The documents collection in memory, with the repository's unique key and conditional issue. */
export class FakeDocumentsRepository implements Pick<
  DocumentsRepository,
  'findOrCreatePending' | 'issue' | 'ofBatch' | 'naming' | 'findById'
> {
  readonly docs: IssuedDocument[] = [];

  async findOrCreatePending(scope: ShopScope, doc: PendingDocument): Promise<IssuedDocument> {
    const found = inScope(scope, this.docs).find(
      (d) =>
        String(d.batchId) === String(doc.batchId) &&
        d.vendorId.equals(doc.vendorId) &&
        d.type === doc.type &&
        d.orderId === doc.orderId,
    );
    if (found) return copy(found);
    const now = new Date();
    const created: IssuedDocument = {
      _id: new Types.ObjectId(),
      shopId: new Types.ObjectId(scope.shopId),
      ...doc,
      year: doc.issuedAt.getUTCFullYear(),
      number: null,
      seq: null,
      state: 'pending',
      createdAt: now,
      updatedAt: now,
    };
    this.docs.push(created);
    return copy(created);
  }

  async issue(
    scope: ShopScope,
    id: Types.ObjectId,
    number: string | null,
    at: Date,
  ): Promise<IssuedDocument | null> {
    const d = inScope(scope, this.docs).find((x) => x._id.equals(id) && x.state === 'pending');
    if (!d) return null;
    Object.assign(d, { state: 'issued', number, eventPendingAt: at });
    d.snapshot = { ...d.snapshot, number };
    return copy(d);
  }

  async findById(scope: ShopScope, id: string | Types.ObjectId): Promise<IssuedDocument | null> {
    const d = inScope(scope, this.docs).find((x) => String(x._id) === String(id));
    return d ? copy(d) : null;
  }

  async ofBatch(scope: ShopScope, batchId: Types.ObjectId): Promise<IssuedDocument[]> {
    return inScope(scope, this.docs)
      .filter((d) => d.batchId?.equals(batchId))
      .map((d) => copy(d));
  }

  async naming(scope: ShopScope, orderIds: string[], vendorId?: Types.ObjectId): Promise<IssuedDocument[]> {
    return inScope(scope, this.docs)
      .filter(
        (d) => d.orderIds.some((o) => orderIds.includes(o)) && (!vendorId || d.vendorId.equals(vendorId)),
      )
      .map((d) => copy(d));
  }
}

/** An allocator per (shop, type, year) that answers a document's number again when asked again. */
export class FakeNumbering implements DocumentNumbering {
  readonly assigned = new Map<string, string>();
  private readonly next = new Map<string, number>();
  /** Throw from it to crash a run right after a number was assigned. */
  afterAssign: (documentId: string) => void = () => undefined;

  async assign(
    scope: ShopScope,
    documentId: string,
    type: NumberedDocumentType,
    issuedAt: Date,
  ): Promise<string> {
    let number = this.assigned.get(documentId);
    if (!number) {
      const key = `${scope.shopId}:${type}:${issuedAt.getUTCFullYear()}`;
      const seq = (this.next.get(key) ?? 0) + 1;
      this.next.set(key, seq);
      const prefix = { commission_invoice: 'INV-', credit_note: 'CN-', self_billed_invoice: 'SB-' }[type];
      number = `${prefix}${issuedAt.getUTCFullYear()}-${String(seq).padStart(6, '0')}`;
      this.assigned.set(documentId, number);
    }
    this.afterAssign(documentId);
    return number;
  }
}
