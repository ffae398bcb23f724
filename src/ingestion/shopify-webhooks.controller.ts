import { Controller, Headers, HttpCode, Post, RawBodyRequest, Req } from '@nestjs/common';
import { ApiBody, ApiExtension, ApiHeader, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { rateLimitedResponse } from '../common/auth/auth.decorators';
import { NO_RATE_LIMIT_HEADERS } from '../common/http/openapi-keys';
import type { FastifyRequest } from 'fastify';
import { ApiV1Errors } from '../common/http/api-errors.decorator';
import { WebhookAckDto } from './dto/webhook.dto';
import { IngestionService } from './ingestion.service';
import { SUPPORTED_TOPICS } from './webhook-topics';

/** Called by the store platform, not by API users: authenticated by the HMAC signature, not a token. */
@ApiTags('Webhooks')
@Controller('webhooks')
export class ShopifyWebhooksController {
  constructor(private readonly ingestion: IngestionService) {}

  @Post('shopify')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'receiveShopifyWebhook',
    summary: 'Receive a store-platform (Shopify-format) webhook',
    description:
      'Verifies `X-Shopify-Hmac-Sha256` (base64 HMAC-SHA256 of the raw body with the shop’s webhook secret), ' +
      'acknowledges a repeated `X-Shopify-Webhook-Id` without processing it again, and stores the delivery ' +
      'durably before answering 200 (`GET /v1/webhooks/deliveries/{deliveryId}`); processing happens ' +
      `asynchronously. Topics: ${SUPPORTED_TOPICS.join(', ')}; other topics are acknowledged and ignored. ` +
      'Bad or missing signature, or an unknown shop → 401 and nothing is stored; the database unreachable ' +
      '→ 503 with Retry-After (nothing acknowledged, so the platform retries). A signed body that does not ' +
      'fit its topic (e.g. anything but `{id}` under products/delete, an order without `cancelled_at` under ' +
      'orders/cancelled) → 400, stored as `rejected` and never processed. Unknown shop domains are ' +
      'remembered for a minute, and an address sending more than 30 a minute for unknown shops → 429.',
  })
  // Lowercase names: the same parameters Nest documents for the @Headers() arguments below.
  @ApiHeader({
    name: 'x-shopify-topic',
    required: true,
    description: `The event, e.g. orders/create; topics other than the ${SUPPORTED_TOPICS.length} listed above are acknowledged and ignored`,
    example: 'orders/create',
  })
  @ApiHeader({
    name: 'x-shopify-shop-domain',
    required: true,
    description: 'The shop the delivery is for; an unknown shop answers 401',
    schema: { type: 'string', maxLength: 253 },
    example: 'demo.myshopify.com',
  })
  @ApiHeader({
    name: 'x-shopify-webhook-id',
    required: true,
    description:
      'The delivery id; a repeated one is acknowledged (`duplicate: true`) and not processed again',
    example: 'b54557e4-bdd9-4b37-8a5f-bf7d70bcd043',
  })
  @ApiHeader({
    name: 'x-shopify-hmac-sha256',
    required: true,
    description:
      'Base64 HMAC-SHA256 of the exact body with the shop’s webhook secret; anything else answers 401',
    schema: { type: 'string', pattern: '^[A-Za-z0-9+/]{43}=$', maxLength: 44 },
    example: 'XWmrwMey6OsLMeiZKwP4FppHH3cmAiiJJAweH5Jo4bM=',
  })
  @ApiHeader({
    name: 'x-shopify-triggered-at',
    required: false,
    description:
      'When the platform raised the event (ISO 8601). Stored with the delivery; a refund whose body has ' +
      'no date (`created_at` and `processed_at` null, as in Shopify’s test notification) is dated at it ' +
      '(at the receipt when absent, unreadable or later than the receipt). E.g. `2026-11-21T10:00:00.123456789Z`',
    schema: { type: 'string', maxLength: 64 },
  })
  @ApiBody({
    description: 'Shopify REST Admin order, product or fulfillment JSON',
    schema: { type: 'object', additionalProperties: true, example: { id: 5549201834154, line_items: [] } },
  })
  @ApiOkResponse({ type: WebhookAckDto })
  @ApiV1Errors(400, 401, 413, 422, 503)
  @ApiExtension(NO_RATE_LIMIT_HEADERS, true)
  @rateLimitedResponse(
    'v1',
    'This address sent more than 30 webhooks a minute for unknown shops (per process); see Retry-After',
    'Too many webhooks for unknown shops from this address; try again later',
  )
  receive(
    @Req() req: RawBodyRequest<FastifyRequest>,
    @Headers('x-shopify-topic') topic?: string,
    @Headers('x-shopify-shop-domain') shopDomain?: string,
    @Headers('x-shopify-webhook-id') webhookId?: string,
    @Headers('x-shopify-hmac-sha256') hmac?: string,
    @Headers('x-shopify-triggered-at') triggeredAt?: string,
  ): Promise<WebhookAckDto> {
    return this.ingestion.receive({
      topic,
      shopDomain,
      webhookId,
      hmac,
      rawBody: req.rawBody,
      address: req.ip,
      triggeredAt,
    });
  }
}
