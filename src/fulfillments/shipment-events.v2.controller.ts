import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Scope, V2Auth } from '../common/auth/auth.decorators';
import { RequireScope } from '../common/auth/scopes';
import { ApiV2Errors, notFound } from '../common/http/api-errors.decorator';
import { ok, V2Envelope } from '../common/http/envelope';
import { ApiOperationIdsByPath } from '../common/http/openapi-keys';
import type { ShopScope } from '../common/tenancy';
import {
  BulkShipmentEventsDto,
  BulkShipmentEventsEnvelopeDto,
  BulkShipmentEventsResultDto,
  CreateShipmentEventDto,
  ShipmentEventDto,
  ShipmentEventEnvelopeDto,
  ShipmentEventsDto,
  ShipmentEventsEnvelopeDto,
} from './dto/shipment-event.dto';
import { LINE_ITEM_PARAM } from './fulfillments.v2.controller';
import { ShipmentEventsService } from './shipment-events.service';

const LATEST =
  'The event with the latest `happenedAt` sets the line’s shipment status (an older event arriving later does ' +
  'not override it); `delivered` also sets its delivery time.';

/** Tracking events of fulfilled line items (DESIGN §12), without prefix and under /v2. */
@ApiTags('Fulfillments')
@Controller()
export class ShipmentEventsV2Controller {
  constructor(private readonly events: ShipmentEventsService) {}

  @Post(['fulfillments/events/bulk', 'v2/fulfillments/events/bulk'])
  @HttpCode(200)
  @V2Auth('shop', 'vendor')
  @RequireScope('fulfillments:write')
  @ApiOperationIdsByPath({
    '/fulfillments/events/bulk': 'recordVendorShipmentEvents',
    '/v2/fulfillments/events/bulk': 'recordShipmentEventsV2',
  })
  @ApiOperation({
    summary: 'Record up to 100 tracking events; each reports on its own',
    description:
      `${LATEST} An unknown id, another vendor’s or shop’s line → its result reads "Line item not found"; an ` +
      'unfulfilled line → "Line item is not fulfilled…". Vendor token: scope `fulfillments:write`.',
  })
  @ApiOkResponse({ type: BulkShipmentEventsEnvelopeDto })
  @ApiV2Errors(400, 422)
  async bulk(
    @Scope() scope: ShopScope,
    @Body() body: BulkShipmentEventsDto,
  ): Promise<V2Envelope<BulkShipmentEventsResultDto>> {
    return ok(await this.events.recordMany(scope, body.events));
  }

  @Post(['fulfillments/events/:lineItemId', 'v2/fulfillments/events/:lineItemId'])
  @V2Auth('shop', 'vendor')
  @RequireScope('fulfillments:write')
  @ApiOperationIdsByPath({
    '/fulfillments/events/{lineItemId}': 'recordVendorShipmentEvent',
    '/v2/fulfillments/events/{lineItemId}': 'recordShipmentEventV2',
  })
  @ApiOperation({
    summary: 'Record a tracking event of a fulfilled line item',
    description: `${LATEST} The line must be fulfilled (else 409). Vendor token: scope \`fulfillments:write\`.`,
  })
  @LINE_ITEM_PARAM
  @ApiCreatedResponse({ type: ShipmentEventEnvelopeDto })
  @ApiV2Errors(
    400,
    notFound('Line item'),
    { status: 409, message: 'Line item is not fulfilled; tracking events need a fulfilled line item' },
    422,
  )
  async record(
    @Scope() scope: ShopScope,
    @Param('lineItemId') lineItemId: string,
    @Body() body: CreateShipmentEventDto,
  ): Promise<V2Envelope<ShipmentEventDto>> {
    return ok(await this.events.record(scope, lineItemId, body));
  }

  @Get(['fulfillments/events/:lineItemId', 'v2/fulfillments/events/:lineItemId'])
  @V2Auth('shop', 'vendor')
  @RequireScope('fulfillments:read')
  @ApiOperationIdsByPath({
    '/fulfillments/events/{lineItemId}': 'listVendorShipmentEvents',
    '/v2/fulfillments/events/{lineItemId}': 'listShipmentEventsV2',
  })
  @ApiOperation({
    summary: 'A line item’s tracking events, oldest first, and its shipment status now',
    description: 'Vendor token: scope `fulfillments:read`.',
  })
  @LINE_ITEM_PARAM
  @ApiOkResponse({ type: ShipmentEventsEnvelopeDto })
  @ApiV2Errors(notFound('Line item'))
  async list(
    @Scope() scope: ShopScope,
    @Param('lineItemId') lineItemId: string,
  ): Promise<V2Envelope<ShipmentEventsDto>> {
    return ok(await this.events.list(scope, lineItemId));
  }
}
