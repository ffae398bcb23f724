import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Scope, V2Auth } from '../common/auth/auth.decorators';
import type { Principal } from '../common/auth/principal';
import { RequireScope } from '../common/auth/scopes';
import { ApiV2Errors, notFound } from '../common/http/api-errors.decorator';
import { ok, V2Envelope } from '../common/http/envelope';
import { ApiOperationIdsByPath } from '../common/http/openapi-keys';
import type { ShopScope } from '../common/tenancy';
import {
  AddOrderNoteDto,
  OrderNoteDto,
  OrderNoteEnvelopeDto,
  OrderTimelineDto,
  OrderTimelineEnvelopeDto,
} from './dto/order-timeline.dto';
import { OrderIdParam } from './order-id.param';
import { OrderTimelineService } from './order-timeline.service';

/** An order's timeline and its notes (DESIGN §12), without prefix and under /v2. */
@ApiTags('Orders')
@Controller()
export class OrderTimelineV2Controller {
  constructor(private readonly timelines: OrderTimelineService) {}

  @Get(['orders/:id/timeline', 'v2/orders/:id/timeline'])
  @V2Auth('vendor', 'shop')
  @RequireScope('orders:read')
  @ApiOperationIdsByPath({
    '/orders/{id}/timeline': 'getVendorOrderTimeline',
    '/v2/orders/{id}/timeline': 'getOrderTimeline',
  })
  @ApiOperation({
    summary: 'What happened to the order, oldest first',
    description:
      'Entries `{type, at, message, data}`: `received`, `paid`, `fulfilled` (per line, with its tracking), ' +
      '`tracking_updated` (per shipment tracking event, at its time), `refunded` (per refund row), `paid_out` ' +
      '(per payout batch), `note`. A vendor token sees its own part (its lines and their tracking events, ' +
      'its refunds, its batches, the notes on its part); a shop token every vendor’s part and ' +
      'every note.',
  })
  @OrderIdParam()
  @ApiOkResponse({ type: OrderTimelineEnvelopeDto })
  @ApiV2Errors(notFound('Order'))
  async timeline(@Scope() scope: ShopScope, @Param('id') id: string): Promise<V2Envelope<OrderTimelineDto>> {
    return ok(await this.timelines.timeline(scope, id));
  }

  @Post(['orders/:id/timeline', 'v2/orders/:id/timeline'])
  @HttpCode(201)
  @V2Auth('vendor', 'shop')
  @RequireScope('orders:write')
  @ApiOperationIdsByPath({
    '/orders/{id}/timeline': 'addVendorOrderNote',
    '/v2/orders/{id}/timeline': 'addOrderNote',
  })
  @ApiOperation({
    summary: 'Add a note to the order’s timeline',
    description:
      'A vendor token’s note is on its own part of the order: the vendor and the shop see it, other vendors ' +
      'never do. A shop token’s note is on the vendor part `vendorId` names (that vendor sees it), or without ' +
      '`vendorId` the shop’s own (no vendor sees it). Notes cannot be edited or deleted.',
  })
  @OrderIdParam()
  @ApiCreatedResponse({ type: OrderNoteEnvelopeDto })
  @ApiV2Errors(400, notFound('Order'), 422)
  async addNote(
    @Scope() scope: ShopScope,
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Body() body: AddOrderNoteDto,
  ): Promise<V2Envelope<OrderNoteDto>> {
    return ok(await this.timelines.addNote(scope, principal, id, body));
  }
}
