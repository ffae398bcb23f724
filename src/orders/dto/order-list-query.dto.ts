import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { IsDateTime } from '../../common/dates/date-time';
import { CursorPageQueryDto } from '../../common/pagination';

export const ORDER_FULFILLMENT_FILTERS = ['unfulfilled', 'partial', 'fulfilled'] as const;
/** Order financial statuses as the store platform sends them (Shopify REST `financial_status`). */
export const ORDER_FINANCIAL_STATUSES = [
  'pending',
  'authorized',
  'partially_paid',
  'paid',
  'partially_refunded',
  'refunded',
  'voided',
  'expired',
] as const;

/** GET /orders and /v2/orders: the cursor page and the list's filters (DESIGN §12). */
export class OrderListQueryDto extends CursorPageQueryDto {
  @ApiPropertyOptional({
    enum: ORDER_FULFILLMENT_FILTERS,
    description:
      'Only orders not cancelled whose lines (the vendor’s, for a vendor token) are all fulfilled ' +
      '(`fulfilled`), some (`partial`) or none (`unfulfilled`): the same sets as GET /orders/counts',
  })
  @IsOptional()
  @IsIn(ORDER_FULFILLMENT_FILTERS)
  fulfillmentStatus?: (typeof ORDER_FULFILLMENT_FILTERS)[number];

  @ApiPropertyOptional({
    enum: ORDER_FINANCIAL_STATUSES,
    description: 'Only orders with this financial status',
  })
  @IsOptional()
  @IsIn(ORDER_FINANCIAL_STATUSES)
  financialStatus?: (typeof ORDER_FINANCIAL_STATUSES)[number];

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    maxLength: 40,
    description:
      'Only orders created at or after this time (ISO 8601 date-time, or a date: its midnight UTC)',
  })
  @IsOptional()
  @MaxLength(40)
  @IsDateTime()
  createdAtMin?: string;

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    maxLength: 40,
    description:
      'Only orders created at or before this time (ISO 8601 date-time, or a date: its midnight UTC)',
  })
  @IsOptional()
  @MaxLength(40)
  @IsDateTime()
  createdAtMax?: string;

  @ApiPropertyOptional({
    minLength: 1,
    maxLength: 64,
    description:
      'One order by its number (`#1001` or `1001`) or else its exact name. Combines with the date range; ' +
      'with `fulfillmentStatus` or `financialStatus` → 422 (a search names one order: read its statuses)',
  })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  search?: string;
}
