import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { EndDayParam, StartDayParam } from '../../common/dates/day-range';
import { OffsetPageQueryDto } from '../../common/pagination';
import { DELIVERY_STATES, type DeliveryState } from '../webhook-delivery.schema';
import { SUPPORTED_TOPICS } from '../webhook-topics';

export class WebhookDeliveryListQueryDto extends OffsetPageQueryDto {
  @ApiPropertyOptional({
    enum: DELIVERY_STATES,
    description: 'Only deliveries in this state',
  })
  @IsOptional()
  @IsIn(DELIVERY_STATES)
  state?: DeliveryState;

  @ApiPropertyOptional({ enum: SUPPORTED_TOPICS, description: 'Only this topic' })
  @IsOptional()
  @IsIn(SUPPORTED_TOPICS)
  topic?: string;

  @StartDayParam('Received on or after this UTC calendar day (inclusive from 00:00:00.000Z)')
  start?: string;

  @EndDayParam('Received on or before this UTC calendar day (inclusive up to 23:59:59.999Z)')
  end?: string;
}

export class WebhookDeliveryDto {
  @ApiProperty({ example: '6743a0b1c2d3e4f5a6b7c8d9' })
  id!: string;
  @ApiProperty({ example: 'orders/create' })
  topic!: string;
  @ApiProperty({
    description: '`X-Shopify-Webhook-Id` (or `body-<sha256>` when the platform sent none)',
    example: 'b54557e4-bdd9-4b37-8a5f-bf7d70bcd043',
  })
  webhookId!: string;
  @ApiProperty({ example: 'demo.myshopify.com' })
  shopDomain!: string;
  @ApiProperty({
    enum: DELIVERY_STATES,
    description:
      'received (stored, waiting or being processed) → processed, or failed (a payload that can never be ' +
      'processed, or after the last automatic attempt; POST …/retry puts it back to received)',
    example: 'processed',
  })
  state!: DeliveryState;
  @ApiProperty({ description: 'Processing attempts started, retries included', example: 1 })
  attempts!: number;
  @ApiProperty({ type: String, nullable: true, description: 'Why the last attempt failed', example: null })
  lastError!: string | null;
  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-21T10:00:00.120Z' })
  receivedAt!: string;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description:
      'The `X-Shopify-Triggered-At` the platform sent (when the event was raised; to the millisecond), ' +
      'null when absent or unreadable. A refund without dates in its body is dated at it',
    example: '2026-11-21T10:00:00.097Z',
  })
  triggeredAt!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: '2026-11-21T10:00:00.480Z' })
  processedAt!: string | null;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'Wall time of the successful attempt in milliseconds',
    example: 41,
  })
  processingMs!: number | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'What processing did, e.g. `created`, `updated`, `stale` (an older version than stored)',
    example: 'created',
  })
  result!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: null })
  failedAt!: string | null;
}

export class WebhookDeliveryDetailDto extends WebhookDeliveryDto {
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description:
      'The delivered JSON body as received (null when it is not JSON). An integer beyond 2^53 (a 64-bit ' +
      'platform id) is shown as a string of its exact digits: a JSON number would be rounded by most parsers',
    example: { id: 5549201834154, line_items: [] },
  })
  payload!: Record<string, unknown> | null;
}

export class WebhookDeliveryListDto {
  @ApiProperty({ example: 1 })
  total!: number;
  @ApiProperty({ type: Number, nullable: true, example: null })
  nextOffset!: number | null;
  @ApiProperty({ type: [WebhookDeliveryDto] })
  deliveries!: WebhookDeliveryDto[];
}
