import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  IsArray,
  IsIn,
  IsOptional,
  IsString,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { IsDateTime } from '../../common/dates/date-time';
import { SHIPMENT_EVENT_STATUSES, ShipmentEventStatus } from '../shipment-event.schema';

export const MAX_SHIPMENT_EVENTS_PER_BULK = 100;

export class CreateShipmentEventDto {
  @ApiProperty({ enum: SHIPMENT_EVENT_STATUSES, example: 'in_transit' })
  @IsIn(SHIPMENT_EVENT_STATUSES)
  status!: ShipmentEventStatus;

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    maxLength: 64,
    description: 'When it happened (ISO 8601); the time of the request when absent',
    example: '2026-11-21T10:00:00.000Z',
  })
  @IsOptional()
  @IsDateTime()
  @MaxLength(64)
  happenedAt?: string;

  @ApiPropertyOptional({ maxLength: 500, example: 'Arrived at the sorting centre' })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  message?: string;
}

export class BulkShipmentEventItemDto extends CreateShipmentEventDto {
  @ApiProperty({
    maxLength: 64,
    description: 'Calculated line item id (`_id`)',
    example: '6741a0c2d3e4f5a6b7c8d9e1',
  })
  @IsString()
  @MaxLength(64)
  lineItemId!: string;
}

export class BulkShipmentEventsDto {
  @ApiProperty({ type: [BulkShipmentEventItemDto], minItems: 1, maxItems: MAX_SHIPMENT_EVENTS_PER_BULK })
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(MAX_SHIPMENT_EVENTS_PER_BULK)
  @ValidateNested({ each: true })
  @Type(() => BulkShipmentEventItemDto)
  events!: BulkShipmentEventItemDto[];
}

export class ShipmentEventDto {
  @ApiProperty({ example: '6741a0c2d3e4f5a6b7c8d9f0' }) _id!: string;
  @ApiProperty({ description: 'Calculated line item id', example: '6741a0c2d3e4f5a6b7c8d9e1' })
  lineItemId!: string;
  @ApiProperty({ description: 'Store platform order id', example: 5012345678 }) orderId!: number;
  @ApiProperty({ type: String, nullable: true, example: '6740b9f1c2a4e15b3c9d0a21' }) vendorId!:
    string | null;
  @ApiProperty({ enum: SHIPMENT_EVENT_STATUSES, example: 'in_transit' }) status!: ShipmentEventStatus;
  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-21T10:00:00.000Z' })
  happenedAt!: string;
  @ApiProperty({ type: String, nullable: true, example: 'Arrived at the sorting centre' }) message!:
    string | null;
  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-21T10:00:02.000Z' }) createdAt!: string;
}

export class ShipmentEventsDto {
  @ApiProperty({ type: [ShipmentEventDto], description: 'Oldest first (by happenedAt)' })
  events!: ShipmentEventDto[];
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The line’s shipment status now',
    example: 'in_transit',
  })
  shipmentStatus!: string | null;
}

export class BulkShipmentEventResultDto {
  @ApiProperty({ enum: ['success', 'error'], example: 'success' }) type!: 'success' | 'error';
  @ApiProperty({ example: '6741a0c2d3e4f5a6b7c8d9e1' }) lineItemId!: string;
  @ApiProperty({ example: 'Recorded' }) message!: string;
  @ApiPropertyOptional({ type: ShipmentEventDto, description: 'The stored event (successes only)' })
  event?: ShipmentEventDto;
}

export class BulkShipmentEventsResultDto {
  @ApiProperty({ example: 2 }) successCount!: number;
  @ApiProperty({ example: 1 }) failedCount!: number;
  @ApiProperty({ type: [BulkShipmentEventResultDto], description: 'One per event sent, in request order' })
  results!: BulkShipmentEventResultDto[];
}

export class ShipmentEventEnvelopeDto {
  @ApiProperty({ enum: [true], example: true }) success!: true;
  @ApiProperty({ type: ShipmentEventDto }) data!: ShipmentEventDto;
}
export class ShipmentEventsEnvelopeDto {
  @ApiProperty({ enum: [true], example: true }) success!: true;
  @ApiProperty({ type: ShipmentEventsDto }) data!: ShipmentEventsDto;
}
export class BulkShipmentEventsEnvelopeDto {
  @ApiProperty({ enum: [true], example: true }) success!: true;
  @ApiProperty({ type: BulkShipmentEventsResultDto }) data!: BulkShipmentEventsResultDto;
}
