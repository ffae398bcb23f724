import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';
import { LegalAddressResponseDto } from '../../common/legal/legal-address.dto';
import { QUARTERS, type Quarter } from '../seller-tax-figures';

export const REPORT_YEAR_MIN = 1970;
export const REPORT_YEAR_MAX = 9999;

export class SellerTaxReportQueryDto {
  @ApiProperty({
    type: 'integer',
    format: 'int32',
    minimum: REPORT_YEAR_MIN,
    maximum: REPORT_YEAR_MAX,
    description: 'The calendar year reported (UTC), four digits',
    example: 2026,
  })
  @Type(() => Number)
  @IsInt({ message: 'year must be a calendar year such as 2026' })
  @Min(REPORT_YEAR_MIN)
  @Max(REPORT_YEAR_MAX)
  year!: number;
}

/**
 * The seller's identity from its tax profile (DAC7 Annex V III B): every field in clear, the tax id
 * and date of birth opened from their seals — the report is their purpose.
 */
export class SellerIdentityDto {
  @ApiProperty({ type: String, nullable: true, maxLength: 200, example: 'Acme Apparel GmbH' })
  legalName!: string | null;
  @ApiProperty({ enum: ['individual', 'business'], nullable: true, example: 'business' })
  entityType!: 'individual' | 'business' | null;
  @ApiProperty({
    type: LegalAddressResponseDto,
    nullable: true,
    description: 'The address of the tax profile (the primary address DAC7 asks for)',
  })
  address!: LegalAddressResponseDto | null;
  @ApiProperty({ type: String, nullable: true, maxLength: 64, example: 'DE123456789' })
  vatId!: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    maxLength: 64,
    description:
      'The tax identification number (TIN) in full, as the vendor or shop entered it. Sealed at rest; ' +
      'this report is the one answer that carries it in clear.',
    example: '12/345/67890',
  })
  taxId!: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    maxLength: 2,
    description: 'Country that issued the tax id (ISO 3166-1 alpha-2)',
    example: 'DE',
  })
  taxIdCountry!: string | null;
  @ApiProperty({
    type: String,
    format: 'date',
    nullable: true,
    maxLength: 10,
    description:
      'Date of birth (YYYY-MM-DD) of an individual seller; null for a business or when not on file. ' +
      'Sealed at rest; shown in clear only here.',
    example: null,
  })
  dateOfBirth!: string | null;
  @ApiProperty({ type: String, nullable: true, maxLength: 64, example: 'HRB 123456' })
  businessRegistrationNumber!: string | null;
}

/** One period's figures, summed in integer cents from the rows (docs: "The seller tax report"). */
export class SellerTaxFiguresDto {
  @ApiProperty({
    description:
      'Consideration: `sales` + `refunds` (Σ salesAfterDiscount of the payable sale rows dated in the ' +
      'period, less the refunds dated in it). Payout adjustments are not consideration.',
    example: 1180.5,
  })
  consideration!: number;
  @ApiProperty({
    type: 'integer',
    format: 'int32',
    minimum: 0,
    maximum: 2147483647,
    description: 'Distinct orders with a payable sale row of the vendor dated in the period',
    example: 23,
  })
  numberOfOrders!: number;
  @ApiProperty({
    description: 'Σ salesAfterDiscount of payable sale rows (orders paid, partially refunded or refunded)',
    example: 1250,
  })
  sales!: number;
  @ApiProperty({
    description: 'Σ salesAfterDiscount of refund rows, dated at the refund (≤ 0)',
    example: -69.5,
  })
  refunds!: number;
  @ApiProperty({
    description: 'Commissions withheld: Σ commission + taxOnCommissions of sale and refund rows',
    example: 141.66,
  })
  commissions!: number;
  @ApiProperty({
    description: 'Fees withheld: Σ totalGlobalDeductions + deduction of sale and refund rows',
    example: 23.61,
  })
  fees!: number;
  @ApiProperty({ description: 'Taxes withheld: Σ tcs of sale and refund rows', example: 11.81 })
  taxes!: number;
  @ApiProperty({
    description:
      '`consideration` − `commissions` − `fees` − `taxes`: DAC7’s consideration "net of any fees, ' +
      'commissions or taxes withheld or charged"',
    example: 1003.42,
  })
  netConsideration!: number;
}

export class SellerTaxQuarterDto extends SellerTaxFiguresDto {
  @ApiProperty({
    enum: QUARTERS,
    description: 'Calendar quarter (UTC): 1 = Jan–Mar, 2 = Apr–Jun, 3 = Jul–Sep, 4 = Oct–Dec',
    example: 1,
  })
  quarter!: Quarter;
}

export class SellerTaxVendorDto {
  @ApiProperty({ example: '6740c1a2e4b0f15b3c9d0a21' })
  vendorId!: string;
  @ApiProperty({ maxLength: 255, example: 'acme apparel' })
  vendorName!: string;
  @ApiProperty({ type: SellerIdentityDto })
  identity!: SellerIdentityDto;
  @ApiProperty({ description: 'Whether the tax profile holds everything the report needs', example: false })
  complete!: boolean;
  @ApiProperty({
    type: [String],
    description: 'The tax profile fields still needed (empty when complete)',
    example: ['taxId', 'taxIdCountry'],
  })
  missing!: string[];
  @ApiProperty({ type: [SellerTaxQuarterDto], description: 'Quarters 1 to 4, in order, always four' })
  quarters!: SellerTaxQuarterDto[];
  @ApiProperty({ type: SellerTaxFiguresDto, description: 'The year: each figure the sum of the quarters' })
  totals!: SellerTaxFiguresDto;
}

export class SellerTaxReportDto {
  @ApiProperty({ type: 'integer', format: 'int32', minimum: REPORT_YEAR_MIN, maximum: 9999, example: 2026 })
  year!: number;
  @ApiProperty({
    type: [SellerTaxVendorDto],
    description: 'Every vendor with a payable row dated in the year, by vendor name',
  })
  vendors!: SellerTaxVendorDto[];
}
