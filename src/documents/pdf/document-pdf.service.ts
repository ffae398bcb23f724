import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock/clock';
import { NotFoundError } from '../../common/errors';
import { shopScope, type ShopScope } from '../../common/tenancy';
import { OrderLookup } from '../../orders/order-lookup';
import { ShopLegalService } from '../../shops/shop-legal.service';
import { DOCUMENT_READER, type DocumentReader, type DocumentView } from '../document.types';
import { renderDocumentPdf } from './document.renderer';
import { renderPackingSlipPdf } from './packing-slip.renderer';
import { packingSlipOf } from './packing-slip.mapper';
import { pdfName, type PdfFile } from './pdf-response';

const OBJECT_ID = /^[0-9a-fA-F]{24}$/;

/**
 * The PDFs of issued documents (rendered from their stored snapshot, DESIGN §14) and packing slips
 * (rendered from the order's current lines of one vendor). Documents are read through the
 * DocumentReader port in the caller's scope: a vendor sees only its own, another shop's id is a 404.
 */
@Injectable()
export class DocumentPdfService {
  constructor(
    @Inject(DOCUMENT_READER) private readonly reader: DocumentReader,
    private readonly orders: OrderLookup,
    private readonly legal: ShopLegalService,
    private readonly clock: Clock,
  ) {}

  /** An issued document in the caller's scope, or 404. */
  async document(scope: ShopScope, id: string): Promise<DocumentView> {
    const doc = OBJECT_ID.test(id) ? await this.reader.findById(scope, id) : null;
    if (!doc || (scope.vendorId && doc.vendorId !== scope.vendorId)) throw new NotFoundError('Document');
    return doc;
  }

  async documentPdf(scope: ShopScope, id: string): Promise<PdfFile> {
    return this.render(await this.document(scope, id));
  }

  async render(doc: DocumentView): Promise<PdfFile> {
    return {
      pdf: await renderDocumentPdf(doc.snapshot),
      filename: pdfName(doc.number ?? `${doc.type}-${doc.id}`),
    };
  }

  /**
   * A packing slip of `vendorId`'s part of the order (our `_id` or the platform's order id): 404 when
   * the vendor has no line on it. Read in the vendor's scope whoever asks, so it never lists another
   * vendor's lines.
   */
  async packingSlip(shopId: string, vendorId: string, orderIdParam: string): Promise<PdfFile> {
    const scope = shopScope(shopId, vendorId);
    const [order, legal] = await Promise.all([
      this.orders.find(scope, orderIdParam),
      this.legal.get(shopScope(shopId)),
    ]);
    const slip = packingSlipOf(order, legal, vendorId, this.clock.now());
    return { pdf: await renderPackingSlipPdf(slip), filename: pdfName(`packing-slip-${order.orderId}`) };
  }

  /** The platform order id of the vendor's order (404 when it has no line of the vendor). */
  async vendorOrderId(shopId: string, vendorId: string, orderIdParam: string): Promise<number> {
    return (await this.orders.find(shopScope(shopId, vendorId), orderIdParam)).orderId;
  }
}
