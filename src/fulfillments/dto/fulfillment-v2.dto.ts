import { ApiProperty, ApiPropertyOptional, IntersectionType, PartialType, PickType } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsMongoId,
  IsNotEmpty,
  IsOptional,
  IsString,
  MaxLength,
} from 'class-validator';
import { IsDateTime } from '../../common/dates/date-time';
import { CursorPageQueryDto, PageInfoDto } from '../../common/pagination';
import {
  CreateFulfillmentDto,
  FULFILLMENT_FILTERS,
  FulfillmentFilter,
  FulfillmentResultsDto,
  FulfillmentRowDto,
} from './fulfillment.dto';

export const MAX_VENDOR_LINE_ITEMS_PER_FULFILLMENT = 100;
const ID_EXAMPLE = '6741a0c2d3e4f5a6b7c8d9e1';

/** The tracking fields the vendor bodies share with the v1 body (same rules, same documentation). */
const TRACKING_FIELDS = ['trackingNumber', 'shippingCarrier', 'trackingUrl'] as const;

/** The vendor body's line item ids (v1 names them `lineItemsToFulfill`, with a higher cap and no uniqueness). */
class VendorFulfillmentLinesDto {
  @ApiProperty({
    type: 'array',
    items: { type: 'string', maxLength: 64 },
    minItems: 1,
    maxItems: MAX_VENDOR_LINE_ITEMS_PER_FULFILLMENT,
    uniqueItems: true,
    description:
      'Calculated line item ids (`_id`), each at most once; each gets its own result entry, in this order',
    example: [ID_EXAMPLE, '6741a0c2d3e4f5a6b7c8d9e2'],
  })
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(MAX_VENDOR_LINE_ITEMS_PER_FULFILLMENT)
  @ArrayUnique()
  @IsString({ each: true })
  @MaxLength(64, { each: true })
  lineItemIds!: string[];
}

/** POST /fulfillments and /v2/fulfillments (the same engine as POST /v1/fulfillments, whose tracking fields it reuses). */
export class CreateVendorFulfillmentDto extends IntersectionType(
  VendorFulfillmentLinesDto,
  PickType(CreateFulfillmentDto, TRACKING_FIELDS),
) {
  @ApiPropertyOptional({
    type: Boolean,
    description:
      'Whether the store platform emails the customer the shipping confirmation (false when absent)',
    example: true,
  })
  @IsOptional()
  @IsBoolean()
  notifyCustomer?: boolean;
}

/**
 * PUT /fulfillments/{lineItemId}: the fields sent replace the stored ones (at least one). The v1 body's
 * tracking fields, each optional; only the examples differ (an update shows a change of carrier).
 */
export class UpdateFulfillmentDto extends PartialType(PickType(CreateFulfillmentDto, TRACKING_FIELDS)) {
  @ApiPropertyOptional({ example: '1Z999AA10123456785' })
  override trackingNumber?: string;

  @ApiPropertyOptional({ example: 'DHL' })
  override shippingCarrier?: string;

  @ApiPropertyOptional({ example: 'https://dhl.example/track/1Z999AA10123456785' })
  override trackingUrl?: string;

  @ApiPropertyOptional({
    type: Boolean,
    description:
      'Whether the store platform emails the customer about this and later updates (false when absent)',
    example: false,
  })
  @IsOptional()
  @IsBoolean()
  notifyCustomer?: boolean;
}

export class FulfillmentChangeDto {
  @ApiProperty({
    type: [String],
    description:
      'Every line item the platform fulfillment covers (it is changed or cancelled as a whole), the requested one included',
    example: [ID_EXAMPLE],
  })
  lineItemIds!: string[];
  @ApiProperty({ enum: FULFILLMENT_FILTERS, example: 'fulfilled' })
  fulfillmentStatus!: FulfillmentFilter;
  @ApiProperty({ type: String, nullable: true, example: 'DHL' })
  trackingCompany!: string | null;
  @ApiProperty({ type: String, nullable: true, example: '1Z999AA10123456785' })
  trackingNumber!: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'https://dhl.example/track/1Z999AA10123456785' })
  trackingUrl!: string | null;
}

/** Filters of GET /fulfillments, /fulfillments/counts and /fulfillments/stats (and their /v2 twins). */
export class FulfillmentFiltersDto {
  @ApiPropertyOptional({
    pattern: '^[0-9a-fA-F]{24}$',
    minLength: 24,
    maxLength: 24,
    description: 'Shop token only: one vendor’s rows (a vendor token always reads its own)',
  })
  @IsOptional()
  @IsMongoId()
  vendorId?: string;

  @ApiPropertyOptional({
    description: 'Order placed at or after this instant (ISO 8601; a date alone means 00:00:00Z that day)',
    maxLength: 64,
  })
  @IsOptional()
  @IsDateTime()
  @MaxLength(64)
  dateMin?: string;

  @ApiPropertyOptional({
    description:
      'Order placed at or before this instant (ISO 8601; a date alone means the whole UTC day, inclusive)',
    maxLength: 64,
  })
  @IsOptional()
  @IsDateTime()
  @MaxLength(64)
  dateMax?: string;
}

export class FulfillmentListFiltersDto extends FulfillmentFiltersDto {
  @ApiPropertyOptional({ enum: FULFILLMENT_FILTERS, description: 'Fulfillment status of the line' })
  @IsOptional()
  @IsIn(FULFILLMENT_FILTERS)
  fulfillmentStatus?: FulfillmentFilter;

  @ApiPropertyOptional({
    description:
      'Shipment status of the line: in_transit, out_for_delivery, delivered, failed_delivery (or what the platform sent)',
    minLength: 1,
    maxLength: 64,
  })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  shipmentStatus?: string;
}

/** The list query: the filters plus cursor paging (DESIGN §5). */
export class FulfillmentPageQueryDto extends IntersectionType(
  CursorPageQueryDto,
  FulfillmentListFiltersDto,
) {}

export class FulfillmentRowsPageDto {
  @ApiProperty({ type: [FulfillmentRowDto], description: 'Newest order first' })
  items!: FulfillmentRowDto[];
  @ApiProperty({ type: PageInfoDto })
  pageInfo!: PageInfoDto;
  @ApiProperty({ example: 42 })
  totalCount!: number;
}

export class FulfillmentRowsPageEnvelopeDto {
  @ApiProperty({ enum: [true], example: true })
  success!: true;
  @ApiProperty({ type: FulfillmentRowsPageDto })
  data!: FulfillmentRowsPageDto;
}

export class FulfillmentResultsEnvelopeDto {
  @ApiProperty({ enum: [true], example: true })
  success!: true;
  @ApiProperty({ type: FulfillmentResultsDto })
  data!: FulfillmentResultsDto;
}

export class FulfillmentChangeEnvelopeDto {
  @ApiProperty({ enum: [true], example: true })
  success!: true;
  @ApiProperty({ type: FulfillmentChangeDto })
  data!: FulfillmentChangeDto;
}
