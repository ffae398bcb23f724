import { ApiProperty } from '@nestjs/swagger';

export const ELIGIBILITY_REASONS = [
  'paused',
  'below_minimum',
  'negative_balance',
  'no_payout_method',
  'tax_profile_incomplete',
] as const;
export type EligibilityReason = (typeof ELIGIBILITY_REASONS)[number];

export class EligibilityNextPayoutDto {
  @ApiProperty({
    type: String,
    format: 'date',
    description: 'The next due date of the schedule',
    example: '2026-12-04',
  })
  date!: string;
  @ApiProperty({
    description:
      'What that run would pay the vendor for the rows and adjustments known now (0 when it would pay nothing: ' +
      'a reason applies, or the net is zero or below)',
    example: 486.1,
  })
  estimatedAmount!: number;
  @ApiProperty({
    description: 'The net a batch of that run would take now (the engine’s netting, before the minimum)',
    example: 486.1,
  })
  net!: number;
  @ApiProperty({
    type: String,
    format: 'date',
    description: "The run's cut-off for the vendor: rows dated up to this day (the due date less its hold)",
    example: '2026-11-27',
  })
  periodEnd!: string;
}

/** GET /v1/vendors/{id}/payout-eligibility (DESIGN §15). */
export class PayoutEligibilityDto {
  @ApiProperty({ example: '6740b9f1c2a4e15b3c9d0a21' })
  vendorId!: string;
  @ApiProperty({ description: 'true when no reason applies: the next run pays the vendor', example: false })
  eligible!: boolean;
  @ApiProperty({
    enum: ELIGIBILITY_REASONS,
    isArray: true,
    description:
      'Why the next run would not pay: `paused` (the vendor’s payout settings), `below_minimum` (a positive net ' +
      'below its minimum: rolls over), `negative_balance` (the net is below zero: carried forward), ' +
      '`no_payout_method` (none set), `tax_profile_incomplete` (only where the shop requires a complete profile)',
    example: ['below_minimum'],
  })
  reasons!: EligibilityReason[];
  @ApiProperty({
    type: EligibilityNextPayoutDto,
    nullable: true,
    description: 'null: the shop pays by hand (schedule `manual`)',
  })
  nextPayout!: EligibilityNextPayoutDto | null;
}
