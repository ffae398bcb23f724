import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Scope, V1Auth } from '../common/auth/auth.decorators';
import { ApiV1Errors, notFound } from '../common/http/api-errors.decorator';
import { ObjectIdParam } from '../common/http/params';
import type { ShopScope } from '../common/tenancy';
import type { DocumentView } from './document.types';
import { DocumentDto, DocumentListDto } from './dto/document.dto';
import { DocumentListQueryDto } from './dto/document-query.dto';
import { DocumentsService } from './documents.service';

const ISSUED =
  'Documents are issued when a payout batch completes (DESIGN §14): a commission invoice (or a credit note when ' +
  'refunds gave commission back), a self-billed invoice where the shop self-bills and the vendor consented, and ' +
  'the payout statement. Issued documents never change.';

@ApiTags('Documents')
@V1Auth('shop')
@Controller('v1/documents')
export class DocumentsV1Controller {
  constructor(private readonly documents: DocumentsService) {}

  @Get()
  @ApiOperation({
    operationId: 'listDocuments',
    summary: 'The shop’s issued documents, newest first (offset paging)',
    description: `${ISSUED} Filters combine; \`start\`/\`end\` filter the issue date.`,
  })
  @ApiOkResponse({ type: DocumentListDto })
  @ApiV1Errors(422)
  list(@Scope() scope: ShopScope, @Query() query: DocumentListQueryDto): Promise<DocumentListDto> {
    return this.documents.list(scope, query);
  }

  @Get(':id')
  @ApiOperation({
    operationId: 'getDocument',
    summary: 'One issued document with its snapshot (every party detail and figure as issued)',
    description: `${ISSUED} Another shop’s document answers 404.`,
  })
  @ObjectIdParam('id', '6751a1b2c3d4e5f6a7b8c9d0', 'Document id')
  @ApiOkResponse({ type: DocumentDto })
  @ApiV1Errors(notFound('Document'))
  get(@Scope() scope: ShopScope, @Param('id') id: string): Promise<DocumentView> {
    return this.documents.get(scope, id);
  }
}
