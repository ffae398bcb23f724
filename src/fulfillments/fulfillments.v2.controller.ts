import { Body, Controller, Delete, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Scope, V2Auth } from '../common/auth/auth.decorators';
import { RequireScope } from '../common/auth/scopes';
import { ApiV2Errors, notFound } from '../common/http/api-errors.decorator';
import { ok, V2Envelope } from '../common/http/envelope';
import { ApiOperationIdsByPath } from '../common/http/openapi-keys';
import type { ShopScope } from '../common/tenancy';
import { Idempotent } from '../idempotency/idempotent.decorator';
import { isRetryable, markRetryable } from '../idempotency/retryable-answer';
import { FulfillmentResultsDto } from './dto/fulfillment.dto';
import {
  CreateVendorFulfillmentDto,
  FulfillmentChangeDto,
  FulfillmentChangeEnvelopeDto,
  FulfillmentResultsEnvelopeDto,
  UpdateFulfillmentDto,
} from './dto/fulfillment-v2.dto';
import { FulfillmentChangesService } from './fulfillment-changes.service';
import { FulfillmentsService } from './fulfillments.service';

export const LINE_ITEM_PARAM = ApiParam({
  name: 'lineItemId',
  description: 'The calculated line item’s `_id` (as in `lineItemIds`); another vendor’s or shop’s → 404',
  example: '6741a0c2d3e4f5a6b7c8d9e1',
  schema: { type: 'string', maxLength: 64 },
});
const NOT_FULFILLED = { status: 409, message: 'Line item is not fulfilled' };
const PLATFORM_REFUSED = {
  status: 502,
  description:
    'The store platform refused the change (its reasons are logged under the errorId); nothing changed',
  message:
    'The store platform refused to cancel the fulfillment (errorId 0b7c6a52-1d1e-4f43-9d0e-3f0f6c1f2a10)',
  code: 'SERVICE_UNAVAILABLE' as const,
};
const PLATFORM_DOWN = {
  status: 503,
  description: 'The store platform could not be reached or did not answer in time; nothing changed, retry',
  message: 'The store platform could not be reached (errorId 0b7c6a52-1d1e-4f43-9d0e-3f0f6c1f2a10)',
  code: 'SERVICE_UNAVAILABLE' as const,
};

/**
 * The vendor surface's fulfillment writes (DESIGN §12), served without prefix and under /v2: a
 * vendor token (its own lines), or a shop token (any line of the shop); a merchant token → 403. The
 * same engine as POST /v1/fulfillments.
 */
@ApiTags('Fulfillments')
@Controller()
export class FulfillmentsV2Controller {
  constructor(
    private readonly fulfillments: FulfillmentsService,
    private readonly changes: FulfillmentChangesService,
  ) {}

  @Post(['fulfillments', 'v2/fulfillments'])
  @HttpCode(200)
  @V2Auth('shop', 'vendor')
  @RequireScope('fulfillments:write')
  @ApiOperationIdsByPath({
    '/fulfillments': 'createVendorFulfillments',
    '/v2/fulfillments': 'createFulfillmentsV2',
  })
  @ApiOperation({
    summary: 'Fulfil line items with tracking: on the store platform, one fulfillment per order',
    description:
      'Each id reports on its own (`success` or `error`): another vendor’s or shop’s line and an unknown id read ' +
      '"Line item not found" and are untouched; "already fulfilled"; a cancelled order; a store platform refusal or ' +
      'outage (nothing is marked fulfilled for those lines). A failed item never changes the HTTP status. At most ' +
      '100 ids (unique) and 50 orders per request. With an Idempotency-Key, an answer in which the platform could ' +
      'not be reached for some lines is not kept: a retry with the same key fulfils those once (the lines done ' +
      'already read "already fulfilled"). Vendor token: scope `fulfillments:write`.',
  })
  @ApiOkResponse({ type: FulfillmentResultsEnvelopeDto })
  @Idempotent('v2')
  @ApiV2Errors(400, 422)
  async create(
    @Scope() scope: ShopScope,
    @Body() body: CreateVendorFulfillmentDto,
  ): Promise<V2Envelope<FulfillmentResultsDto>> {
    const result = await this.fulfillments.create(scope, body);
    return isRetryable(result) ? markRetryable(ok(result)) : ok(result);
  }

  @Put(['fulfillments/:lineItemId', 'v2/fulfillments/:lineItemId'])
  @V2Auth('shop', 'vendor')
  @RequireScope('fulfillments:write')
  @ApiOperationIdsByPath({
    '/fulfillments/{lineItemId}': 'updateVendorFulfillment',
    '/v2/fulfillments/{lineItemId}': 'updateFulfillmentV2',
  })
  @ApiOperation({
    summary: 'Change the tracking of a line item’s fulfillment, on the store platform and on the line',
    description:
      'The fields sent replace the stored ones (at least one of trackingNumber, shippingCarrier, trackingUrl). The ' +
      'platform changes the whole fulfillment, so every line item fulfilled with it (same order, same request) gets ' +
      'the new tracking; `lineItemIds` lists them. A vendor token may change only a fulfillment covering its own ' +
      'lines alone (else 409). Platform refusal → 502, outage → 503: the lines are unchanged. Vendor token: scope ' +
      '`fulfillments:write`.',
  })
  @LINE_ITEM_PARAM
  @ApiOkResponse({ type: FulfillmentChangeEnvelopeDto })
  @ApiV2Errors(400, notFound('Line item'), NOT_FULFILLED, 422, PLATFORM_REFUSED, PLATFORM_DOWN)
  async update(
    @Scope() scope: ShopScope,
    @Param('lineItemId') lineItemId: string,
    @Body() body: UpdateFulfillmentDto,
  ): Promise<V2Envelope<FulfillmentChangeDto>> {
    return ok(await this.changes.updateTracking(scope, lineItemId, body));
  }

  @Delete(['fulfillments/:lineItemId', 'v2/fulfillments/:lineItemId'])
  @V2Auth('shop', 'vendor')
  @RequireScope('fulfillments:write')
  @ApiOperationIdsByPath({
    '/fulfillments/{lineItemId}': 'cancelVendorFulfillment',
    '/v2/fulfillments/{lineItemId}': 'cancelFulfillmentV2',
  })
  @ApiOperation({
    summary: 'Cancel a line item’s fulfillment on the store platform; its lines read unfulfilled again',
    description:
      'The platform cancels the whole fulfillment: every line item fulfilled with it (same order, same request) ' +
      'reads unfulfilled again, its tracking and shipment status cleared; `lineItemIds` lists them. Tracking ' +
      'events stay as history. A vendor token may cancel only a fulfillment covering its own lines alone (else ' +
      '409). Platform refusal → 502, outage → 503: the lines are unchanged. Vendor token: scope `fulfillments:write`.',
  })
  @LINE_ITEM_PARAM
  @ApiOkResponse({ type: FulfillmentChangeEnvelopeDto })
  @ApiV2Errors(notFound('Line item'), NOT_FULFILLED, PLATFORM_REFUSED, PLATFORM_DOWN)
  async cancel(
    @Scope() scope: ShopScope,
    @Param('lineItemId') lineItemId: string,
  ): Promise<V2Envelope<FulfillmentChangeDto>> {
    return ok(await this.changes.cancel(scope, lineItemId));
  }
}
