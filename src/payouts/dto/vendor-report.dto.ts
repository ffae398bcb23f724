import { ROW_TYPES, type RowType } from '../../line-items/line-item.schema';
import { ApiProperty } from '@nestjs/swagger';
import { EndDayParam, StartDayParam } from '../../common/dates/day-range';
import { OffsetPageQueryDto } from '../../common/pagination';
import { PAYOUT_STATUSES, type PayoutStatus } from '../../line-items/line-item.schema';

export class VendorReportQueryDto extends OffsetPageQueryDto {
  @StartDayParam('Order date on or after this UTC calendar day (inclusive from 00:00:00.000Z)')
  start?: string;

  @EndDayParam('Order date on or before this UTC calendar day (inclusive up to 23:59:59.999Z)')
  end?: string;
}

/** One calculated line item of the vendor (spec §2.4 report data). */
export class VendorReportLineItemDto {
  @ApiProperty({ description: 'Calculated line item id', example: '6741b2c3d4e5f6a7b8c9d0e1' })
  _id!: string;
  @ApiProperty({
    enum: ROW_TYPES,
    description:
      '`sale`, or `refund` (a refund row: negative figures, dated at the refund, `quantity` refunded)',
    example: 'sale',
  })
  type!: RowType;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Refund rows: the platform refund id',
    example: null,
  })
  refundId!: string | null;
  @ApiProperty({ example: 5549201834154 })
  orderId!: number;
  @ApiProperty({ example: '#1042' })
  orderName!: string;
  @ApiProperty({ example: 1042 })
  orderNumber!: number;
  @ApiProperty({ example: 13601741586602 })
  lineItemId!: number;
  @ApiProperty({ example: 'Linen shirt' })
  name!: string;
  @ApiProperty({ type: String, nullable: true, example: 'ACME-SHIRT-M' })
  sku!: string | null;
  @ApiProperty({ example: 2 })
  quantity!: number;
  @ApiProperty({
    type: String,
    format: 'date-time',
    description: 'Order date',
    example: '2026-11-21T10:00:00.000Z',
  })
  date!: string;
  @ApiProperty({ example: 48 })
  sales!: number;
  @ApiProperty({ example: 43.2 })
  salesAfterDiscount!: number;
  @ApiProperty({ example: 3.6 })
  tax!: number;
  @ApiProperty({ example: 20 })
  costOfItem!: number;
  @ApiProperty({ type: String, nullable: true, example: 'vendor:percentage:10' })
  commissionPlan!: string | null;
  @ApiProperty({ example: 4.32 })
  commission!: number;
  @ApiProperty({ example: 0 })
  deduction!: number;
  @ApiProperty({ example: 38.88 })
  payout!: number;
  @ApiProperty({ example: 0 })
  paid!: number;
  @ApiProperty({ example: 38.88 })
  balance!: number;
  @ApiProperty({ enum: PAYOUT_STATUSES, example: 'unpaid' })
  payoutStatus!: PayoutStatus;
}

/** Σ over every line item of the range (not only the page), to the cent. */
export class VendorReportTotalsDto {
  @ApiProperty({ example: 480 })
  sales!: number;
  @ApiProperty({ description: 'Σ salesAfterDiscount', example: 432 })
  netSales!: number;
  @ApiProperty({ example: 43.2 })
  commission!: number;
  @ApiProperty({ example: 0 })
  deduction!: number;
  @ApiProperty({ example: 388.8 })
  payout!: number;
  @ApiProperty({ example: 100 })
  paid!: number;
  @ApiProperty({ example: 288.8 })
  balance!: number;
}

export class VendorReportDto {
  @ApiProperty({ description: 'Line items in the range, across pages', example: 10 })
  total!: number;
  @ApiProperty({ type: Number, nullable: true, description: 'null on the last page', example: null })
  nextOffset!: number | null;
  @ApiProperty({ type: VendorReportTotalsDto })
  totals!: VendorReportTotalsDto;
  @ApiProperty({ type: [VendorReportLineItemDto], description: 'Newest order first' })
  lineItems!: VendorReportLineItemDto[];
}
