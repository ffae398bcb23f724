import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { rateLimitedResponse, Scope, V1Auth } from '../common/auth/auth.decorators';
import { ApiV1Errors, notFound } from '../common/http/api-errors.decorator';
import { ObjectIdParam } from '../common/http/params';
import { OffsetPageQueryDto } from '../common/pagination';
import type { ShopScope } from '../common/tenancy';
import { DeliveryDto, DeliveryListDto, DeliveryListQueryDto } from './dto/event.dto';
import {
  CreateWebhookEndpointDto,
  DeletedWebhookEndpointDto,
  ReplayEventsDto,
  ReplayResultDto,
  TestEventResultDto,
  UpdateWebhookEndpointDto,
  WebhookEndpointDto,
  WebhookEndpointListDto,
  WebhookEndpointWithSecretDto,
} from './dto/webhook-endpoint.dto';
import { WebhookEndpointReplay } from './webhook-endpoint-replay.service';
import { WebhookEndpointsService } from './webhook-endpoints.service';

export const ENDPOINT_ID = ['endpointId', '6750a1b2c3d4e5f6a7b8c9d0', 'Webhook endpoint id'] as const;
export const NOT_FOUND = notFound('Webhook endpoint');
export const CREATE_DESCRIPTION =
  'Registers a URL for outbound events (Standard Webhooks). The signing secret (`whsec_…`) is in this ' +
  'answer only. At most 16 endpoints per shop (422 beyond). The URL must pass the outbound guard: ' +
  '`https://` and public addresses in production (422 otherwise, with the reason). Every create, change, ' +
  'delete, secret rotation and replay is in the audit trail (`resourceType=webhook_endpoint`), never a secret.';

@ApiTags('Events')
@V1Auth('shop')
@Controller('v1/webhook-endpoints')
export class WebhookEndpointsV1Controller {
  constructor(
    private readonly endpoints: WebhookEndpointsService,
    private readonly replays: WebhookEndpointReplay,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'createWebhookEndpoint',
    summary: 'Register a webhook endpoint',
    description: CREATE_DESCRIPTION,
  })
  @ApiOkResponse({ type: WebhookEndpointWithSecretDto })
  @ApiV1Errors(400, 422)
  create(
    @Scope() scope: ShopScope,
    @Body() body: CreateWebhookEndpointDto,
  ): Promise<WebhookEndpointWithSecretDto> {
    return this.endpoints.create(scope, 'shop', body);
  }

  @Get()
  @ApiOperation({
    operationId: 'listWebhookEndpoints',
    summary: "The shop's webhook endpoints, newest first",
  })
  @ApiOkResponse({ type: WebhookEndpointListDto })
  @ApiV1Errors(422)
  list(@Scope() scope: ShopScope, @Query() query: OffsetPageQueryDto): Promise<WebhookEndpointListDto> {
    return this.endpoints.list(scope, query);
  }

  @Get(':endpointId')
  @ApiOperation({ operationId: 'getWebhookEndpoint', summary: 'One webhook endpoint (never its secret)' })
  @ObjectIdParam(...ENDPOINT_ID)
  @ApiOkResponse({ type: WebhookEndpointDto })
  @ApiV1Errors(NOT_FOUND)
  get(@Scope() scope: ShopScope, @Param('endpointId') id: string): Promise<WebhookEndpointDto> {
    return this.endpoints.get(scope, id);
  }

  @Patch(':endpointId')
  @ApiOperation({
    operationId: 'updateWebhookEndpoint',
    summary: 'Change the URL, description or event types, or enable/disable the endpoint',
  })
  @ObjectIdParam(...ENDPOINT_ID)
  @ApiOkResponse({ type: WebhookEndpointDto })
  @ApiV1Errors(400, NOT_FOUND, 409, 422)
  update(
    @Scope() scope: ShopScope,
    @Param('endpointId') id: string,
    @Body() body: UpdateWebhookEndpointDto,
  ): Promise<WebhookEndpointDto> {
    return this.endpoints.update(scope, 'shop', id, body);
  }

  @Delete(':endpointId')
  @ApiOperation({
    operationId: 'deleteWebhookEndpoint',
    summary: 'Delete a webhook endpoint (its pending deliveries stop)',
  })
  @ObjectIdParam(...ENDPOINT_ID)
  @ApiOkResponse({ type: DeletedWebhookEndpointDto })
  @ApiV1Errors(NOT_FOUND)
  remove(@Scope() scope: ShopScope, @Param('endpointId') id: string): Promise<DeletedWebhookEndpointDto> {
    return this.endpoints.remove(scope, id);
  }

  @Post(':endpointId/rotate-secret')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'rotateWebhookEndpointSecret',
    summary: 'New signing secret; the old one keeps signing for 24 h',
    description:
      'For 24 h every delivery carries two signatures in `webhook-signature` (new and old), so a receiver can ' +
      'switch secrets without losing a delivery. The new secret is in this answer only.',
  })
  @ObjectIdParam(...ENDPOINT_ID)
  @ApiOkResponse({ type: WebhookEndpointWithSecretDto })
  @ApiV1Errors(NOT_FOUND)
  rotate(@Scope() scope: ShopScope, @Param('endpointId') id: string): Promise<WebhookEndpointWithSecretDto> {
    return this.endpoints.rotateSecret(scope, 'shop', id);
  }

  @Post(':endpointId/test')
  @HttpCode(200)
  @ApiOperation({ operationId: 'testWebhookEndpoint', summary: 'Send a `ping` event to this endpoint' })
  @ObjectIdParam(...ENDPOINT_ID)
  @ApiOkResponse({ type: TestEventResultDto })
  @ApiV1Errors(NOT_FOUND)
  test(@Scope() scope: ShopScope, @Param('endpointId') id: string): Promise<TestEventResultDto> {
    return this.endpoints.test(scope, id);
  }

  @Post(':endpointId/replay')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'replayWebhookEvents',
    summary: 'Re-send every matching event since a time',
    description:
      'Every event of the last 30 days created at or after `since` that the endpoint subscribes to is delivered ' +
      'again, with its original `webhook-id` and body (receivers deduplicate on `webhook-id`), at most 10,000 ' +
      'per call (`truncated`). Events this endpoint already received (its delivery succeeded) are skipped ' +
      'unless `includeDelivered` is true. One replay per endpoint per WEBHOOK_REPLAY_COOLDOWN_SECONDS ' +
      '(default 300): 429 with Retry-After inside it.',
  })
  @ObjectIdParam(...ENDPOINT_ID)
  @ApiOkResponse({ type: ReplayResultDto })
  @ApiV1Errors(400, NOT_FOUND, 422)
  @rateLimitedResponse(
    'v1',
    'This endpoint was replayed within the cooldown (WEBHOOK_REPLAY_COOLDOWN_SECONDS), or the rate limit of ' +
      'the credential (100 requests a minute) was exceeded; see Retry-After',
    'This endpoint was replayed less than 300 s ago: one replay per endpoint per 300 s; retry in 42 s',
  )
  replay(
    @Scope() scope: ShopScope,
    @Param('endpointId') id: string,
    @Body() body: ReplayEventsDto,
  ): Promise<ReplayResultDto> {
    return this.replays.replay(scope, id, body);
  }

  @Get(':endpointId/deliveries')
  @ApiOperation({
    operationId: 'listEventDeliveries',
    summary: "The endpoint's delivery log, newest first",
    description: 'Each delivery with every attempt: status code, duration and the first bytes of the answer.',
  })
  @ObjectIdParam(...ENDPOINT_ID)
  @ApiOkResponse({ type: DeliveryListDto })
  @ApiV1Errors(NOT_FOUND, 422)
  deliveries(
    @Scope() scope: ShopScope,
    @Param('endpointId') id: string,
    @Query() query: DeliveryListQueryDto,
  ): Promise<DeliveryListDto> {
    return this.endpoints.listDeliveries(scope, id, query);
  }

  @Post(':endpointId/deliveries/:deliveryId/retry')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'retryEventDelivery',
    summary: 'Send a delivery again now (same `webhook-id`, the retry schedule from the top)',
  })
  @ObjectIdParam(...ENDPOINT_ID)
  @ObjectIdParam('deliveryId', '6750a1b2c3d4e5f6a7b8c9d1', 'Delivery id')
  @ApiOkResponse({ type: DeliveryDto })
  @ApiV1Errors(notFound('Delivery'))
  retry(
    @Scope() scope: ShopScope,
    @Param('endpointId') id: string,
    @Param('deliveryId') deliveryId: string,
  ): Promise<DeliveryDto> {
    return this.endpoints.retry(scope, id, deliveryId);
  }
}
