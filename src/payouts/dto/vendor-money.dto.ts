import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { CursorPageQueryDto, PageInfoDto } from '../../common/pagination';
import { LineFiguresDto } from '../../line-items/dto/line-figures.dto';
import {
  PAYOUT_STATUSES,
  type PayoutStatus,
  ROW_TYPES,
  type RowType,
} from '../../line-items/line-item.schema';
import { VendorBalanceDto } from './vendor-balance.dto';

export class PayoutRowsQueryDto extends CursorPageQueryDto {
  @ApiPropertyOptional({ enum: ROW_TYPES, description: '`sale` rows or `refund` rows only' })
  @IsOptional()
  @IsIn(ROW_TYPES)
  type?: RowType;
}

/** A payout row with its source ids and every figure (GET /v2/payouts). */
export class PayoutRowWithFiguresDto {
  @ApiProperty({ description: 'Payout row id', example: '6741a0c2d3e4f5a6b7c8d9e1' })
  _id!: string;
  @ApiProperty({ enum: ROW_TYPES, example: 'sale' })
  type!: RowType;
  @ApiProperty({
    type: String,
    format: 'date-time',
    description: 'Order date (refund rows: the refund date)',
    example: '2026-11-20T09:30:00.000Z',
  })
  date!: string;
  @ApiProperty({ example: '6740b9f1c2a4e15b3c9d0a21' })
  vendorId!: string;
  @ApiProperty({ example: 'acme apparel' })
  vendorName!: string;
  @ApiProperty({ example: 5549201834154 })
  orderId!: number;
  @ApiProperty({ example: '#1042' })
  orderName!: string;
  @ApiProperty({ example: 1042 })
  orderNumber!: number;
  @ApiProperty({ example: 13601741586602 })
  lineItemId!: number;
  @ApiProperty({ type: String, nullable: true, description: 'Refund id (refund rows)', example: null })
  refundId!: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Refund line item id (refund rows)',
    example: null,
  })
  refundLineItemId!: string | null;
  @ApiProperty({ example: 'Canvas tote bag' })
  lineItemName!: string;
  @ApiProperty({ type: String, nullable: true, example: 'ACME-TOTE' })
  sku!: string | null;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'Units (refund rows: units refunded)',
    example: 2,
  })
  quantity!: number | null;
  @ApiProperty({ type: LineFiguresDto })
  figures!: LineFiguresDto;
  @ApiProperty({ description: 'Paid by payout batches so far', example: 0 })
  paid!: number;
  @ApiProperty({ description: 'Outstanding: payout − paid', example: 90 })
  balance!: number;
  @ApiProperty({ enum: PAYOUT_STATUSES, example: 'unpaid' })
  payoutStatus!: PayoutStatus;
  @ApiProperty({ type: String, nullable: true, description: 'The batch that paid the row', example: null })
  batchId!: string | null;
}

export class PayoutRowsPageDto {
  @ApiProperty({ type: [PayoutRowWithFiguresDto] })
  items!: PayoutRowWithFiguresDto[];
  @ApiProperty({ type: PageInfoDto })
  pageInfo!: PageInfoDto;
  @ApiProperty({ example: 42 })
  totalCount!: number;
}

export class PayoutRowsPageEnvelopeDto {
  @ApiProperty({ enum: [true], example: true })
  success!: true;
  @ApiProperty({ type: PayoutRowsPageDto })
  data!: PayoutRowsPageDto;
}

export class VendorBalanceEnvelopeDto {
  @ApiProperty({ enum: [true], example: true })
  success!: true;
  @ApiProperty({ type: VendorBalanceDto })
  data!: VendorBalanceDto;
}
