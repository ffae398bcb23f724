import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { IsMoney } from '../../common/http/validators';
import { PAYOUT_FREQUENCIES, type PayoutFrequency } from '../payout-schedule.schema';

/** The longest hold a schedule (or a vendor) may set, in days. */
export const MAX_HOLD_DAYS = 90;

/**
 * PUT /v1/shop/settings `payoutSchedule` (DESIGN §15): replaced as a whole. weekly and biweekly
 * need `dayOfWeek`, monthly needs `dayOfMonth`; the other day is ignored (stored null).
 */
export class PayoutScheduleInputDto {
  @ApiProperty({
    enum: PAYOUT_FREQUENCIES,
    description:
      '`manual`: batches run only when triggered. `weekly`: every `dayOfWeek`. `biweekly`: every other ' +
      '`dayOfWeek`, counting ISO weeks from the week the schedule was set (that week is week 0). ' +
      '`monthly`: every `dayOfMonth`. Due dates are UTC days; a schedule never runs a due date from before it was set.',
    example: 'weekly',
  })
  @IsIn(PAYOUT_FREQUENCIES)
  frequency!: PayoutFrequency;

  @ApiPropertyOptional({
    type: Number,
    minimum: 1,
    maximum: 7,
    description: 'ISO 8601 weekday (Monday = 1 … Sunday = 7); required for weekly and biweekly',
    example: 5,
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(7)
  dayOfWeek?: number | null;

  @ApiPropertyOptional({
    type: Number,
    minimum: 1,
    maximum: 28,
    description: 'Day of the month 1–28; required for monthly',
    example: 14,
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(28)
  dayOfMonth?: number | null;

  @ApiPropertyOptional({
    type: Number,
    minimum: 0,
    maximum: MAX_HOLD_DAYS,
    description:
      'Hold period in days: a run on due date D pays rows dated up to D − holdDays (so a refund within the ' +
      'hold is netted before the sale is paid). Absent: 0.',
    example: 7,
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX_HOLD_DAYS)
  holdDays?: number;

  @ApiPropertyOptional({
    type: Number,
    minimum: 0,
    description:
      'A positive net below this pays nothing: the batch reads `below_minimum` and its rows stay due for the ' +
      'next run. Absent: 0 (every positive net is paid).',
    example: 50,
  })
  @IsOptional()
  @IsMoney({ min: 0 })
  minimumPayout?: number;
}

/** The stored schedule with its defaults (manual, hold 0, minimum 0). */
export class PayoutScheduleDto {
  @ApiProperty({ enum: PAYOUT_FREQUENCIES, example: 'weekly' })
  frequency!: PayoutFrequency;
  @ApiProperty({ type: Number, nullable: true, example: 5 })
  dayOfWeek!: number | null;
  @ApiProperty({ type: Number, nullable: true, example: null })
  dayOfMonth!: number | null;
  @ApiProperty({ example: 7 })
  holdDays!: number;
  @ApiProperty({ example: 50 })
  minimumPayout!: number;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When the calendar (frequency, day) was last set: no earlier due date is ever run',
    example: '2026-11-02T09:30:00.000Z',
  })
  scheduleSetAt!: string | null;
}
