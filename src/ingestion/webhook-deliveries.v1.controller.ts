import { Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Scope, V1Auth } from '../common/auth/auth.decorators';
import { ApiV1Errors, notFound } from '../common/http/api-errors.decorator';
import type { ShopScope } from '../common/tenancy';
import {
  WebhookDeliveryDetailDto,
  WebhookDeliveryDto,
  WebhookDeliveryListDto,
  WebhookDeliveryListQueryDto,
} from './dto/webhook-delivery.dto';
import { WebhookDeliveriesService } from './webhook-deliveries.service';
import { ObjectIdParam } from '../common/http/params';

const ID_PARAM = ObjectIdParam(
  'id',
  '6743a0b1c2d3e4f5a6b7c8d9',
  'Delivery id (`deliveryId` of the webhook answer)',
);

@ApiTags('Webhooks')
@V1Auth('shop')
@Controller('v1/webhooks/deliveries')
export class WebhookDeliveriesV1Controller {
  constructor(private readonly deliveries: WebhookDeliveriesService) {}

  @Get()
  @ApiOperation({
    operationId: 'listWebhookDeliveries',
    summary: 'List the webhook deliveries the shop received, newest first',
    description:
      'Every verified store-platform webhook is stored before it is answered and processed from this ' +
      'inbox; kept 30 days after processing. Filter by state, topic and received day (UTC, inclusive).',
  })
  @ApiOkResponse({ type: WebhookDeliveryListDto })
  @ApiV1Errors(422)
  list(
    @Scope() scope: ShopScope,
    @Query() query: WebhookDeliveryListQueryDto,
  ): Promise<WebhookDeliveryListDto> {
    return this.deliveries.list(scope, query);
  }

  @Get(':id')
  @ApiOperation({ operationId: 'getWebhookDelivery', summary: 'Read one webhook delivery, with its payload' })
  @ID_PARAM
  @ApiOkResponse({ type: WebhookDeliveryDetailDto })
  @ApiV1Errors(notFound('Webhook delivery'))
  get(@Scope() scope: ShopScope, @Param('id') id: string): Promise<WebhookDeliveryDetailDto> {
    return this.deliveries.get(scope, id);
  }

  @Post(':id/retry')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'retryWebhookDelivery',
    summary: 'Process a failed delivery again',
    description:
      'Puts a `failed` delivery back to `received` and queues it (answers the delivery as it now stands; ' +
      'processing follows shortly). Any other state → 409.',
  })
  @ID_PARAM
  @ApiOkResponse({ type: WebhookDeliveryDto })
  @ApiV1Errors(notFound('Webhook delivery'), {
    status: 409,
    message: 'Only a failed delivery can be retried; this one is processed',
  })
  retry(@Scope() scope: ShopScope, @Param('id') id: string): Promise<WebhookDeliveryDto> {
    return this.deliveries.retry(scope, id);
  }
}
