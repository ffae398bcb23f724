import { ApiProperty } from '@nestjs/swagger';

export class WebhookAckDto {
  @ApiProperty({ description: 'Always true: the webhook was authenticated and accepted', example: true })
  received!: boolean;
  @ApiProperty({
    description: 'This X-Shopify-Webhook-Id was already received; it was not processed again',
    example: false,
  })
  duplicate!: boolean;
  @ApiProperty({
    description: 'The topic is not one this service processes; nothing was queued',
    example: false,
  })
  ignored!: boolean;
}
