import { Inject, Injectable } from '@nestjs/common';
import { dayRangeFilter } from '../common/dates/day-range';
import { NotFoundError } from '../common/errors';
import { nextOffset, readCursorPage } from '../common/pagination';
import type { ShopScope } from '../common/tenancy';
import { toObjectId } from '../common/tenancy';
import { authConfig, type AuthConfig } from '../config/configuration';
import { toDocumentView } from './document.mapper';
import type { DocumentReader, DocumentView } from './document.types';
import type { DocumentListDto, DocumentPageDto } from './dto/document.dto';
import type { DocumentListQueryDto, DocumentPageQueryDto } from './dto/document-query.dto';
import { DocumentsRepository } from './documents.repository';
import type { IssuedDocument } from './issued-document.schema';

/**
 * Reading issued documents (DESIGN §14): the shop reads any of its shop's, a vendor only its own
 * (the repository narrows a vendor scope; another's id is a 404). Only issued documents are shown:
 * one still being issued (no number yet) is not a document yet. Also the DocumentReader the PDF
 * routes and signed links use.
 */
@Injectable()
export class DocumentsService implements DocumentReader {
  constructor(
    private readonly documents: DocumentsRepository,
    @Inject(authConfig.KEY) private readonly auth: AuthConfig,
  ) {}

  async get(scope: ShopScope, id: string): Promise<DocumentView> {
    const view = await this.findById(scope, id);
    if (!view) throw new NotFoundError('Document');
    return view;
  }

  async findById(scope: ShopScope, id: string): Promise<DocumentView | null> {
    const doc = await this.documents.findById(scope, id);
    return doc && doc.state === 'issued' ? toDocumentView(doc) : null;
  }

  async findInvoiceForOrder(
    scope: ShopScope,
    vendorId: string,
    orderId: string,
  ): Promise<DocumentView | null> {
    const vendor = toObjectId(vendorId);
    if (!vendor) return null;
    const issued = (await this.documents.naming(scope, [orderId], vendor)).filter(
      (d) => d.state === 'issued' && d.vendorId.equals(vendor),
    );
    for (const type of ['commission_invoice', 'self_billed_invoice'] as const) {
      const newest = issued.filter((d) => d.type === type).sort(newestFirst)[0];
      if (newest) return toDocumentView(newest);
    }
    return null;
  }

  /**
   * GET /v1/documents. A batch or an order has a few documents: those filters read them whole (one
   * indexed read) and page in memory; the other filters page in the store, newest first.
   */
  async list(scope: ShopScope, q: DocumentListQueryDto): Promise<DocumentListDto> {
    const vendorId = q.vendorId ? (toObjectId(q.vendorId) ?? undefined) : undefined;
    const issuedAt = dayRangeFilter(q.start, q.end);
    const page = { offset: q.offset, limit: q.limit };
    let total: number;
    let items: IssuedDocument[];
    if (q.batchId || q.orderId) {
      const batchId = q.batchId ? toObjectId(q.batchId) : null;
      const few = batchId
        ? await this.documents.ofBatch(scope, batchId)
        : await this.documents.naming(scope, [q.orderId!], vendorId);
      const matching = few
        .filter(
          (d) =>
            (!q.type || d.type === q.type) &&
            (!vendorId || d.vendorId.equals(vendorId)) &&
            (!q.orderId || d.orderIds.includes(q.orderId)) &&
            (!issuedAt?.$gte || d.issuedAt >= issuedAt.$gte) &&
            (!issuedAt?.$lte || d.issuedAt <= issuedAt.$lte),
        )
        .sort(newestFirst);
      total = matching.length;
      items = matching.slice(page.offset, page.offset + page.limit);
    } else {
      ({ total, items } = await this.documents.page(scope, { type: q.type, vendorId, issuedAt }, page));
    }
    // a document still pending is not shown (nor counted) on the store-paged path either
    const shown = items.filter((d) => d.state === 'issued');
    total -= items.length - shown.length;
    return { total, nextOffset: nextOffset(page, total), documents: shown.map(toDocumentView) };
  }

  /** GET /v2/documents and GET /documents: cursor paging newest first. */
  async page(scope: ShopScope, q: DocumentPageQueryDto): Promise<DocumentPageDto> {
    const vendorId = q.vendorId ? (toObjectId(q.vendorId) ?? undefined) : undefined;
    const context = `documents:${scope.shopId}:${scope.vendorId ?? ''}:${q.type ?? ''}:${q.vendorId ?? ''}`;
    const page = await readCursorPage(
      q,
      this.auth.cursorKey,
      context,
      (window) => this.documents.window(scope, { type: q.type, vendorId }, window),
      (d: IssuedDocument) => ({ t: d.issuedAt.getTime(), id: String(d._id) }),
    );
    return {
      items: page.items.filter((d) => d.state === 'issued').map(toDocumentView),
      pageInfo: page.pageInfo,
      totalCount: page.totalCount,
    };
  }
}

function newestFirst(a: IssuedDocument, b: IssuedDocument): number {
  return b.issuedAt.getTime() - a.issuedAt.getTime() || String(b._id).localeCompare(String(a._id));
}
