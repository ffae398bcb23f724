import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { CurrentPrincipal, Scope, V2Auth } from '../common/auth/auth.decorators';
import type { Principal } from '../common/auth/principal';
import { ApiV2Errors } from '../common/http/api-errors.decorator';
import { errorExample, V2ErrorDto } from '../common/http/error.dto';
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
import type { EndpointCredential } from '../event-port/webhook-endpoint.schema';

/** The kind of token asking (V2Auth lets only these two in). */
const credential = (p: Principal): EndpointCredential => (p.kind === 'merchant' ? 'merchant' : 'shop');

const MERCHANT_REFUSED = {
  description:
    'A vendor token; or a merchant token naming event types of what it cannot read (orders, line items, refunds, ' +
    'payouts, balances, transfers): FORBIDDEN, the types in `details.refused`. Use a shop token for those.',
  type: V2ErrorDto,
  example: errorExample(
    'v2',
    403,
    'A merchant token cannot subscribe an endpoint to order.received: these events carry orders, line items, ' +
      'refunds, payouts, balances or transfers, which a merchant token cannot read. Use a shop token, …',
    { refused: ['order.received'] },
  ),
};

/**
 * The same endpoints as /v1/webhook-endpoints, for the merchant token (V2 administration). A
 * merchant token subscribes endpoints only to what it reads (endpoint-scope.ts): 403 otherwise.
 */
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
  @ApiForbiddenResponse(MERCHANT_REFUSED)
  async create(
    @Scope() scope: ShopScope,
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateWebhookEndpointDto,
  ): Promise<V2Envelope<WebhookEndpointWithSecretDto>> {
    return ok(await this.endpoints.create(scope, credential(principal), body));
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
  @ApiV2Errors(400, NOT_FOUND, 409, 422)
  @ApiForbiddenResponse(MERCHANT_REFUSED)
  async update(
    @Scope() scope: ShopScope,
    @CurrentPrincipal() principal: Principal,
    @Param('endpointId') id: string,
    @Body() body: UpdateWebhookEndpointDto,
  ): Promise<V2Envelope<WebhookEndpointDto>> {
    return ok(await this.endpoints.update(scope, credential(principal), id, body));
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
  @ApiForbiddenResponse({
    ...MERCHANT_REFUSED,
    description:
      'A vendor token; or a merchant token on an endpoint that receives events a merchant token cannot read ' +
      '(whoever holds the secret can sign such events)',
  })
  async rotate(
    @Scope() scope: ShopScope,
    @CurrentPrincipal() principal: Principal,
    @Param('endpointId') id: string,
  ): Promise<V2Envelope<WebhookEndpointWithSecretDto>> {
    return ok(await this.endpoints.rotateSecret(scope, credential(principal), id));
  }
}
