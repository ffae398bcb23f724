import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock/clock';
import { ConflictError, NotFoundError, ValidationError } from '../../common/errors';
import { shopScope, type ShopScope } from '../../common/tenancy';
import { httpConfig, type HttpConfig } from '../../config/configuration';
import { DOCUMENT_READER, type DocumentReader } from '../document.types';
import { DocumentPdfService } from '../pdf/document-pdf.service';
import type { PdfFile } from '../pdf/pdf-response';
import type { DocumentLinkDto } from './document-link.dto';
import { DocumentLinkSigner, LINK_TTL_MS, type LinkKind } from './document-link.signer';

export const NO_INVOICE_YET = 'no invoice has been issued for this order yet';

/**
 * PuppetVendors' document links (DESIGN §14): `POST /documents/invoice|packing-slip {orderId}` answers
 * a signed link to one PDF, valid 48 hours, that works without a token; `GET /documents/links/{token}`
 * serves it. The link names the shop, the vendor and the document (an invoice) or the order (a
 * packing slip, rendered when opened from the order's lines then).
 */
@Injectable()
export class DocumentLinksService {
  constructor(
    @Inject(DOCUMENT_READER) private readonly reader: DocumentReader,
    private readonly pdfs: DocumentPdfService,
    private readonly signer: DocumentLinkSigner,
    private readonly clock: Clock,
    @Inject(httpConfig.KEY) private readonly http: Pick<HttpConfig, 'publicUrl'>,
  ) {}

  async link(
    scope: ShopScope,
    kind: LinkKind,
    orderIdParam: string,
    vendorIdParam: string | undefined,
    origin: string,
  ): Promise<DocumentLinkDto> {
    const vendorId = vendorOf(scope, vendorIdParam);
    const orderId = await this.pdfs.vendorOrderId(scope.shopId, vendorId, orderIdParam);
    const exp = this.clock.now().getTime() + LINK_TTL_MS;
    const claims = { shopId: scope.shopId, vendorId, kind, exp };
    let token: string;
    if (kind === 'invoice') {
      const invoice = await this.reader.findInvoiceForOrder(
        shopScope(scope.shopId, vendorId),
        vendorId,
        String(orderId),
      );
      if (!invoice) throw new ConflictError(NO_INVOICE_YET);
      token = this.signer.sign({ ...claims, documentId: invoice.id });
    } else {
      token = this.signer.sign({ ...claims, orderId: String(orderId) });
    }
    return {
      url: `${this.http.publicUrl ?? origin}/documents/links/${token}`,
      expiresAt: new Date(exp).toISOString(),
    };
  }

  /** The PDF a link grants: 403 tampered, 410 expired, 404 when what it names is gone. */
  async open(token: string): Promise<PdfFile> {
    const c = this.signer.verify(token, this.clock.now());
    if (c.kind === 'packing_slip') return this.pdfs.packingSlip(c.shopId, c.vendorId, c.orderId!);
    const doc = await this.reader.findById(shopScope(c.shopId, c.vendorId), c.documentId!);
    if (!doc || doc.vendorId !== c.vendorId) throw new NotFoundError('Document');
    return this.pdfs.render(doc);
  }
}

/** The vendor whose part is asked for: a vendor token's own; a shop token names it (`?vendorId=`). */
function vendorOf(scope: ShopScope, vendorIdParam: string | undefined): string {
  if (scope.vendorId) {
    // another vendor's id reads as an order the caller cannot see
    if (vendorIdParam && vendorIdParam.toLowerCase() !== scope.vendorId) throw new NotFoundError('Order');
    return scope.vendorId;
  }
  if (!vendorIdParam) throw new ValidationError('vendorId is required with a shop token');
  return vendorIdParam.toLowerCase();
}
