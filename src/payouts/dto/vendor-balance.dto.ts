import { ApiProperty } from '@nestjs/swagger';
import { BATCH_STATUSES } from '../payout-batch.schema';

export class LastBatchDto {
  @ApiProperty({ example: '6742c1d2e3f4a5b6c7d8e9f0' })
  batchId!: string;
  @ApiProperty({ enum: ['completed', 'carried_forward', 'below_minimum'], example: 'carried_forward' })
  status!: (typeof BATCH_STATUSES)[number];
  @ApiProperty({ description: 'The `until` day the batch settled up to', example: '2026-11-20' })
  periodEnd!: string;
  @ApiProperty({ description: 'What the batch paid (0 when it carried forward)', example: 0 })
  total!: number;
  @ApiProperty({ description: 'The net of every row and adjustment it took', example: -27 })
  net!: number;
  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-21T02:00:00.000Z' })
  settledAt!: string;
}

/** GET /v1/vendors/{id}/balance (DESIGN §8). */
export class VendorBalanceDto {
  @ApiProperty({ example: '6740b9f1c2a4e15b3c9d0a21' })
  vendorId!: string;
  @ApiProperty({
    description:
      'What the next batch would net now: Σ due sale and refund rows and UNPAID adjustments dated up to ' +
      'today (may be negative: a refund after a payout is owed back and carried forward)',
    example: -27,
  })
  due!: number;
  @ApiProperty({ description: 'Earned on orders whose money is not captured yet (not payable)', example: 20 })
  pending!: number;
  @ApiProperty({ description: 'Σ of what the vendor’s paid batches paid', example: 90 })
  paidToDate!: number;
  @ApiProperty({
    description:
      'The amount the last batch carried forward (≤ 0; 0 when it paid): the next batch’s opening balance',
    example: -27,
  })
  carriedForward!: number;
  @ApiProperty({ type: LastBatchDto, nullable: true })
  lastBatch!: LastBatchDto | null;
}
