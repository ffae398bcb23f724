import { Controller, Get, Param, StreamableFile } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Scope, V1Auth, V2Auth } from '../../common/auth/auth.decorators';
import { ApiV1Errors, ApiV2Errors, notFound } from '../../common/http/api-errors.decorator';
import { ApiOperationIdsByPath } from '../../common/http/openapi-keys';
import { ObjectIdParam } from '../../common/http/params';
import type { ShopScope } from '../../common/tenancy';
import { DocumentPdfService } from './document-pdf.service';
import { ApiPdfOk, pdfResponse } from './pdf-response';

const ID_EXAMPLE = '6750aa00aa00aa00aa00aa01';
const RENDERED =
  'Rendered from the snapshot the document stored when it was issued, never from current data: the same ' +
  'document always prints the same text and figures (DESIGN §14). Commission invoices, credit notes (listing ' +
  'the invoices they correct), self-billed invoices (marked "Self-billing", with both parties’ VAT ids) and ' +
  'payout statements; every page numbered "page X of Y".';
const FILE = 'INV-2026-000042.pdf';

@ApiTags('Documents')
@V1Auth('shop')
@Controller('v1/documents')
export class DocumentPdfV1Controller {
  constructor(private readonly pdfs: DocumentPdfService) {}

  @Get(':id/pdf')
  @ApiOperation({
    operationId: 'getDocumentPdf',
    summary: 'An issued document as a PDF',
    description: RENDERED,
  })
  @ObjectIdParam('id', ID_EXAMPLE, 'Document id')
  @ApiPdfOk('The document.', FILE)
  @ApiV1Errors(notFound('Document'))
  async pdf(@Scope() scope: ShopScope, @Param('id') id: string): Promise<StreamableFile> {
    return pdfResponse(await this.pdfs.documentPdf(scope, id));
  }
}

/** V2 (shop token) and the vendor surface (its own documents only; no scope needed, DESIGN §12). */
@ApiTags('Documents')
@Controller()
export class DocumentPdfV2Controller {
  constructor(private readonly pdfs: DocumentPdfService) {}

  @Get(['documents/:id/pdf', 'v2/documents/:id/pdf'])
  @V2Auth('vendor', 'shop')
  @ApiOperationIdsByPath({
    '/documents/{id}/pdf': 'getVendorDocumentPdf',
    '/v2/documents/{id}/pdf': 'getDocumentPdfV2',
  })
  @ApiOperation({
    summary: 'An issued document as a PDF (a vendor token: only its own documents)',
    description:
      `${RENDERED} A vendor token reads only its own vendor’s documents (another vendor’s id → 404) and needs ` +
      'no scope; a shop token reads any document of the shop; a merchant token is refused with 403.',
  })
  @ObjectIdParam('id', ID_EXAMPLE, 'Document id')
  @ApiPdfOk('The document.', FILE)
  @ApiV2Errors(notFound('Document'))
  async pdf(@Scope() scope: ShopScope, @Param('id') id: string): Promise<StreamableFile> {
    return pdfResponse(await this.pdfs.documentPdf(scope, id));
  }
}
