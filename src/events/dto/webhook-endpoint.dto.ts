import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsOptional,
  IsString,
  MaxLength,
  MinLength,
} from 'class-validator';
import {
  ENDPOINT_CREDENTIALS,
  ENDPOINT_STATES,
  type EndpointCredential,
  type EndpointState,
} from '../../event-port/webhook-endpoint.schema';
import { MERCHANT_EVENT_TYPES, SUBSCRIBABLE } from '../../event-port/event-catalogue';

const URL_DOC = {
  description:
    'Where events are POSTed. `https://` only in production; `http://` and loopback/private addresses only ' +
    'where the server sets WEBHOOK_ALLOW_PRIVATE_TARGETS=true. The host must resolve to public addresses.',
  example: 'https://erp.example.com/hooks/marketplace',
  maxLength: 2048,
};
const EVENTS_DOC = {
  description:
    '`["*"]` for every event type, or the types to receive (default `["*"]`). With a merchant token only ' +
    `the types of what a merchant token reads (${MERCHANT_EVENT_TYPES.filter((t) => t !== 'ping').join(', ')}); ` +
    'any other → 403 FORBIDDEN naming them (`details.refused`), and its `*` means those types only.',
  enum: SUBSCRIBABLE,
  isArray: true,
  minItems: 1,
  maxItems: SUBSCRIBABLE.length,
  example: ['vendor.created', 'vendor.updated'],
};

export class CreateWebhookEndpointDto {
  @ApiProperty(URL_DOC)
  @IsString()
  @MinLength(1)
  @MaxLength(2048)
  url!: string;

  @ApiPropertyOptional({ maxLength: 500, description: 'A note for people', example: 'ERP sync' })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  description?: string;

  @ApiPropertyOptional(EVENTS_DOC)
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(SUBSCRIBABLE.length)
  @ArrayUnique()
  @IsIn(SUBSCRIBABLE, { each: true })
  enabledEvents?: string[];
}

export class UpdateWebhookEndpointDto {
  @ApiPropertyOptional(URL_DOC)
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(2048)
  url?: string;

  @ApiPropertyOptional({ maxLength: 500, nullable: true, description: 'A note for people' })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  description?: string;

  @ApiPropertyOptional(EVENTS_DOC)
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(SUBSCRIBABLE.length)
  @ArrayUnique()
  @IsIn(SUBSCRIBABLE, { each: true })
  enabledEvents?: string[];

  @ApiPropertyOptional({
    enum: ENDPOINT_STATES,
    description:
      '`enabled` re-enables a disabled endpoint (and clears `disabledReason`); `disabled` pauses it.',
  })
  @IsOptional()
  @IsIn(ENDPOINT_STATES)
  status?: EndpointState;
}

export class WebhookEndpointDto {
  @ApiProperty({ example: '6750a1b2c3d4e5f6a7b8c9d0' }) id!: string;
  @ApiProperty({ example: 'https://erp.example.com/hooks/marketplace' }) url!: string;
  @ApiProperty({ type: String, nullable: true, example: 'ERP sync' }) description!: string | null;
  @ApiProperty({ enum: SUBSCRIBABLE, isArray: true, example: ['*'] }) enabledEvents!: string[];
  @ApiProperty({ enum: ENDPOINT_STATES, example: 'enabled' }) status!: EndpointState;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Why the server disabled it (410 Gone, 5 days of failures), or null',
    example: null,
  })
  disabledReason!: string | null;
  @ApiProperty({
    enum: ENDPOINT_CREDENTIALS,
    example: 'shop',
    description:
      '`merchant` once a merchant token created it or set its URL or event types: it then receives only events ' +
      'of what a merchant token reads (vendors, portal users, payout adjustments), whatever `enabledEvents` ' +
      'says. `shop` again when a shop token sets its `enabledEvents`.',
  })
  eventScope!: EndpointCredential;
  @ApiProperty({
    enum: ENDPOINT_CREDENTIALS,
    nullable: true,
    example: 'shop',
    description: 'The kind of token that created it; null for endpoints created before this was recorded',
  })
  createdBy!: EndpointCredential | null;
  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-25T10:00:00.000Z' }) createdAt!: string;
  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-25T10:00:00.000Z' }) updatedAt!: string;
}

export class WebhookEndpointWithSecretDto extends WebhookEndpointDto {
  @ApiProperty({
    description:
      'The signing secret (Standard Webhooks: `whsec_` + base64). Shown only here, at creation and after a rotation.',
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  })
  secret!: string;
}

export class WebhookEndpointListDto {
  @ApiProperty({ type: Number, example: 1 }) total!: number;
  @ApiProperty({ type: Number, nullable: true, example: null }) nextOffset!: number | null;
  @ApiProperty({ type: [WebhookEndpointDto] }) endpoints!: WebhookEndpointDto[];
}

export class DeletedWebhookEndpointDto {
  @ApiProperty({ example: '6750a1b2c3d4e5f6a7b8c9d0' }) id!: string;
  @ApiProperty({ enum: [true], example: true }) deleted!: true;
}

export class ReplayEventsDto {
  @ApiProperty({
    type: String,
    format: 'date-time',
    description: 'Re-send every event since this time (at most 30 days back) that the endpoint subscribes to',
    example: '2026-11-24T00:00:00.000Z',
    maxLength: 40,
  })
  @IsString()
  @MaxLength(40)
  since!: string;

  @ApiPropertyOptional({
    type: Boolean,
    description:
      'Also re-send the events this endpoint already received (its delivery succeeded); by default (false) they are skipped',
  })
  @IsOptional()
  @IsBoolean()
  includeDelivered?: boolean;
}

export class ReplayResultDto {
  @ApiProperty({ type: Number, description: 'Deliveries (re)started', example: 12 }) replayed!: number;
  @ApiProperty({
    type: Number,
    description:
      'Matching events not sent because this endpoint already received them (0 with `includeDelivered`)',
    example: 3,
  })
  skippedDelivered!: number;
  @ApiProperty({
    description:
      'True when more events matched than one replay sends (10,000): replay again from the last one',
    example: false,
  })
  truncated!: boolean;
}

export class TestEventResultDto {
  @ApiProperty({ example: 'evt_6750a1b2c3d4e5f6a7b8c9d0' }) eventId!: string;
  @ApiProperty({ example: '6750a1b2c3d4e5f6a7b8c9d1' }) deliveryId!: string;
}

// V2 envelopes (spec §2.1)
export class WebhookEndpointEnvelopeDto {
  @ApiProperty({ enum: [true], example: true }) success!: true;
  @ApiProperty({ type: WebhookEndpointDto }) data!: WebhookEndpointDto;
}
export class WebhookEndpointWithSecretEnvelopeDto {
  @ApiProperty({ enum: [true], example: true }) success!: true;
  @ApiProperty({ type: WebhookEndpointWithSecretDto }) data!: WebhookEndpointWithSecretDto;
}
export class WebhookEndpointListEnvelopeDto {
  @ApiProperty({ enum: [true], example: true }) success!: true;
  @ApiProperty({ type: WebhookEndpointListDto }) data!: WebhookEndpointListDto;
}
export class DeletedWebhookEndpointEnvelopeDto {
  @ApiProperty({ enum: [true], example: true }) success!: true;
  @ApiProperty({ type: DeletedWebhookEndpointDto }) data!: DeletedWebhookEndpointDto;
}
