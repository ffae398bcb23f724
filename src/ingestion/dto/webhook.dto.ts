import { ApiProperty } from '@nestjs/swagger';

export class WebhookAckDto {
  @ApiProperty({
    description: 'Always true: the webhook was authenticated and, unless ignored, stored before this answer',
    example: true,
  })
  received!: boolean;
  @ApiProperty({
    description: 'This X-Shopify-Webhook-Id was already received; it was not processed again',
    example: false,
  })
  duplicate!: boolean;
  @ApiProperty({
    description: 'The topic is not one this service processes; nothing was stored',
    example: false,
  })
  ignored!: boolean;
  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'The stored delivery (`GET /v1/webhooks/deliveries/{id}`); null for a repeat or an ignored topic',
    example: '6743a0b1c2d3e4f5a6b7c8d9',
  })
  deliveryId!: string | null;
}
