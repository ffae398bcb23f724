import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, MaxLength } from 'class-validator';
import { IsDateTime } from '../../common/dates/date-time';
import { OffsetPageQueryDto } from '../../common/pagination';
import { EVENT_DELIVERY_STATES, type EventDeliveryState } from '../event-delivery.schema';
import { EVENT_TYPES } from '../../event-port/event-catalogue';

const since = (what: string) =>
  ApiPropertyOptional({
    type: String,
    format: 'date-time',
    maxLength: 40,
    description: `Only ${what} at or after this time`,
  });
const until = (what: string) =>
  ApiPropertyOptional({
    type: String,
    format: 'date-time',
    maxLength: 40,
    description: `Only ${what} at or before this time`,
  });

export class EventListQueryDto extends OffsetPageQueryDto {
  @ApiPropertyOptional({ enum: EVENT_TYPES, description: 'Only events of this type' })
  @IsOptional()
  @IsIn(EVENT_TYPES)
  type?: string;

  @since('events') @IsOptional() @MaxLength(40) @IsDateTime() since?: string;
  @until('events') @IsOptional() @MaxLength(40) @IsDateTime() until?: string;
}

export class EventDataDto {
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'The public v1 API representation of the object (the same shape its GET returns)',
  })
  object!: Record<string, unknown>;
}

/** The body of every event (Standard Webhooks payload), as GET /v1/events returns and endpoints receive it. */
export class EventDto {
  @ApiProperty({
    example: 'evt_6750a1b2c3d4e5f6a7b8c9d0',
    description: 'Also the `webhook-id` of every delivery',
  })
  id!: string;
  @ApiProperty({ enum: EVENT_TYPES, example: 'vendor.created' }) type!: string;
  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-25T10:00:00.000Z' }) createdAt!: string;
  @ApiProperty({ example: '6740b9f1c2a4e15b3c9d0a11' }) shopId!: string;
  @ApiProperty({
    enum: ['v1'],
    description: 'The API generation whose representation `data.object` is',
    example: 'v1',
  })
  apiVersion!: 'v1';
  @ApiProperty({ type: EventDataDto }) data!: EventDataDto;
}

export class EventListDto {
  @ApiProperty({ type: Number, example: 1 }) total!: number;
  @ApiProperty({ type: Number, nullable: true, example: null }) nextOffset!: number | null;
  @ApiProperty({ type: [EventDto] }) events!: EventDto[];
}

export class DeliveryListQueryDto extends OffsetPageQueryDto {
  @ApiPropertyOptional({ enum: EVENT_DELIVERY_STATES, description: 'Only deliveries in this state' })
  @IsOptional()
  @IsIn(EVENT_DELIVERY_STATES)
  status?: EventDeliveryState;

  @ApiPropertyOptional({ enum: EVENT_TYPES, description: 'Only deliveries of this event type' })
  @IsOptional()
  @IsIn(EVENT_TYPES)
  eventType?: string;

  @since('deliveries created') @IsOptional() @MaxLength(40) @IsDateTime() since?: string;
  @until('deliveries created') @IsOptional() @MaxLength(40) @IsDateTime() until?: string;
}

export class DeliveryAttemptDto {
  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-25T10:00:00.000Z' }) at!: string;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'The answer status, null when none came',
    example: 500,
  })
  statusCode!: number | null;
  @ApiProperty({ type: Number, example: 42 }) durationMs!: number;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Why no answer came (e.g. `timeout: …`)',
    example: null,
  })
  error!: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The first 512 bytes of the answer body',
    example: 'oops',
  })
  response!: string | null;
}

export class DeliveryDto {
  @ApiProperty({ example: '6750a1b2c3d4e5f6a7b8c9d1' }) id!: string;
  @ApiProperty({ example: '6750a1b2c3d4e5f6a7b8c9d0' }) endpointId!: string;
  @ApiProperty({ example: 'evt_6750a1b2c3d4e5f6a7b8c9d0' }) eventId!: string;
  @ApiProperty({ enum: EVENT_TYPES, example: 'vendor.created' }) eventType!: string;
  @ApiProperty({ enum: EVENT_DELIVERY_STATES, example: 'succeeded' }) status!: EventDeliveryState;
  @ApiProperty({ type: Number, description: 'Attempts since it was last (re)started', example: 3 })
  attemptCount!: number;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: null }) nextAttemptAt!:
    string | null;
  @ApiProperty({ type: [DeliveryAttemptDto], description: 'Every attempt (the latest 50), oldest first' })
  attempts!: DeliveryAttemptDto[];
  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-25T10:00:00.000Z' }) createdAt!: string;
  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-25T10:00:05.000Z' }) updatedAt!: string;
}

export class DeliveryListDto {
  @ApiProperty({ type: Number, example: 1 }) total!: number;
  @ApiProperty({ type: Number, nullable: true, example: null }) nextOffset!: number | null;
  @ApiProperty({ type: [DeliveryDto] }) deliveries!: DeliveryDto[];
}
