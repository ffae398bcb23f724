import { Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Scope, V1Auth } from '../common/auth/auth.decorators';
import { ApiV1Errors } from '../common/http/api-errors.decorator';
import type { ShopScope } from '../common/tenancy';
import {
  WebhookDeliveryDetailDto,
  WebhookDeliveryDto,
  WebhookDeliveryListDto,
  WebhookDeliveryListQueryDto,
} from './dto/webhook-delivery.dto';
import { WebhookDeliveriesService } from './webhook-deliveries.service';

const ID_PARAM = ApiParam({ name: 'id', example: '6743a0b1c2d3e4f5a6b7c8d9' });

@ApiTags('Webhooks')
@V1Auth('shop')
@Controller('v1/webhooks/deliveries')
export class WebhookDeliveriesV1Controller {
  constructor(private readonly deliveries: WebhookDeliveriesService) {}

  @Get()
  @ApiOperation({
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
  @ApiOperation({ summary: 'Read one webhook delivery, with its payload' })
  @ID_PARAM
  @ApiOkResponse({ type: WebhookDeliveryDetailDto })
  @ApiV1Errors(404)
  get(@Scope() scope: ShopScope, @Param('id') id: string): Promise<WebhookDeliveryDetailDto> {
    return this.deliveries.get(scope, id);
  }

  @Post(':id/retry')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Process a failed delivery again',
    description:
      'Puts a `failed` delivery back to `received` and queues it (answers the delivery as it now stands; ' +
      'processing follows shortly). Any other state → 409.',
  })
  @ID_PARAM
  @ApiOkResponse({ type: WebhookDeliveryDto })
  @ApiV1Errors(404, 409)
  retry(@Scope() scope: ShopScope, @Param('id') id: string): Promise<WebhookDeliveryDto> {
    return this.deliveries.retry(scope, id);
  }
}
