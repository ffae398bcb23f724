import { ApiProperty } from '@nestjs/swagger';
import { PageInfoDto } from '../../common/pagination';
import { PAYOUT_METHOD_TYPES, TRANSFER_STATES } from '../../transfers/transfer-states';
import type { PayoutMethodType, TransferState } from '../../transfers/transfer-states';

export class PreviousPayoutDto {
  @ApiProperty({ description: 'What the transfer paid (decimal, 2 dp)', example: 461.1 })
  amount!: number;
  @ApiProperty({
    type: String,
    format: 'date-time',
    description: 'When the transfer was paid',
    example: '2026-11-21T02:00:00.000Z',
  })
  date!: string;
  @ApiProperty({ description: 'The payout batch it paid', example: '6742c1d2e3f4a5b6c7d8e9f0' })
  batchId!: string;
}

export class NextPayoutDto {
  @ApiProperty({ type: String, format: 'date', example: '2026-12-01' })
  estimatedDate!: string;
  @ApiProperty({ example: 120.5 })
  estimatedAmount!: number;
}

/** GET /payouts/summary (DESIGN §12). */
export class PayoutSummaryDto {
  @ApiProperty({
    description:
      'What reached the vendor: Σ amount of its transfers in state `paid`, plus its `reversed` transfers less ' +
      'what the provider took back. Equals the same sum over GET /payouts/transactions, to the cent.',
    example: 1250.4,
  })
  totalReceived!: number;
  @ApiProperty({
    description:
      'Earned and not paid by a batch yet: `due + pending` of GET /v2/balance (due rows and UNPAID adjustments ' +
      'dated up to today, plus rows of orders whose money is not captured yet). Transfers of paid batches still ' +
      'on their way (pending, sent) are in neither total.',
    example: 310.25,
  })
  totalPending!: number;
  @ApiProperty({ description: 'ISO 4217: the shop’s transfer currency', example: 'USD' })
  currency!: string;
  @ApiProperty({
    type: PreviousPayoutDto,
    nullable: true,
    description: 'The newest paid transfer; null when none was paid yet',
  })
  previousPayout!: PreviousPayoutDto | null;
  @ApiProperty({
    type: NextPayoutDto,
    nullable: true,
    description: 'Null: payouts run when the shop triggers a batch (no payout schedule exists yet)',
  })
  nextPayout!: NextPayoutDto | null;
}

export class PayoutSummaryEnvelopeDto {
  @ApiProperty({ enum: [true], example: true })
  success!: true;
  @ApiProperty({ type: PayoutSummaryDto })
  data!: PayoutSummaryDto;
}

/** One transfer as the vendor sees it (no destination, provider ids or errors). */
export class PayoutTransactionDto {
  @ApiProperty({ example: '6745a1b2c3d4e5f6a7b8c9d0' })
  _id!: string;
  @ApiProperty({ example: '6742c1d2e3f4a5b6c7d8e9f0' })
  batchId!: string;
  @ApiProperty({ description: 'Decimal, 2 dp, > 0', example: 461.1 })
  amount!: number;
  @ApiProperty({ example: 'USD' })
  currency!: string;
  @ApiProperty({ enum: PAYOUT_METHOD_TYPES, example: 'stripe_connect' })
  method!: PayoutMethodType;
  @ApiProperty({ enum: TRANSFER_STATES, example: 'paid' })
  state!: TransferState;
  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-21T01:59:00.000Z' })
  createdAt!: string;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When it was paid (also kept once reversed); null before',
    example: '2026-11-21T02:00:00.000Z',
  })
  paidAt!: string | null;
}

export class PayoutTransactionsPageDto {
  @ApiProperty({ type: [PayoutTransactionDto] })
  items!: PayoutTransactionDto[];
  @ApiProperty({ type: PageInfoDto })
  pageInfo!: PageInfoDto;
  @ApiProperty({ example: 3 })
  totalCount!: number;
}

export class PayoutTransactionsPageEnvelopeDto {
  @ApiProperty({ enum: [true], example: true })
  success!: true;
  @ApiProperty({ type: PayoutTransactionsPageDto })
  data!: PayoutTransactionsPageDto;
}
