import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsMongoId, IsNotEmpty, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { EndDayParam, StartDayParam } from '../../common/dates/day-range';
import { OffsetPageQueryDto } from '../../common/pagination';
import {
  PAYOUT_METHOD_TYPES,
  type PayoutMethodType,
  TRANSFER_STATES,
  type TransferState,
} from '../transfer-states';

const ID = { pattern: '^[0-9a-fA-F]{24}$', minLength: 24, maxLength: 24 } as const;
const DATE_TIME = { type: String, format: 'date-time', nullable: true } as const;

export class TransferListQueryDto extends OffsetPageQueryDto {
  @ApiPropertyOptional({ enum: TRANSFER_STATES, description: 'Only transfers in this state' })
  @IsOptional()
  @IsIn(TRANSFER_STATES)
  state?: TransferState;

  @ApiPropertyOptional({ enum: PAYOUT_METHOD_TYPES, description: 'Only transfers on this rail' })
  @IsOptional()
  @IsIn(PAYOUT_METHOD_TYPES)
  method?: PayoutMethodType;

  @ApiPropertyOptional({ ...ID, description: 'Only this vendor: its `_id`' })
  @IsOptional()
  @IsMongoId()
  vendorId?: string;

  @StartDayParam('Transfers created on or after this UTC calendar day')
  start?: string;

  @EndDayParam('Transfers created on or before this UTC calendar day (inclusive up to 23:59:59.999Z)')
  end?: string;
}

export class ConfirmTransferDto {
  @ApiProperty({
    description: 'The bank (or other) reference of the payment the operator made by hand',
    minLength: 1,
    maxLength: 140,
    pattern: '^[^\\u0000-\\u001f]+$',
    example: 'BANK-REF-2026-11-30-0042',
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(140)
  // eslint-disable-next-line no-control-regex -- refusing control characters is the point
  @Matches(/^[^\u0000-\u001f]+$/, { message: 'reference must not contain control characters' })
  reference!: string;
}

export class FailTransferDto {
  @ApiProperty({
    description:
      'Why the bank refused or returned the payment the operator made by hand (kept as the transfer’s lastError and in its history)',
    minLength: 1,
    maxLength: 500,
    pattern: '^[^\\u0000-\\u001f]+$',
    example: 'Returned by the bank: account closed',
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(500)
  // eslint-disable-next-line no-control-regex -- refusing control characters is the point
  @Matches(/^[^\u0000-\u001f]+$/, { message: 'reason must not contain control characters' })
  reason!: string;
}

export class TransferStateChangeDto {
  @ApiProperty({ enum: TRANSFER_STATES, nullable: true, example: 'pending' })
  from!: TransferState | null;
  @ApiProperty({ enum: TRANSFER_STATES, example: 'paid' })
  to!: TransferState;
  @ApiProperty({ type: String, format: 'date-time', example: '2026-12-01T08:00:02.000Z' })
  at!: string;
  @ApiProperty({
    description:
      'What moved it: `engine`, `rail`, `webhook:stripe`, `webhook:paypal`, or the caller (`shop:<id>`)',
    example: 'rail',
  })
  by!: string;
  @ApiProperty({ type: String, nullable: true, example: null })
  note!: string | null;
}

export class TransferDto {
  @ApiProperty({ example: '6745a1b2c3d4e5f6a7b8c9d0' })
  _id!: string;
  @ApiProperty({
    description: 'The payout batch this transfer pays (one transfer per batch)',
    example: '6742c1d2e3f4a5b6c7d8e9f0',
  })
  batchId!: string;
  @ApiProperty({ example: '6740b9f1c2a4e15b3c9d0a21' })
  vendorId!: string;
  @ApiProperty({ example: 'acme supplies' })
  vendorName!: string;
  @ApiProperty({ enum: PAYOUT_METHOD_TYPES, example: 'stripe_connect' })
  method!: PayoutMethodType;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Stripe connected account or PayPal receiver the transfer goes to (null: manual)',
    example: 'acct_1Nv0FGQ9RKHgCVdK',
  })
  destination!: string | null;
  @ApiProperty({ description: 'The batch total paid out (decimal, 2 dp, > 0)', example: 461.1 })
  amount!: number;
  @ApiProperty({ description: 'ISO 4217 currency', example: 'USD' })
  currency!: string;
  @ApiProperty({
    enum: TRANSFER_STATES,
    description:
      'pending → sent → paid | failed; manual: pending → awaiting_reference → paid; paid → reversed. ' +
      'failed and reversed credit the amount back (an ADDITION adjustment)',
    example: 'paid',
  })
  state!: TransferState;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Stripe transfer id or PayPal payout_batch_id',
    example: 'tr_1Nv0FGQ9RKHgCVdK',
  })
  providerId!: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The provider’s last reported item status (PayPal)',
    example: null,
  })
  providerStatus!: string | null;
  @ApiProperty({ description: 'Rail calls made (outages included)', example: 1 })
  attempts!: number;
  @ApiProperty({ type: String, nullable: true, example: null })
  lastError!: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Bank or provider reference once paid',
    example: 'tr_1Nv0FGQ9RKHgCVdK',
  })
  reference!: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The ADDITION payout adjustment that credited a failed or reversed transfer back',
    example: null,
  })
  creditAdjustmentId!: string | null;
  @ApiProperty({
    type: [String],
    description:
      'Every credit-back of this transfer, oldest first: one for a failure, one per reversal that took ' +
      'more back (the first has the transfer’s own id). Each is a system ADDITION payout adjustment',
    example: [],
  })
  creditAdjustmentIds!: string[];
  @ApiProperty({
    type: Number,
    nullable: true,
    description:
      'What the provider took back in total (partial reversals add up; never more than amount); ' +
      'null when never reversed',
    example: null,
  })
  reversedAmount!: number | null;
  @ApiProperty({ type: String, format: 'date-time', example: '2026-12-01T08:00:01.500Z' })
  createdAt!: string;
  @ApiProperty({ ...DATE_TIME, example: '2026-12-01T08:00:02.000Z' })
  sentAt!: string | null;
  @ApiProperty({ ...DATE_TIME, example: '2026-12-01T08:00:02.000Z' })
  settledAt!: string | null;
  @ApiProperty({ ...DATE_TIME, example: null })
  failedAt!: string | null;
  @ApiProperty({ ...DATE_TIME, example: null })
  reversedAt!: string | null;
  @ApiProperty({ type: [TransferStateChangeDto], description: 'Every state change, oldest first' })
  history!: TransferStateChangeDto[];
}

export class TransferListDto {
  @ApiProperty({ example: 1 })
  total!: number;
  @ApiProperty({ type: Number, nullable: true, example: null })
  nextOffset!: number | null;
  @ApiProperty({ type: [TransferDto] })
  transfers!: TransferDto[];
}

/** A payout batch's transfer as the batch and its statement show it (read-only; the full one: GET /v1/payouts/transfers/{id}). */
export class BatchTransferDto {
  @ApiProperty({
    description: 'The transfer’s `_id` (its provider idempotency key)',
    example: '6745a1b2c3d4e5f6a7b8c9d0',
  })
  id!: string;
  @ApiProperty({ enum: PAYOUT_METHOD_TYPES, example: 'stripe_connect' })
  method!: PayoutMethodType;
  @ApiProperty({ enum: TRANSFER_STATES, example: 'paid' })
  state!: TransferState;
  @ApiProperty({ description: 'The amount sent (the batch total, decimal)', example: 461.1 })
  amount!: number;
  @ApiProperty({ description: 'ISO 4217 currency', example: 'USD' })
  currency!: string;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Stripe transfer id or PayPal payout_batch_id (null: manual, or not sent yet)',
    example: 'tr_1Nv0FGQ9RKHgCVdK',
  })
  providerId!: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Bank or provider reference once paid',
    example: 'tr_1Nv0FGQ9RKHgCVdK',
  })
  reference!: string | null;
}
