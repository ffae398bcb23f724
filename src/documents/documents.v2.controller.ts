import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Scope, V2Auth } from '../common/auth/auth.decorators';
import { ApiV2Errors, notFound } from '../common/http/api-errors.decorator';
import { ok, type V2Envelope } from '../common/http/envelope';
import { ApiOperationIdsByPath } from '../common/http/openapi-keys';
import { ObjectIdParam } from '../common/http/params';
import type { ShopScope } from '../common/tenancy';
import type { DocumentView } from './document.types';
import { DocumentEnvelopeDto, DocumentPageDto, DocumentPageEnvelopeDto } from './dto/document.dto';
import { DocumentPageQueryDto } from './dto/document-query.dto';
import { DocumentsService } from './documents.service';

/**
 * Documents on the V2 surface (DESIGN §12, §14): the shop token reads the shop's, a vendor token
 * (portal user or vendor API key; no scope needed) only its own, at `/documents` and `/v2/documents`.
 * A merchant token is refused (spec §5.7: 403).
 */
@ApiTags('Documents')
@Controller()
export class DocumentsV2Controller {
  constructor(private readonly documents: DocumentsService) {}

  @Get(['documents', 'v2/documents'])
  @V2Auth('vendor', 'shop')
  @ApiOperationIdsByPath({ '/documents': 'listVendorDocuments', '/v2/documents': 'listDocumentsV2' })
  @ApiOperation({
    summary: 'Issued documents newest first (cursor paging): a vendor token reads only its own',
    description:
      'Commission invoices, credit notes, self-billed invoices and payout statements issued when payout batches ' +
      'completed. `vendorId` narrows a shop token to one vendor; a vendor token always reads only its own.',
  })
  @ApiOkResponse({ type: DocumentPageEnvelopeDto })
  @ApiV2Errors(422)
  async list(
    @Scope() scope: ShopScope,
    @Query() query: DocumentPageQueryDto,
  ): Promise<V2Envelope<DocumentPageDto>> {
    return ok(await this.documents.page(scope, query));
  }

  @Get(['documents/:id', 'v2/documents/:id'])
  @V2Auth('vendor', 'shop')
  @ApiOperationIdsByPath({ '/documents/{id}': 'getVendorDocument', '/v2/documents/{id}': 'getDocumentV2' })
  @ApiOperation({
    summary: 'One issued document with its snapshot',
    description: 'Another vendor’s or shop’s document answers 404.',
  })
  @ObjectIdParam('id', '6751a1b2c3d4e5f6a7b8c9d0', 'Document id')
  @ApiOkResponse({ type: DocumentEnvelopeDto })
  @ApiV2Errors(notFound('Document'))
  async get(@Scope() scope: ShopScope, @Param('id') id: string): Promise<V2Envelope<DocumentView>> {
    return ok(await this.documents.get(scope, id));
  }
}
