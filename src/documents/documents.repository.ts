import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import type { CursorRows, CursorWindow } from '../common/pagination';
import type { ShopScope } from '../common/tenancy';
import { toObjectId } from '../common/tenancy';
import { TenantRepository } from '../database/tenant-repository';
import { upsertReturningDocument } from '../database/upsert';
import { clearMarker, markedBefore } from '../event-port/pending-event-marker';
import { DOCUMENT_TYPES, type DocumentSnapshot, type DocumentType } from './document.types';
import { IssuedDocument } from './issued-document.schema';

/** What a list filters on (each optional); `vendorId` narrows a shop caller to one vendor. */
export interface DocumentListFilter {
  type?: DocumentType;
  vendorId?: Types.ObjectId;
  issuedAt?: { $gte?: Date; $lte?: Date };
}

/** A document to write pending (its snapshot is final: a rerun keeps the first one written). */
export interface PendingDocument {
  vendorId: Types.ObjectId;
  type: DocumentType;
  series: string | null;
  batchId: Types.ObjectId | null;
  orderId: string | null;
  orderIds: string[];
  issuedAt: Date;
  snapshot: DocumentSnapshot;
}

/** More than any batch or order has documents: the whole-set reads stay bounded. */
const FEW = 500;
const NEWEST = { issuedAt: -1, _id: -1 } as const;

/**
 * The documents collection (DESIGN §14): written once pending, numbered and issued by conditional
 * single-document updates, never edited afterwards. Vendor callers see only their own documents.
 */
@Injectable()
export class DocumentsRepository extends TenantRepository<IssuedDocument> {
  protected override readonly vendorField = 'vendorId';

  constructor(@InjectModel(IssuedDocument.name) model: Model<IssuedDocument>) {
    super(model);
  }

  /**
   * The document of (batch or order, vendor, type): found, or created pending with this snapshot.
   * A rerun after a crash finds the one written first (and its snapshot) instead of a second one.
   */
  findOrCreatePending(scope: ShopScope, doc: PendingDocument): Promise<IssuedDocument> {
    const key = { batchId: doc.batchId, vendorId: doc.vendorId, type: doc.type, orderId: doc.orderId };
    const year = doc.issuedAt.getUTCFullYear();
    const update = {
      $setOnInsert: {
        series: doc.series,
        year,
        orderIds: doc.orderIds,
        issuedAt: doc.issuedAt,
        snapshot: doc.snapshot,
        state: 'pending' as const,
        number: null,
        seq: null,
      },
    };
    return upsertReturningDocument(() =>
      this.model
        .findOneAndUpdate(this.scoped(scope, key), update, {
          upsert: true,
          new: true,
          setDefaultsOnInsert: true,
        })
        .lean<IssuedDocument>()
        .exec(),
    );
  }

  /**
   * pending → issued, with its number (null for unnumbered kinds) in the document and its snapshot,
   * and the pending-event marker, in one conditional write. Null when it was issued already.
   */
  issue(
    scope: ShopScope,
    id: Types.ObjectId,
    number: string | null,
    at: Date,
  ): Promise<IssuedDocument | null> {
    const seq = number === null ? null : Number(/(\d+)$/.exec(number)?.[1] ?? NaN);
    return this.model
      .findOneAndUpdate(
        this.scoped(scope, { _id: id, state: 'pending' }),
        {
          $set: {
            state: 'issued',
            number,
            seq: Number.isFinite(seq) ? seq : null,
            'snapshot.number': number,
            eventPendingAt: at,
          },
        },
        { new: true },
      )
      .lean<IssuedDocument>()
      .exec();
  }

  findById(scope: ShopScope, id: string | Types.ObjectId): Promise<IssuedDocument | null> {
    return this.findOneById(scope, id);
  }

  /** Every document of a batch (at most one per kind). */
  ofBatch(scope: ShopScope, batchId: Types.ObjectId): Promise<IssuedDocument[]> {
    // in the unique index's order: a total order, read off the index
    return this.model
      .find(this.scoped(scope, { batchId }))
      .sort({ vendorId: 1, type: 1, orderId: 1 })
      .limit(FEW)
      .lean<IssuedDocument[]>()
      .exec();
  }

  /** Every document whose lines name one of these orders (a few per order). */
  naming(scope: ShopScope, orderIds: string[], vendorId?: Types.ObjectId): Promise<IssuedDocument[]> {
    if (orderIds.length === 0) return Promise.resolve([]);
    const orders = orderIds.length === 1 ? orderIds[0] : { $in: orderIds };
    return (
      this.model
        .find(this.scoped(scope, { orderIds: orders, vendorId }))
        // a total order (by _id after the vendor), read off the `{shopId, orderIds, vendorId, _id}` index
        .sort({ vendorId: 1, _id: 1 })
        .limit(FEW)
        .lean<IssuedDocument[]>()
        .exec()
    );
  }

  /** One v1 page newest first, plus the total. */
  page(
    scope: ShopScope,
    filter: DocumentListFilter,
    page: { offset: number; limit: number },
  ): Promise<{ total: number; items: IssuedDocument[] }> {
    return this.offsetPage<IssuedDocument>(scope, where(filter), NEWEST, page);
  }

  /** One V2 cursor window newest first by (issuedAt, _id). */
  window(
    scope: ShopScope,
    filter: DocumentListFilter,
    window: CursorWindow,
  ): Promise<CursorRows<IssuedDocument>> {
    return this.cursorPage<IssuedDocument>(scope, where(filter), window, { timeField: 'issuedAt' });
  }

  /** The document's event is recorded: its marker goes (where it still holds `at`). */
  async eventRecorded(scope: ShopScope, id: Types.ObjectId, at: Date): Promise<void> {
    await clearMarker(this.model, (f) => this.scoped(scope, f), [id], at);
  }

  /** The events sweeper (a system query over every shop): issued documents whose event is unrecorded. */
  eventPending(before: Date, limit: number): Promise<IssuedDocument[]> {
    return markedBefore<IssuedDocument>(this.model, 'issued documents', { before, limit });
  }
}

/** A list filter as sent: the kind as `$in` over every kind when absent (one index serves both). */
function where(filter: DocumentListFilter): Record<string, unknown> {
  return {
    vendorId: filter.vendorId,
    type: filter.type ?? { $in: DOCUMENT_TYPES },
    issuedAt: filter.issuedAt,
  };
}

export const documentObjectId = (id: string | null | undefined): Types.ObjectId | null =>
  id ? toObjectId(id) : null;
