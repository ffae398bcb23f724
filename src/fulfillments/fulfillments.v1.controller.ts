import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Scope, V1Auth } from '../common/auth/auth.decorators';
import { ApiV1Errors } from '../common/http/api-errors.decorator';
import type { ShopScope } from '../common/tenancy';
import {
  CreateFulfillmentDto,
  FulfillmentListDto,
  FulfillmentListQueryDto,
  FulfillmentResultsDto,
} from './dto/fulfillment.dto';
import { FulfillmentsService } from './fulfillments.service';
import { Idempotent } from '../idempotency/idempotent.decorator';

@ApiTags('Fulfillments')
@V1Auth('shop')
@Controller('v1/fulfillments')
export class FulfillmentsV1Controller {
  constructor(private readonly fulfillments: FulfillmentsService) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'createFulfillments',
    summary: 'Fulfil line items with tracking: on the store platform, one fulfillment per order',
    description:
      'Each id reports on its own (`success` or `error`: unknown id, already fulfilled, cancelled order, ' +
      'store platform refusal); a failed item never changes the HTTP status. The platform is the shop’s ' +
      '(`PUT /v1/shop/platform`): `local` by default. At most 50 distinct orders per request (more → 422, ' +
      'nothing claimed); platform calls run 4 at a time under a 60 s budget for the whole request, and an ' +
      'order not reached within it reports an error (nothing fulfilled for it, safe to send again).',
  })
  @ApiOkResponse({ type: FulfillmentResultsDto })
  @Idempotent('v1')
  @ApiV1Errors(400, 422)
  create(@Scope() scope: ShopScope, @Body() body: CreateFulfillmentDto): Promise<FulfillmentResultsDto> {
    const { lineItemsToFulfill, trackingNumber, shippingCarrier, trackingUrl } = body;
    return this.fulfillments.create(scope, {
      lineItemIds: lineItemsToFulfill,
      trackingNumber,
      shippingCarrier,
      trackingUrl,
    });
  }

  @Get()
  @ApiOperation({
    operationId: 'listFulfillments',
    summary: 'Fulfillment rows: line items of paid orders with their tracking and addresses',
    description:
      'Newest order first. `start`/`end` are UTC calendar days, both inclusive (the shop reporting time ' +
      'zone is UTC). Line items of orders whose financial status is not `paid` are not listed.',
  })
  @ApiOkResponse({ type: FulfillmentListDto })
  @ApiV1Errors(422)
  list(@Scope() scope: ShopScope, @Query() query: FulfillmentListQueryDto): Promise<FulfillmentListDto> {
    return this.fulfillments.list(scope, query);
  }
}
