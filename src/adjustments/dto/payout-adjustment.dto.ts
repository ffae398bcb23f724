import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsMongoId, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { IsMoney, MAX_MONEY } from '../../common/http/validators';
import { IsDateTime } from '../../common/dates/date-time';
import { EndDayParam, StartDayParam } from '../../common/dates/day-range';
import {
  ADJUSTMENT_STATUSES,
  ADJUSTMENT_TYPES,
  type AdjustmentStatus,
  type AdjustmentType,
} from '../payout-adjustment.schema';

export const MAX_ADJUSTMENT_AMOUNT = MAX_MONEY;
/** Room for any ISO 8601 date-time a person writes (`2026-11-20T12:00:00.000+05:30` is 29). */
const ISO_DATE_TIME_MAX = 64;

export class CreatePayoutAdjustmentDto {
  @ApiProperty({
    pattern: '^[0-9a-fA-F]{24}$',
    minLength: 24,
    maxLength: 24,
    description: 'A vendor of this shop',
    example: '6740b9f1c2a4e15b3c9d0a21',
  })
  @IsMongoId()
  vendorId!: string;

  @ApiProperty({
    description: 'Positive, at most 2 decimal places; the sign comes from `type`',
    exclusiveMinimum: true,
    minimum: 0,
    maximum: MAX_ADJUSTMENT_AMOUNT,
    example: 25,
  })
  @IsMoney({ greaterThan: 0 })
  amount!: number;

  @ApiProperty({ enum: ADJUSTMENT_TYPES, example: 'DEDUCTION' })
  @IsIn(ADJUSTMENT_TYPES)
  type!: AdjustmentType;

  @ApiPropertyOptional({
    maxLength: 2000,
    description: 'Free text for the vendor and the shop; omitted: an empty string',
    example: 'Return shipping for order #1042',
  })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  comments?: string;

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    maxLength: ISO_DATE_TIME_MAX,
    description: 'The date the adjustment applies to (decides its payout period); omitted: now',
    example: '2026-11-20T12:00:00.000Z',
  })
  @IsOptional()
  @IsDateTime()
  @MaxLength(ISO_DATE_TIME_MAX)
  customItemDate?: string;
}

/** Only these fields can change, and only while the adjustment is UNPAID. */
export class UpdatePayoutAdjustmentDto {
  @ApiPropertyOptional({
    description:
      'Positive, at most 2 decimal places; the sign comes from `type` (the new one, or the current one)',
    exclusiveMinimum: true,
    minimum: 0,
    maximum: MAX_ADJUSTMENT_AMOUNT,
    example: 30,
  })
  @IsOptional()
  @IsMoney({ greaterThan: 0 })
  amount?: number;

  @ApiPropertyOptional({ enum: ADJUSTMENT_TYPES, example: 'ADDITION' })
  @IsOptional()
  @IsIn(ADJUSTMENT_TYPES)
  type?: AdjustmentType;

  @ApiPropertyOptional({ maxLength: 2000, example: 'Corrected amount' })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  comments?: string;

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    maxLength: ISO_DATE_TIME_MAX,
    example: '2026-11-21T00:00:00.000Z',
  })
  @IsOptional()
  @IsDateTime()
  @MaxLength(ISO_DATE_TIME_MAX)
  customItemDate?: string;
}

export class PayoutAdjustmentListQueryDto {
  @ApiPropertyOptional({
    type: 'integer',
    format: 'int32',
    minimum: 1,
    maximum: 1_000_000,
    default: 1,
    description: 'Page number (default 1)',
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  page: number = 1;

  @ApiPropertyOptional({
    type: 'integer',
    format: 'int32',
    minimum: 1,
    maximum: 100,
    default: 20,
    description: 'Page size (1–100, default 20)',
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit: number = 20;

  @ApiPropertyOptional({
    description: 'Only this vendor: its `_id`',
    pattern: '^[0-9a-fA-F]{24}$',
    minLength: 24,
    maxLength: 24,
  })
  @IsOptional()
  @IsMongoId()
  vendorId?: string;

  @ApiPropertyOptional({ enum: ADJUSTMENT_STATUSES, description: 'Only adjustments in this status' })
  @IsOptional()
  @IsIn(ADJUSTMENT_STATUSES)
  status?: AdjustmentStatus;

  @ApiPropertyOptional({ enum: ADJUSTMENT_TYPES, description: 'Only adjustments of this type' })
  @IsOptional()
  @IsIn(ADJUSTMENT_TYPES)
  type?: AdjustmentType;

  @StartDayParam('`customItemDate` on or after this UTC calendar day (inclusive)')
  start?: string;

  @EndDayParam('`customItemDate` on or before this UTC calendar day (inclusive, up to 23:59:59.999Z)')
  end?: string;
}

export class PayoutAdjustmentDto {
  @ApiProperty({ example: '6741a0c2d3e4f5a6b7c8d9e0' })
  _id!: string;
  @ApiProperty({ example: '6740b9f1c2a4e15b3c9d0a10' })
  shopId!: string;
  @ApiProperty({ example: '6740b9f1c2a4e15b3c9d0a21' })
  vendorId!: string;
  @ApiProperty({
    description: 'Copied at creation; a later vendor rename does not rewrite it',
    example: 'acme supplies',
  })
  vendorName!: string;
  @ApiProperty({ description: 'Signed: a DEDUCTION reads negative, an ADDITION positive', example: -25 })
  amount!: number;
  @ApiProperty({ enum: ADJUSTMENT_TYPES, example: 'DEDUCTION' })
  type!: AdjustmentType;
  @ApiProperty({ enum: ADJUSTMENT_STATUSES, description: 'Set only by the payout engine', example: 'UNPAID' })
  status!: AdjustmentStatus;
  @ApiProperty({ description: 'The paying batch id, or the literal NA while unpaid', example: 'NA' })
  batchId!: string;
  @ApiProperty({ description: 'Server-generated per-shop reference', example: 'ADJ-000042' })
  customId!: string;
  @ApiProperty({ example: 'Return shipping for order #1042' })
  comments!: string;
  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-20T12:00:00.000Z' })
  customItemDate!: string;
  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-20T12:00:00.000Z' })
  createdAt!: string;
  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-20T12:00:00.000Z' })
  updatedAt!: string;
}

export class PayoutAdjustmentListDto {
  @ApiProperty({ type: [PayoutAdjustmentDto] })
  items!: PayoutAdjustmentDto[];
  @ApiProperty({ description: 'All matches across pages', example: 1 })
  total!: number;
  @ApiProperty({ description: '1-based page number', example: 1 })
  page!: number;
  @ApiProperty({ description: 'Page size used', example: 20 })
  limit!: number;
}

export class DeletedPayoutAdjustmentDto {
  @ApiProperty({ example: '6741a0c2d3e4f5a6b7c8d9e0' })
  _id!: string;
  @ApiProperty({ enum: [true], example: true })
  deleted!: true;
}

export class PayoutAdjustmentEnvelopeDto {
  @ApiProperty({ enum: [true], example: true })
  success!: true;
  @ApiProperty({ type: PayoutAdjustmentDto })
  data!: PayoutAdjustmentDto;
}

export class PayoutAdjustmentListEnvelopeDto {
  @ApiProperty({ enum: [true], example: true })
  success!: true;
  @ApiProperty({ type: PayoutAdjustmentListDto })
  data!: PayoutAdjustmentListDto;
}

export class DeletedPayoutAdjustmentEnvelopeDto {
  @ApiProperty({ enum: [true], example: true })
  success!: true;
  @ApiProperty({ type: DeletedPayoutAdjustmentDto })
  data!: DeletedPayoutAdjustmentDto;
}
