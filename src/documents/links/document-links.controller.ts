import { Body, Controller, Get, Param, Post, Query, Req, StreamableFile } from '@nestjs/common';
import { ApiCreatedResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { Scope, V2Auth } from '../../common/auth/auth.decorators';
import { ApiV2Errors, notFound } from '../../common/http/api-errors.decorator';
import { ok, V2Envelope } from '../../common/http/envelope';
import { ApiOperationIdsByPath } from '../../common/http/openapi-keys';
import type { ShopScope } from '../../common/tenancy';
import { ApiPdfOk, pdfResponse } from '../pdf/pdf-response';
import {
  DocumentLinkDto,
  DocumentLinkEnvelopeDto,
  DocumentLinkQueryDto,
  DocumentLinkRequestDto,
} from './document-link.dto';
import { DocumentLinksService, NO_INVOICE_YET } from './document-links.service';

const WHO =
  'A vendor token asks for its own part of the order (no scope needed); a shop token names the vendor with ' +
  '`?vendorId=` (422 without it). An order without a line of that vendor (or of another shop) → 404; a merchant ' +
  'token → 403. The link is ours, valid 48 hours, opens this one PDF and needs no `x-access-token`.';
const origin = (req: FastifyRequest) => `${req.protocol}://${req.host}`;

/** PuppetVendors' document links (DESIGN §14): signed, expiring URLs to one PDF. */
@ApiTags('Documents')
@Controller()
export class DocumentLinksController {
  constructor(private readonly links: DocumentLinksService) {}

  @Post(['documents/invoice', 'v2/documents/invoice'])
  @V2Auth('vendor', 'shop')
  @ApiOperationIdsByPath({
    '/documents/invoice': 'createVendorInvoiceLink',
    '/v2/documents/invoice': 'createInvoiceLinkV2',
  })
  @ApiOperation({
    summary: 'A signed link to the invoice issued for an order',
    description:
      'The newest numbered invoice (commission invoice, else self-billed invoice) whose lines include the order, ' +
      `for the vendor. None issued yet → 409. ${WHO}`,
  })
  @ApiCreatedResponse({ type: DocumentLinkEnvelopeDto })
  @ApiV2Errors(
    notFound('Order'),
    { status: 409, message: NO_INVOICE_YET, description: 'No invoice issued for the order yet' },
    422,
  )
  async invoice(
    @Scope() scope: ShopScope,
    @Body() body: DocumentLinkRequestDto,
    @Query() query: DocumentLinkQueryDto,
    @Req() req: FastifyRequest,
  ): Promise<V2Envelope<DocumentLinkDto>> {
    return ok(await this.links.link(scope, 'invoice', body.orderId, query.vendorId, origin(req)));
  }

  @Post(['documents/packing-slip', 'v2/documents/packing-slip'])
  @V2Auth('vendor', 'shop')
  @ApiOperationIdsByPath({
    '/documents/packing-slip': 'createVendorPackingSlipLink',
    '/v2/documents/packing-slip': 'createPackingSlipLinkV2',
  })
  @ApiOperation({
    summary: 'A signed link to the packing slip of the vendor’s part of an order',
    description:
      'The slip lists the vendor’s lines of the order (SKU, title, quantity) and the ship-to address, and no ' +
      `price. It is rendered when the link is opened, from the order as it is then (not stored). ${WHO}`,
  })
  @ApiCreatedResponse({ type: DocumentLinkEnvelopeDto })
  @ApiV2Errors(notFound('Order'), 422)
  async packingSlip(
    @Scope() scope: ShopScope,
    @Body() body: DocumentLinkRequestDto,
    @Query() query: DocumentLinkQueryDto,
    @Req() req: FastifyRequest,
  ): Promise<V2Envelope<DocumentLinkDto>> {
    return ok(await this.links.link(scope, 'packing_slip', body.orderId, query.vendorId, origin(req)));
  }

  @Get('documents/links/:link')
  @ApiOperation({
    operationId: 'openDocumentLink',
    summary: 'The PDF a signed document link grants (no token needed)',
    description:
      'Serves the one PDF the link was made for, without `x-access-token`. A link changed in any part → 403; ' +
      'an expired link → 410 (ask for a new one); the document or order no longer there → 404.',
  })
  @ApiParam({
    name: 'link',
    description: 'The signed part of the link (claims and signature), as `url` gave it',
    schema: { type: 'string', maxLength: 1024, pattern: '^[A-Za-z0-9_.-]+$' },
  })
  @ApiPdfOk('The document.', 'INV-2026-000042.pdf')
  @ApiV2Errors(
    {
      status: 403,
      message: 'This document link is invalid',
      description: 'The link was changed (or is not ours)',
    },
    notFound('Document'),
    { status: 410, message: 'This document link has expired; ask for a new one' },
  )
  async open(@Param('link') link: string): Promise<StreamableFile> {
    return pdfResponse(await this.links.open(link));
  }
}
