import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsMongoId, IsOptional } from 'class-validator';
import { OffsetPageQueryDto } from '../../common/pagination';
import { IsDay } from '../../common/dates/day-range';
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
      'queued → running → completed; `failed` after the last automatic retry (trigger again to resume)',
    example: 'completed',
  })
  status!: BatchStatus;
  @ApiProperty({ description: 'Line items this batch paid', example: 12 })
  lineItemCount!: number;
  @ApiProperty({ description: 'Σ line item balances this batch paid', example: 486.1 })
  lineItemTotal!: number;
  @ApiProperty({ description: 'Adjustments this batch paid', example: 1 })
  adjustmentCount!: number;
  @ApiProperty({ description: 'Σ signed adjustment amounts this batch paid', example: -25 })
  adjustmentTotal!: number;
  @ApiProperty({ description: 'lineItemTotal + adjustmentTotal (may be negative)', example: 461.1 })
  total!: number;
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
