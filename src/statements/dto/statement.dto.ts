import { ApiProperty } from '@nestjs/swagger';
import { BatchTransferDto } from '../../transfers/dto/transfer.dto';
import { LineFiguresDto } from '../../line-items/dto/line-figures.dto';

export const STATEMENT_ROW_KINDS = ['sale', 'refund', 'adjustment'] as const;
export type StatementRowKind = (typeof STATEMENT_ROW_KINDS)[number];

/** One row a batch settled: a sale row, a refund row or an adjustment, with its source ids. */
export class StatementRowDto {
  @ApiProperty({ enum: STATEMENT_ROW_KINDS, example: 'sale' })
  kind!: StatementRowKind;
  @ApiProperty({
    type: String,
    format: 'date-time',
    description: "The row's date: the order's, the refund's or the adjustment's `customItemDate`",
    example: '2026-11-20T09:30:00.000Z',
  })
  date!: string;
  @ApiProperty({
    description: 'Payout row id (sale, refund) or adjustment id',
    example: '6741a0c2d3e4f5a6b7c8d9e1',
  })
  rowId!: string;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'Store-platform order id',
    example: 5549201834154,
  })
  orderId!: number | null;
  @ApiProperty({ type: String, nullable: true, example: '#1042' })
  orderName!: string | null;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'Store-platform line item id',
    example: 13601741586602,
  })
  lineItemId!: number | null;
  @ApiProperty({ type: String, nullable: true, description: 'Refund id (refund rows)', example: null })
  refundId!: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Refund line item id (refund rows)',
    example: null,
  })
  refundLineItemId!: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Adjustment reference, e.g. ADJ-000001',
    example: null,
  })
  adjustmentId!: string | null;
  @ApiProperty({ description: 'Product title, or the adjustment’s comment', example: 'Canvas tote bag' })
  description!: string;
  @ApiProperty({ type: String, nullable: true, example: 'ACME-TOTE' })
  sku!: string | null;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'Units (refund rows: units refunded); null for adjustments',
    example: 2,
  })
  quantity!: number | null;
  @ApiProperty({
    type: LineFiguresDto,
    nullable: true,
    description: 'The row’s figures; null for adjustments',
  })
  figures!: LineFiguresDto | null;
  @ApiProperty({
    description: 'What the batch settled on this row (negative for refunds and deductions)',
    example: 90,
  })
  amount!: number;
}

export class StatementVendorDto {
  @ApiProperty({ example: '6740b9f1c2a4e15b3c9d0a21' })
  id!: string;
  @ApiProperty({ example: 'acme apparel' })
  name!: string;
}

export class StatementPeriodDto {
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'Date of the oldest settled row (null when the batch settled none)',
    example: '2026-11-01T08:00:00.000Z',
  })
  from!: string | null;
  @ApiProperty({ description: 'The batch’s period end (UTC day, inclusive)', example: '2026-11-30' })
  periodEnd!: string;
  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-30T23:59:59.999Z' })
  cutoff!: string;
}

export class StatementTotalsDto {
  @ApiProperty({ type: LineFiguresDto, description: 'Σ of the sale and refund rows’ figures' })
  figures!: LineFiguresDto;
  @ApiProperty({ example: 1 })
  saleCount!: number;
  @ApiProperty({ example: 0 })
  refundCount!: number;
  @ApiProperty({ example: 0 })
  adjustmentCount!: number;
  @ApiProperty({ description: 'Σ amount of the sale rows', example: 90 })
  sales!: number;
  @ApiProperty({ description: 'Σ amount of the refund rows (≤ 0)', example: 0 })
  refunds!: number;
  @ApiProperty({ description: 'Σ amount of the adjustments', example: 0 })
  adjustments!: number;
  @ApiProperty({ description: 'Σ amount of every row: sales + refunds + adjustments', example: 90 })
  net!: number;
}

/** What one payout batch settled (GET /v1/payouts/batches/{id}/statement). */
export class StatementDto {
  @ApiProperty({ example: '6742c1d2e3f4a5b6c7d8e9f0' })
  batchId!: string;
  @ApiProperty({ description: 'The batch’s status', example: 'completed' })
  status!: string;
  @ApiProperty({ type: StatementVendorDto })
  vendor!: StatementVendorDto;
  @ApiProperty({ type: StatementPeriodDto })
  period!: StatementPeriodDto;
  @ApiProperty({
    description:
      'Balance carried in: what the previous batch carried forward (0 when none). Netted rows stay due ' +
      '(DESIGN §8), so the rows that made it are among `rows` and in `totals.net`: it is part of the net, ' +
      'not added to it',
    example: 0,
  })
  openingBalance!: number;
  @ApiProperty({ type: [StatementRowDto], description: 'Every settled row, oldest first; adjustments last' })
  rows!: StatementRowDto[];
  @ApiProperty({ type: StatementTotalsDto })
  totals!: StatementTotalsDto;
  @ApiProperty({ description: 'What the batch paid (0 unless completed; never negative)', example: 90 })
  paid!: number;
  @ApiProperty({
    description: 'Balance carried out: net − paid (0 for a paid batch; the net for a carried-forward one)',
    example: 0,
  })
  closingBalance!: number;
  @ApiProperty({
    type: BatchTransferDto,
    nullable: true,
    description:
      'The transfer that pays what the batch paid (DESIGN §10): method, state, provider id or bank ' +
      'reference; null for a carried-forward batch (nothing is sent) or before it is created',
  })
  transfer!: BatchTransferDto | null;
}

export class StatementEnvelopeDto {
  @ApiProperty({ enum: [true], example: true })
  success!: true;
  @ApiProperty({ type: StatementDto })
  data!: StatementDto;
}
