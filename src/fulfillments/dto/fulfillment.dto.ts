import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  IsArray,
  IsIn,
  IsNotEmpty,
  IsOptional,
  IsString,
  MaxLength,
} from 'class-validator';
import { VendorDayRangeQueryDto } from '../../common/dates/vendor-day-range.query';

export const MAX_LINE_ITEMS_PER_FULFILLMENT = 250;
export const FULFILLMENT_FILTERS = ['fulfilled', 'unfulfilled'] as const;
export type FulfillmentFilter = (typeof FULFILLMENT_FILTERS)[number];

export class CreateFulfillmentDto {
  @ApiProperty({ minLength: 1, maxLength: 255, example: '1Z999AA10123456784' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  trackingNumber!: string;

  @ApiProperty({
    minLength: 1,
    maxLength: 255,
    description: 'Carrier name, e.g. UPS, DHL, USPS',
    example: 'UPS',
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  shippingCarrier!: string;

  @ApiProperty({
    minLength: 1,
    maxLength: 2048,
    example: 'https://www.ups.com/track?tracknum=1Z999AA10123456784',
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(2048)
  trackingUrl!: string;

  @ApiProperty({
    type: 'array',
    items: { type: 'string', maxLength: 64 },
    minItems: 1,
    maxItems: MAX_LINE_ITEMS_PER_FULFILLMENT,
    description: 'Calculated line item ids (`_id`); each gets its own result entry',
    example: ['6741a0c2d3e4f5a6b7c8d9e1', '6741a0c2d3e4f5a6b7c8d9e2'],
  })
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(MAX_LINE_ITEMS_PER_FULFILLMENT)
  @IsString({ each: true })
  @MaxLength(64, { each: true })
  lineItemsToFulfill!: string[];
}

export class FulfillmentResultDto {
  @ApiProperty({ enum: ['success', 'error'], example: 'success' })
  type!: 'success' | 'error';
  @ApiProperty({ example: '6741a0c2d3e4f5a6b7c8d9e1' })
  lineItemId!: string;
  @ApiProperty({ example: 'Fulfilled with tracking 1Z999AA10123456784' })
  message!: string;
}

export class FulfillmentResultsDto {
  @ApiProperty({ type: [FulfillmentResultDto], description: 'One entry per requested id, in request order' })
  fulfillments!: FulfillmentResultDto[];
}

export class FulfillmentListQueryDto extends VendorDayRangeQueryDto {
  @ApiPropertyOptional({ enum: FULFILLMENT_FILTERS, description: 'Fulfillment status of the line' })
  @IsOptional()
  @IsIn(FULFILLMENT_FILTERS)
  fulfillment?: FulfillmentFilter;

  @ApiPropertyOptional({
    description:
      'Shipment status from the store platform, e.g. in_transit, out_for_delivery, delivered, failure',
    minLength: 1,
    maxLength: 64,
  })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  shipment?: string;
}

const ADDRESS_EXAMPLE = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  address1: '12 Analytical Row',
  city: 'London',
  zip: 'N1 9GU',
  country: 'United Kingdom',
};

export class FulfillmentInfoDto {
  @ApiProperty({
    type: String,
    nullable: true,
    description: '`success` once fulfilled; null while unfulfilled',
    example: 'success',
  })
  status!: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'UPS' })
  trackingCompany!: string | null;
  @ApiProperty({ type: String, nullable: true, example: '1Z999AA10123456784' })
  trackingNumber!: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'https://www.ups.com/track?tracknum=1Z999AA10123456784',
  })
  trackingUrl!: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Shipment status from the store platform (in_transit, delivered, …)',
    example: 'in_transit',
  })
  shipmentStatus!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: '2026-11-21T10:00:00.000Z' })
  createdAt!: string | null;
}

export class FulfillmentRowDto {
  @ApiProperty({ description: 'Calculated line item id', example: '6741a0c2d3e4f5a6b7c8d9e1' })
  _id!: string;
  @ApiProperty({ example: 1042 })
  orderNumber!: number;
  @ApiProperty({ example: '#1042' })
  orderName!: string;
  @ApiProperty({
    type: String,
    format: 'date-time',
    description: 'Order date',
    example: '2026-11-20T09:30:00.000Z',
  })
  date!: string;
  @ApiProperty({ example: '6740b9f1c2a4e15b3c9d0a21' })
  vendorId!: string;
  @ApiProperty({ example: 'acme supplies' })
  vendorName!: string;
  @ApiProperty({ example: 'Canvas tote bag' })
  lineItemName!: string;
  @ApiProperty({ type: String, nullable: true, example: 'Natural / Large' })
  lineItemVariant!: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'TOTE-NAT-L' })
  lineItemSku!: string | null;
  @ApiProperty({ enum: FULFILLMENT_FILTERS, example: 'fulfilled' })
  fulfillmentStatus!: FulfillmentFilter;
  @ApiProperty({ type: FulfillmentInfoDto })
  fulfillment!: FulfillmentInfoDto;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description:
      'Order shipping address as the store platform sent it (first_name, last_name, address1, city, country, …)',
    example: ADDRESS_EXAMPLE,
  })
  shippingAddress!: Record<string, unknown> | null;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description: 'Order billing address',
    example: ADDRESS_EXAMPLE,
  })
  billingAddress!: Record<string, unknown> | null;
}

export class FulfillmentListDto {
  @ApiProperty({ example: 1 })
  total!: number;
  @ApiProperty({ type: Number, nullable: true, description: 'null on the last page', example: null })
  nextOffset!: number | null;
  @ApiProperty({ type: [FulfillmentRowDto] })
  fulfillments!: FulfillmentRowDto[];
}
