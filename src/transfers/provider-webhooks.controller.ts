import { Controller, Headers, HttpCode, Post, Query, RawBodyRequest, Req, UseGuards } from '@nestjs/common';
import {
  ApiBody,
  ApiExtension,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { rateLimitedResponse } from '../common/auth/auth.decorators';
import { ApiV1Errors } from '../common/http/api-errors.decorator';
import { RouteBodyLimit } from '../common/http/route-body-limit';
import { ProviderWebhookRateLimitGuard } from '../common/rate-limits/rate-limit.guards';
import { providerWebhooksConfig } from '../config/configuration';
import { NO_RATE_LIMIT_HEADERS } from '../common/http/openapi-keys';
import { WebhookAckDto } from '../ingestion/dto/webhook.dto';
import { ProviderWebhooksService } from './provider-webhooks.service';

const SHOP_QUERY = {
  name: 'shop',
  required: false,
  description:
    'The shop domain the webhook belongs to (put it in the URL registered at the provider). Stripe may omit ' +
    'it: the transfer’s metadata names the shop, and only that shop’s secret verifies.',
  schema: { type: 'string', maxLength: 253 },
  example: 'demo.myshopify.com',
} as const;
const STORED =
  'A verified event is stored in the webhook inbox before the 200 (`GET /v1/webhooks/deliveries/{deliveryId}`) ' +
  'and applied asynchronously; a repeated event id is acknowledged and not applied again. Bad signature or ' +
  'unknown shop → 401, nothing stored. A shop name found unknown is remembered for a minute (401 without a ' +
  'read); an address whose shop lookups keep missing (30 a minute, per process) gets 429.';
/** The per-address limit's 429, documented on both routes. */
const LIMITED = rateLimitedResponse(
  'v1',
  'More webhooks from this client address than PROVIDER_WEBHOOK_PER_ADDRESS_PER_MINUTE (default 600) in a ' +
    'minute, or more than 30 lookups of unknown shops; the provider delivers again after Retry-After',
  'Too many webhooks from this address; try again later',
);

/**
 * Called by the payment providers, not by API users: authenticated by their signatures, and limited
 * per client address before anything else (a flood costs a Redis count, not a read).
 */
@ApiTags('Webhooks')
@Controller('webhooks')
@UseGuards(ProviderWebhookRateLimitGuard)
export class ProviderWebhooksController {
  constructor(private readonly webhooks: ProviderWebhooksService) {}

  @Post('stripe')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'receiveStripeWebhook',
    summary: 'Receive a Stripe webhook (transfer.reversed)',
    description:
      'Verified with the Stripe SDK’s `webhooks.constructEvent` over the raw body and the shop’s webhook signing ' +
      `secret. \`transfer.reversed\` reverses the paid transfer and credits the reversed amount back; other event ` +
      `types are acknowledged and ignored (before verification: nothing is read or stored for them). ${STORED}`,
  })
  @ApiQuery(SHOP_QUERY)
  @ApiHeader({
    name: 'stripe-signature',
    required: true,
    description: 'Stripe’s signature header, `t=<timestamp>,v1=<hex HMAC-SHA256>`',
    schema: { type: 'string', maxLength: 1024 },
    example: 't=1733000000,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd',
  })
  @ApiBody({
    description: 'A Stripe event',
    schema: {
      type: 'object',
      additionalProperties: true,
      example: { id: 'evt_1', type: 'transfer.reversed', data: { object: { id: 'tr_1' } } },
    },
  })
  @ApiOkResponse({ type: WebhookAckDto })
  @ApiV1Errors(400, 401, 413, 503)
  @ApiExtension(NO_RATE_LIMIT_HEADERS, true)
  @LIMITED
  stripe(
    @Req() req: RawBodyRequest<FastifyRequest>,
    @Headers('stripe-signature') signature?: string,
    @Query('shop') shop?: string,
  ): Promise<WebhookAckDto> {
    return this.webhooks.receiveStripe(req.rawBody, signature, shop, req.ip);
  }

  @Post('paypal')
  @HttpCode(200)
  @RouteBodyLimit(() => providerWebhooksConfig().paypalMaxBytes)
  @ApiOperation({
    operationId: 'receivePaypalWebhook',
    summary: 'Receive a PayPal webhook (PAYMENT.PAYOUTS-ITEM.*)',
    description:
      'Verified by PayPal’s documented verification (`POST /v1/notifications/verify-webhook-signature` with the ' +
      'shop’s webhook id); PayPal unreachable → 503, so PayPal delivers again. Payout item events move the ' +
      `transfer: SUCCEEDED → paid; FAILED, RETURNED, BLOCKED, REFUNDED… → failed (or reversed when it was paid) ` +
      `and credited back; UNCLAIMED starts the 30-day wait. An event is applied only to the transfer whose ` +
      `current payout is its \`payout_batch_id\` (an earlier attempt's batch is acknowledged and ignored). ` +
      `Before anything is read or PayPal is asked: a body over PAYPAL_WEBHOOK_MAX_BYTES (default 64 KiB) → ` +
      `413; an event type other than PAYMENT.PAYOUTS-ITEM.* → 200 \`ignored\` (never verified, nothing stored); ` +
      `a \`paypal-transmission-time\` more than PAYPAL_WEBHOOK_TOLERANCE_SECONDS (default 300) from now → 401. ` +
      STORED,
  })
  @ApiQuery({ ...SHOP_QUERY, required: true, description: 'The shop domain the webhook belongs to' })
  @ApiHeader({
    name: 'paypal-auth-algo',
    required: true,
    schema: { type: 'string', maxLength: 64 },
    example: 'SHA256withRSA',
  })
  @ApiHeader({
    name: 'paypal-cert-url',
    required: true,
    schema: { type: 'string', maxLength: 2048 },
    example: 'https://api-m.paypal.com/v1/notifications/certs/CERT-360caa42',
  })
  @ApiHeader({
    name: 'paypal-transmission-id',
    required: true,
    schema: { type: 'string', maxLength: 128 },
    example: '69cd13f0-d67a-11e5-baa3-778b53f4ae55',
  })
  @ApiHeader({
    name: 'paypal-transmission-sig',
    required: true,
    schema: { type: 'string', maxLength: 2048 },
    example:
      'lmI95Jx3Y9nhR5SJWlHVIWpg4AgFk7n9bCHSRxbrd8A9zrhdu2rMyFrmz+Zjh3s3boXB07VXCXUZy/UFzUlnGJn0wDugt7FlSvdKeIJenLRemUxYCPVoEZzg9VFNqOa48gMkvF+XTpxBeUx/kWy6B5cp7GkT2+pOowfRK7OaynuxUoKW3JcMWw272VKjLTtTAShncla7tGF+55rxyt2KNZIIqxNMJ48RDZheGU5w1npu9dZHnPgTXB9iomeVRoD8O/jhRpnKsGrDschyNdkeh81BJJMH4Ctc6lnCCquoP/GzCzz33MMsNdid7vL/NIWaCsekQpW26FpWPi/tfj8nLA==',
  })
  @ApiHeader({
    name: 'paypal-transmission-time',
    required: true,
    schema: { type: 'string', maxLength: 64 },
    example: '2026-11-30T08:00:00Z',
  })
  @ApiBody({
    description: 'A PayPal webhook event',
    schema: {
      type: 'object',
      additionalProperties: true,
      example: { id: 'WH-1', event_type: 'PAYMENT.PAYOUTS-ITEM.SUCCEEDED', resource: {} },
    },
  })
  @ApiOkResponse({ type: WebhookAckDto })
  @ApiV1Errors(
    400,
    401,
    { status: 413, description: 'Body larger than PAYPAL_WEBHOOK_MAX_BYTES (default 64 KiB)' },
    503,
  )
  @ApiExtension(NO_RATE_LIMIT_HEADERS, true)
  @LIMITED
  paypal(
    @Req() req: RawBodyRequest<FastifyRequest>,
    @Headers('paypal-auth-algo') authAlgo?: string,
    @Headers('paypal-cert-url') certUrl?: string,
    @Headers('paypal-transmission-id') transmissionId?: string,
    @Headers('paypal-transmission-sig') transmissionSig?: string,
    @Headers('paypal-transmission-time') transmissionTime?: string,
    @Query('shop') shop?: string,
  ): Promise<WebhookAckDto> {
    return this.webhooks.receivePaypal(
      req.rawBody,
      { authAlgo, certUrl, transmissionId, transmissionSig, transmissionTime },
      shop,
      req.ip,
    );
  }
}
