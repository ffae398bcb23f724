import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import {
  PAYOUT_STATUSES,
  type PayoutStatus,
  ROW_TYPES,
  type RowType,
} from '../../line-items/line-item.schema';
import { VendorDayRangeQueryDto } from '../../common/dates/vendor-day-range.query';

export const FULFILLMENT_FILTERS = ['fulfilled', 'unfulfilled'] as const;
export type FulfillmentFilter = (typeof FULFILLMENT_FILTERS)[number];

export class PayoutListQueryDto extends VendorDayRangeQueryDto {
  @ApiPropertyOptional({
    enum: PAYOUT_STATUSES,
    description: '`paid`: balance 0; `partial`: some paid, some outstanding; `unpaid`: nothing paid',
  })
  @IsOptional()
  @IsIn(PAYOUT_STATUSES)
  status?: PayoutStatus;

  @ApiPropertyOptional({
    enum: FULFILLMENT_FILTERS,
    description: 'Fulfillment status of the line',
  })
  @IsOptional()
  @IsIn(FULFILLMENT_FILTERS)
  fulfillment?: FulfillmentFilter;

  @ApiPropertyOptional({ enum: ROW_TYPES, description: '`sale` rows (order lines) or `refund` rows only' })
  @IsOptional()
  @IsIn(ROW_TYPES)
  type?: RowType;
}

export class PayoutRowDto {
  @ApiProperty({ description: 'Calculated line item id', example: '6741a0c2d3e4f5a6b7c8d9e1' })
  _id!: string;
  @ApiProperty({ example: 1042 })
  orderNumber!: number;
  @ApiProperty({ example: '#1042' })
  orderName!: string;
  @ApiProperty({ example: '6740b9f1c2a4e15b3c9d0a21' })
  vendorId!: string;
  @ApiProperty({ example: 'acme supplies' })
  vendorName!: string;
  @ApiProperty({ example: 'Canvas tote bag' })
  lineItemName!: string;
  @ApiProperty({ description: 'Owed to the vendor for this line', example: 40.5 })
  payout!: number;
  @ApiProperty({ description: 'Paid by payout batches so far', example: 0 })
  paid!: number;
  @ApiProperty({ description: 'Outstanding: payout − paid', example: 40.5 })
  balance!: number;
  @ApiProperty({ enum: PAYOUT_STATUSES, example: 'unpaid' })
  payoutStatus!: PayoutStatus;
  @ApiProperty({ enum: FULFILLMENT_FILTERS, example: 'unfulfilled' })
  fulfillmentStatus!: FulfillmentFilter;
  @ApiProperty({ type: String, nullable: true, description: 'The batch that paid the line', example: null })
  batchId!: string | null;
  @ApiProperty({
    type: String,
    format: 'date-time',
    description: 'Order date',
    example: '2026-11-20T09:30:00.000Z',
  })
  date!: string;
}

export class PayoutListDto {
  @ApiProperty({ example: 1 })
  total!: number;
  @ApiProperty({ type: Number, nullable: true, description: 'null on the last page', example: null })
  nextOffset!: number | null;
  @ApiProperty({ type: [PayoutRowDto] })
  payouts!: PayoutRowDto[];
}
