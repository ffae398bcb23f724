import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { DASHBOARD_RANGES, type DashboardRange } from '../dashboard-period';

/** `range`, or `dateStart` + `dateEnd`; neither = the last 30 days. The dates are checked by the service. */
export class DashboardQueryDto {
  @ApiPropertyOptional({
    enum: DASHBOARD_RANGES,
    description:
      'The last 7 or 30 days, 3 months (90 days), 6 months (180 days) or a year (365 days), today (UTC) included. ' +
      'Not with dateStart/dateEnd. Neither: 30d.',
  })
  @IsOptional()
  @IsIn(DASHBOARD_RANGES)
  range?: DashboardRange;

  @ApiPropertyOptional({
    description: 'First day (YYYY-MM-DD, UTC, inclusive) of a custom period; with dateEnd; at most 731 days',
    format: 'date',
    maxLength: 10,
  })
  @IsOptional()
  @IsString()
  @MaxLength(10)
  dateStart?: string;

  @ApiPropertyOptional({
    description: 'Last day (YYYY-MM-DD, UTC, inclusive) of a custom period; with dateStart',
    format: 'date',
    maxLength: 10,
  })
  @IsOptional()
  @IsString()
  @MaxLength(10)
  dateEnd?: string;
}

export class DashboardPeriodDto {
  @ApiProperty({
    type: String,
    format: 'date',
    description: 'First day (UTC, inclusive)',
    example: '2026-10-30',
  })
  start!: string;
  @ApiProperty({
    type: String,
    format: 'date',
    description: 'Last day (UTC, inclusive)',
    example: '2026-11-28',
  })
  end!: string;
  @ApiProperty({
    enum: DASHBOARD_RANGES,
    nullable: true,
    description: 'Null for custom dates',
    example: '30d',
  })
  range!: DashboardRange | null;
}

export class ComparisonDto {
  @ApiProperty({ example: 1520.4 })
  current!: number;
  @ApiProperty({ description: 'The period of equal length just before', example: 1210 })
  previous!: number;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: '(current − previous) ÷ |previous| × 100, half-up to 2 dp; null when previous is 0',
    example: 25.65,
  })
  changePercent!: number | null;
}

export class VendorDashboardComparisonDto {
  @ApiProperty({ type: ComparisonDto })
  netSales!: ComparisonDto;
  @ApiProperty({ type: ComparisonDto })
  totalOrders!: ComparisonDto;
  @ApiProperty({ type: ComparisonDto })
  refunds!: ComparisonDto;
  @ApiProperty({ type: ComparisonDto })
  earnings!: ComparisonDto;
}

const CANCELLED =
  ' A cancelled order counts in none of the figures but cancelledSales (neither its sale rows nor its refund rows).';

/** GET /dashboard (the vendor's own figures). */
export class VendorDashboardDto {
  @ApiProperty({ type: DashboardPeriodDto })
  period!: DashboardPeriodDto;
  @ApiProperty({
    description:
      'Σ salesAfterDiscount of the sale rows of orders created in the period − refunds.' + CANCELLED,
    example: 1520.4,
  })
  netSales!: number;
  @ApiProperty({ description: 'Orders created in the period with a line of the vendor', example: 42 })
  totalOrders!: number;
  @ApiProperty({
    description: '−Σ salesAfterDiscount of refund rows dated (refund date) in the period, reported positive',
    example: 80,
  })
  refunds!: number;
  @ApiProperty({ description: 'Σ payout of those sale and refund rows', example: 1290.1 })
  earnings!: number;
  @ApiProperty({
    description: 'Σ salesAfterDiscount of cancelled orders’ sale rows in the period',
    example: 35,
  })
  cancelledSales!: number;
  @ApiProperty({
    description: 'Fulfilled sale rows ÷ sale rows (0–1, 4 dp; 0 without rows)',
    example: 0.8571,
  })
  fulfillmentRate!: number;
  @ApiProperty({
    description: 'Σ salesAfterDiscount of the sale rows ÷ totalOrders (0 without orders)',
    example: 38.1,
  })
  avgOrderValue!: number;
  @ApiProperty({
    type: VendorDashboardComparisonDto,
    nullable: true,
    description:
      'With a range (or neither form): each figure against the period of equal length before; null for custom dates',
  })
  comparison!: VendorDashboardComparisonDto | null;
}

export class VendorDashboardEnvelopeDto {
  @ApiProperty({ enum: [true], example: true })
  success!: true;
  @ApiProperty({ type: VendorDashboardDto })
  data!: VendorDashboardDto;
}

export class TopVendorDto {
  @ApiProperty({ example: '6740b9f1c2a4e15b3c9d0a21' })
  vendorId!: string;
  @ApiProperty({ example: 'acme supplies' })
  vendorName!: string;
  @ApiProperty({ example: 980.5 })
  netSales!: number;
  @ApiProperty({ example: 21 })
  orders!: number;
}

/** GET /v2/dashboard (the shop's figures). */
export class ShopDashboardDto {
  @ApiProperty({ type: DashboardPeriodDto })
  period!: DashboardPeriodDto;
  @ApiProperty({
    description: 'Orders created in the period (each once, whatever its vendors)',
    example: 120,
  })
  totalOrders!: number;
  @ApiProperty({
    description: 'The shop’s netSales over every line (as the vendor dashboard).' + CANCELLED,
    example: 8450.2,
  })
  totalRevenue!: number;
  @ApiProperty({ description: 'Σ commission of the same sale and refund rows', example: 845.02 })
  commissionRevenue!: number;
  @ApiProperty({
    description: 'Σ of transfers created in the period that reached the vendors (paid; reversed ones net)',
    example: 5200,
  })
  totalPayouts!: number;
  @ApiProperty({
    description:
      'Now (not the period): Σ over vendors of due + pending, as GET /payouts/summary’s totalPending',
    example: 1830.75,
  })
  pendingPayouts!: number;
  @ApiProperty({ description: 'Live products now', example: 310 })
  productsCount!: number;
  @ApiProperty({ description: 'Vendors active now', example: 12 })
  activeVendors!: number;
  @ApiProperty({ description: 'Fulfilled sale rows ÷ sale rows (0–1, 4 dp)', example: 0.91 })
  fulfillmentRate!: number;
  @ApiProperty({ description: 'Σ salesAfterDiscount of the sale rows ÷ totalOrders', example: 70.42 })
  avgOrderValue!: number;
  @ApiProperty({
    type: [TopVendorDto],
    description: 'At most 5, by netSales, highest first (ties by vendorId)',
  })
  topVendors!: TopVendorDto[];
}

export class ShopDashboardEnvelopeDto {
  @ApiProperty({ enum: [true], example: true })
  success!: true;
  @ApiProperty({ type: ShopDashboardDto })
  data!: ShopDashboardDto;
}
