import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Scope, V2Auth } from '../common/auth/auth.decorators';
import { ApiV2Errors } from '../common/http/api-errors.decorator';
import { ok, type V2Envelope } from '../common/http/envelope';
import { ObjectIdParam } from '../common/http/params';
import { OffsetPageQueryDto } from '../common/pagination';
import type { ShopScope } from '../common/tenancy';
import {
  CreateWebhookEndpointDto,
  DeletedWebhookEndpointDto,
  DeletedWebhookEndpointEnvelopeDto,
  UpdateWebhookEndpointDto,
  WebhookEndpointDto,
  WebhookEndpointEnvelopeDto,
  WebhookEndpointListDto,
  WebhookEndpointListEnvelopeDto,
  WebhookEndpointWithSecretDto,
  WebhookEndpointWithSecretEnvelopeDto,
} from './dto/webhook-endpoint.dto';
import { CREATE_DESCRIPTION, ENDPOINT_ID, NOT_FOUND } from './webhook-endpoints.v1.controller';
import { WebhookEndpointsService } from './webhook-endpoints.service';

/** The same endpoints as /v1/webhook-endpoints, for the merchant token (V2 administration). */
@ApiTags('Events')
@V2Auth('merchant', 'shop')
@Controller('v2/webhook-endpoints')
export class WebhookEndpointsV2Controller {
  constructor(private readonly endpoints: WebhookEndpointsService) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    operationId: 'createWebhookEndpoint',
    summary: 'Register a webhook endpoint',
    description: CREATE_DESCRIPTION,
  })
  @ApiCreatedResponse({ type: WebhookEndpointWithSecretEnvelopeDto })
  @ApiV2Errors(400, 422)
  async create(
    @Scope() scope: ShopScope,
    @Body() body: CreateWebhookEndpointDto,
  ): Promise<V2Envelope<WebhookEndpointWithSecretDto>> {
    return ok(await this.endpoints.create(scope, body));
  }

  @Get()
  @ApiOperation({
    operationId: 'listWebhookEndpoints',
    summary: "The shop's webhook endpoints, newest first",
  })
  @ApiOkResponse({ type: WebhookEndpointListEnvelopeDto })
  @ApiV2Errors(422)
  async list(
    @Scope() scope: ShopScope,
    @Query() query: OffsetPageQueryDto,
  ): Promise<V2Envelope<WebhookEndpointListDto>> {
    return ok(await this.endpoints.list(scope, query));
  }

  @Get(':endpointId')
  @ApiOperation({ operationId: 'getWebhookEndpoint', summary: 'One webhook endpoint (never its secret)' })
  @ObjectIdParam(...ENDPOINT_ID)
  @ApiOkResponse({ type: WebhookEndpointEnvelopeDto })
  @ApiV2Errors(NOT_FOUND)
  async get(
    @Scope() scope: ShopScope,
    @Param('endpointId') id: string,
  ): Promise<V2Envelope<WebhookEndpointDto>> {
    return ok(await this.endpoints.get(scope, id));
  }

  @Patch(':endpointId')
  @ApiOperation({
    operationId: 'updateWebhookEndpoint',
    summary: 'Change the URL, description or event types, or enable/disable',
  })
  @ObjectIdParam(...ENDPOINT_ID)
  @ApiOkResponse({ type: WebhookEndpointEnvelopeDto })
  @ApiV2Errors(400, NOT_FOUND, 422)
  async update(
    @Scope() scope: ShopScope,
    @Param('endpointId') id: string,
    @Body() body: UpdateWebhookEndpointDto,
  ): Promise<V2Envelope<WebhookEndpointDto>> {
    return ok(await this.endpoints.update(scope, id, body));
  }

  @Delete(':endpointId')
  @ApiOperation({ operationId: 'deleteWebhookEndpoint', summary: 'Delete a webhook endpoint' })
  @ObjectIdParam(...ENDPOINT_ID)
  @ApiOkResponse({ type: DeletedWebhookEndpointEnvelopeDto })
  @ApiV2Errors(NOT_FOUND)
  async remove(
    @Scope() scope: ShopScope,
    @Param('endpointId') id: string,
  ): Promise<V2Envelope<DeletedWebhookEndpointDto>> {
    return ok(await this.endpoints.remove(scope, id));
  }

  @Post(':endpointId/rotate-secret')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'rotateWebhookEndpointSecret',
    summary: 'New signing secret; the old one keeps signing for 24 h',
  })
  @ObjectIdParam(...ENDPOINT_ID)
  @ApiOkResponse({ type: WebhookEndpointWithSecretEnvelopeDto })
  @ApiV2Errors(NOT_FOUND)
  async rotate(
    @Scope() scope: ShopScope,
    @Param('endpointId') id: string,
  ): Promise<V2Envelope<WebhookEndpointWithSecretDto>> {
    return ok(await this.endpoints.rotateSecret(scope, id));
  }
}
