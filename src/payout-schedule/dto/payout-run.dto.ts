import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { EndDayParam, StartDayParam } from '../../common/dates/day-range';
import { OffsetPageQueryDto } from '../../common/pagination';
import { RUN_STATES, type RunState, SKIP_REASONS, type SkipReason } from '../payout-run.schema';

export class PayoutRunListQueryDto extends OffsetPageQueryDto {
  @StartDayParam('Runs whose due date is on or after this UTC calendar day (inclusive)')
  start?: string;

  @EndDayParam('Runs whose due date is on or before this UTC calendar day (inclusive)')
  end?: string;

  @ApiPropertyOptional({ enum: RUN_STATES, description: 'Only runs in this state' })
  @IsOptional()
  @IsIn(RUN_STATES)
  state?: RunState;
}

/** One vendor of a run: its batch, or why it has none. */
export class PayoutRunVendorDto {
  @ApiProperty({ example: '6740b9f1c2a4e15b3c9d0a21' })
  vendorId!: string;
  @ApiProperty({ example: 'acme supplies' })
  vendorName!: string;
  @ApiProperty({
    enum: SKIP_REASONS,
    nullable: true,
    description: 'Why the run made no batch for the vendor; null when it made one',
    example: 'paused',
  })
  skipped!: SkipReason | null;
  @ApiProperty({ type: String, nullable: true, example: '6742c1d2e3f4a5b6c7d8e9f0' })
  batchId!: string | null;
  @ApiProperty({
    type: String,
    format: 'date',
    nullable: true,
    description: "The batch's period end: the due date less the vendor's hold",
    example: '2026-11-07',
  })
  periodEnd!: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: "The batch's status once the run completed (completed, carried_forward, below_minimum)",
    example: 'completed',
  })
  status!: string | null;
  @ApiProperty({ description: 'What the batch paid', example: 486.1 })
  total!: number;
  @ApiProperty({ type: Number, nullable: true, description: "The batch's net", example: 486.1 })
  net!: number | null;
}

export class PayoutRunTotalsDto {
  @ApiProperty({ example: 3 })
  batches!: number;
  @ApiProperty({ example: 2 })
  paidBatches!: number;
  @ApiProperty({ example: 1 })
  skippedVendors!: number;
  @ApiProperty({ description: 'Σ total of the paid (completed) batches', example: 912.4 })
  paid!: number;
  @ApiProperty({ description: 'Σ net of the carried-forward batches (zero or below)', example: -12 })
  carriedForward!: number;
  @ApiProperty({
    description: 'Σ net of the below-minimum batches (positive, still due: paid by a later run)',
    example: 31.5,
  })
  belowMinimum!: number;
}

/** One scheduled payout run (DESIGN §15). */
export class PayoutRunDto {
  @ApiProperty({ example: '6745a1b2c3d4e5f6a7b8c9d0' })
  _id!: string;
  @ApiProperty({ type: String, format: 'date', example: '2026-11-14' })
  dueDate!: string;
  @ApiProperty({
    enum: RUN_STATES,
    description: 'pending (due, not started) → running (batches being made and settled) → completed',
    example: 'completed',
  })
  state!: RunState;
  @ApiProperty({ example: 'weekly' })
  frequency!: string;
  @ApiProperty({
    description: "The shop's hold when the run was made (a vendor's own may differ)",
    example: 7,
  })
  holdDays!: number;
  @ApiProperty({ description: "The shop's minimum when the run was made", example: 50 })
  minimumPayout!: number;
  @ApiProperty({ type: [PayoutRunVendorDto] })
  vendors!: PayoutRunVendorDto[];
  @ApiProperty({ type: PayoutRunTotalsDto, nullable: true, description: 'Set once completed' })
  totals!: PayoutRunTotalsDto | null;
  @ApiProperty({ description: 'How many times a process took the run up (more than 1: resumed)', example: 1 })
  claims!: number;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: '2026-11-14T00:01:00.000Z' })
  startedAt!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: '2026-11-14T00:01:04.000Z' })
  completedAt!: string | null;
  @ApiProperty({ type: String, nullable: true, example: null })
  lastError!: string | null;
  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-14T00:01:00.000Z' })
  createdAt!: string;
}

export class PayoutRunListDto {
  @ApiProperty({ example: 1 })
  total!: number;
  @ApiProperty({ type: Number, nullable: true, example: null })
  nextOffset!: number | null;
  @ApiProperty({ type: [PayoutRunDto] })
  runs!: PayoutRunDto[];
}
