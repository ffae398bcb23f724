import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsMongoId, IsOptional } from 'class-validator';
import { OffsetPageQueryDto } from '../../common/pagination';
import { IsDay } from '../../common/dates/day-range';
import { BatchTransferDto } from '../../transfers/dto/transfer.dto';
import { BATCH_STATUSES, type BatchStatus } from '../payout-batch.schema';

export class CreatePayoutBatchesDto {
  @ApiPropertyOptional({
    pattern: '^[0-9a-fA-F]{24}$',
    minLength: 24,
    maxLength: 24,
    description:
      'Pay only this vendor; omitted: every vendor with something payable up to `until`, and every vendor ' +
      'already batched for that period (answered with its existing batch)',
    example: '6740b9f1c2a4e15b3c9d0a21',
  })
  @IsOptional()
  @IsMongoId()
  vendorId?: string;

  @ApiProperty({
    type: String,
    format: 'date',
    pattern: '^\\d{4}-\\d{2}-\\d{2}$',
    maxLength: 10,
    description:
      'Period end, a UTC calendar day not in the future: pays line items of paid orders dated up to ' +
      '23:59:59.999Z of that day and UNPAID adjustments whose customItemDate is on or before it',
    example: '2026-11-30',
  })
  @IsDay()
  until!: string;
}

export class PayoutBatchListQueryDto extends OffsetPageQueryDto {
  @ApiPropertyOptional({
    description: 'Only this vendor: its `_id`',
    pattern: '^[0-9a-fA-F]{24}$',
    minLength: 24,
    maxLength: 24,
  })
  @IsOptional()
  @IsMongoId()
  vendorId?: string;

  @ApiPropertyOptional({ enum: BATCH_STATUSES, description: 'Only batches in this status' })
  @IsOptional()
  @IsIn(BATCH_STATUSES)
  status?: BatchStatus;
}

export class PayoutBatchDto {
  @ApiProperty({ example: '6742c1d2e3f4a5b6c7d8e9f0' })
  _id!: string;
  @ApiProperty({ example: '6740b9f1c2a4e15b3c9d0a21' })
  vendorId!: string;
  @ApiProperty({ example: 'acme supplies' })
  vendorName!: string;
  @ApiProperty({
    description: 'The `until` day the batch pays up to (inclusive, UTC)',
    example: '2026-11-30',
  })
  periodEnd!: string;
  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-30T23:59:59.999Z' })
  cutoff!: string;
  @ApiProperty({
    enum: BATCH_STATUSES,
    description:
      'queued → running → completed (a positive net, paid) or carried_forward (a net of zero or below: ' +
      'nothing paid, every row stays due for the next batch) or below_minimum (a scheduled batch whose positive ' +
      'net is below the minimum payout: nothing paid, every row stays due); `failed` after the last automatic retry ' +
      '(trigger again to resume)',
    example: 'completed',
  })
  status!: BatchStatus;
  @ApiProperty({ description: 'Payout rows (sale and refund) this batch paid', example: 12 })
  lineItemCount!: number;
  @ApiProperty({
    description: 'Σ balances of the payout rows this batch paid (refund rows net)',
    example: 486.1,
  })
  lineItemTotal!: number;
  @ApiProperty({ description: 'Of lineItemCount: refund rows netted', example: 1 })
  refundCount!: number;
  @ApiProperty({ description: 'Of lineItemTotal: Σ of the refund rows netted (≤ 0)', example: -45 })
  refundTotal!: number;
  @ApiProperty({ description: 'Adjustments this batch paid', example: 1 })
  adjustmentCount!: number;
  @ApiProperty({ description: 'Σ signed adjustment amounts this batch paid', example: -25 })
  adjustmentTotal!: number;
  @ApiProperty({
    description: 'What the batch paid: lineItemTotal + adjustmentTotal, > 0; 0 when it carried forward',
    example: 461.1,
  })
  total!: number;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'Σ of every due row and adjustment the batch took (null until its run decided)',
    example: 461.1,
  })
  net!: number | null;
  @ApiProperty({
    description: 'The carried-forward amount the vendor brought into this batch (≤ 0)',
    example: 0,
  })
  openingBalance!: number;
  @ApiProperty({
    description:
      '0 for a paid batch; the (≤ 0) net for a carried-forward one: the next batch’s opening balance',
    example: 0,
  })
  closingBalance!: number;
  @ApiProperty({ description: 'Runs started, retries and reruns included', example: 1 })
  runs!: number;
  @ApiProperty({ type: String, nullable: true, description: 'Why the last run failed', example: null })
  lastError!: string | null;
  @ApiProperty({ type: String, format: 'date-time', example: '2026-12-01T08:00:00.000Z' })
  createdAt!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: '2026-12-01T08:00:00.120Z' })
  startedAt!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: '2026-12-01T08:00:01.480Z' })
  completedAt!: string | null;
}

/** GET /v1/payouts/batches/{id}: the batch with its transfer (list answers leave it out: one read each). */
export class PayoutBatchDetailDto extends PayoutBatchDto {
  @ApiProperty({
    type: BatchTransferDto,
    nullable: true,
    description:
      'The transfer that pays this batch (DESIGN §10); null for a carried-forward or unfinished batch ' +
      '(and for a batch settled before payout rails were wired)',
  })
  transfer!: BatchTransferDto | null;
}

export class PayoutBatchesQueuedDto {
  @ApiProperty({ type: [String], example: ['6742c1d2e3f4a5b6c7d8e9f0'] })
  batchIds!: string[];
  @ApiProperty({
    type: [PayoutBatchDto],
    description: 'The batches of this trigger; a vendor and period batched before answers its existing batch',
  })
  batches!: PayoutBatchDto[];
}

export class PayoutBatchListDto {
  @ApiProperty({ example: 1 })
  total!: number;
  @ApiProperty({ type: Number, nullable: true, example: null })
  nextOffset!: number | null;
  @ApiProperty({ type: [PayoutBatchDto] })
  batches!: PayoutBatchDto[];
}
