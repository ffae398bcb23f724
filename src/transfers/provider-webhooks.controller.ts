import { Controller, Headers, HttpCode, Post, Query, RawBodyRequest, Req } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { ApiV1Errors } from '../common/http/api-errors.decorator';
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
  'unknown shop → 401, nothing stored.';

/** Called by the payment providers, not by API users: authenticated by their signatures. */
@ApiTags('Webhooks')
@Controller('webhooks')
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
      `types are acknowledged and ignored. ${STORED}`,
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
  stripe(
    @Req() req: RawBodyRequest<FastifyRequest>,
    @Headers('stripe-signature') signature?: string,
    @Query('shop') shop?: string,
  ): Promise<WebhookAckDto> {
    return this.webhooks.receiveStripe(req.rawBody, signature, shop);
  }

  @Post('paypal')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'receivePaypalWebhook',
    summary: 'Receive a PayPal webhook (PAYMENT.PAYOUTS-ITEM.*)',
    description:
      'Verified by PayPal’s documented verification (`POST /v1/notifications/verify-webhook-signature` with the ' +
      'shop’s webhook id); PayPal unreachable → 503, so PayPal delivers again. Payout item events move the ' +
      `transfer: SUCCEEDED → paid; FAILED, RETURNED, BLOCKED, REFUNDED… → failed (or reversed when it was paid) ` +
      `and credited back; UNCLAIMED starts the 30-day wait. ${STORED}`,
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
  @ApiV1Errors(400, 401, 413, 503)
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
    );
  }
}
