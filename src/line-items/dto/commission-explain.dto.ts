import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsMongoId, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { IsDateTime } from '../../common/dates/date-time';
import { IsMoney, MAX_MONEY } from '../../common/http/validators';
import { CommissionRuleRefDto } from './commission-rule-ref.dto';

const ISO_DATE_TIME_MAX = 64;
const LEVELS = ['sku', 'product', 'productType', 'vendor'];
const TYPES = ['percentage', 'flat', 'percentage_plus_flat'];
const REASONS = [
  'matched',
  'no_vendor',
  'no_record',
  'cost_of_goods_only',
  'no_product',
  'no_rule',
  'not_in_force',
  'beaten_by_vendor_rule',
  'more_specific_applied',
  'no_rate',
];

/** A commission source's terms (the SKU record's, a rule's or the vendor's). */
export class CommissionTermsDto {
  @ApiProperty({ enum: LEVELS, example: 'product' })
  level!: string;
  @ApiProperty({ enum: TYPES, example: 'percentage' })
  type!: string;
  @ApiProperty({ description: 'Percent (12 = 12 %), or an amount per item for `flat`', example: 12 })
  amount!: number;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: '`percentage_plus_flat`: per item',
    example: null,
  })
  flatAmount!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'Clamp: the least commission', example: null })
  minimum!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'Clamp: the most commission', example: null })
  maximum!: number | null;
  @ApiProperty({ type: String, nullable: true, maxLength: 24, example: '6740f1a2b3c4d5e6f7a8b9c0' })
  ruleId!: string | null;
}

/** One candidate of the ladder and whether it applied, or why not. */
export class CommissionCandidateDto {
  @ApiProperty({ enum: LEVELS, example: 'productType' })
  level!: string;
  @ApiProperty({ example: false })
  matched!: boolean;
  @ApiProperty({ enum: REASONS, example: 'more_specific_applied' })
  reason!: string;
  @ApiProperty({ maxLength: 200, example: 'a more specific level applied (product)' })
  detail!: string;
  @ApiProperty({ type: String, nullable: true, maxLength: 24, example: '6740f1a2b3c4d5e6f7a8b9c1' })
  ruleId!: string | null;
  @ApiProperty({ type: String, enum: ['vendor', 'shop'], nullable: true, example: 'shop' })
  ruleScope!: 'vendor' | 'shop' | null;
  @ApiProperty({ type: CommissionTermsDto, nullable: true })
  terms!: CommissionTermsDto | null;
}

/** What the line (or the hypothetical line) is priced from. */
export class CommissionInputsDto {
  @ApiProperty({ type: String, nullable: true, maxLength: 24, example: '6740b9f1c2a4e15b3c9d0a21' })
  vendorId!: string | null;
  @ApiProperty({ type: String, nullable: true, maxLength: 255, example: 'TSHIRT-RED-M' })
  sku!: string | null;
  @ApiProperty({ type: String, nullable: true, maxLength: 20, example: '7513594577066' })
  productId!: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    maxLength: 255,
    description: 'The stored product’s type (or the one given to a preview); null: unknown',
    example: 'Shirts',
  })
  productType!: string | null;
  @ApiProperty({ format: 'date-time', maxLength: ISO_DATE_TIME_MAX, example: '2026-11-20T10:00:00.000Z' })
  orderCreatedAt!: string;
  @ApiProperty({ example: 2 })
  quantity!: number;
  @ApiProperty({ example: 40 })
  sales!: number;
  @ApiProperty({ example: 5 })
  discount!: number;
  @ApiProperty({ example: 35 })
  salesAfterDiscount!: number;
}

/** The figures the one money function computes with the applied source. */
export class CommissionFiguresDto {
  @ApiProperty({ example: 4.2 })
  commission!: number;
  @ApiProperty({ type: String, nullable: true, maxLength: 200, example: 'product:percentage:12' })
  commissionPlan!: string | null;
  @ApiProperty({ type: CommissionRuleRefDto, nullable: true })
  commissionRule!: CommissionRuleRefDto | null;
  @ApiProperty({ example: 0 })
  taxOnCommissions!: number;
  @ApiProperty({ example: 0 })
  tcs!: number;
  @ApiProperty({ example: 0 })
  totalGlobalDeductions!: number;
  @ApiProperty({ example: 30.8 })
  payout!: number;
}

export class CommissionExplanationDto {
  @ApiProperty({ type: CommissionInputsDto })
  inputs!: CommissionInputsDto;
  @ApiProperty({ type: [CommissionCandidateDto], description: 'Every level, most specific first' })
  candidates!: CommissionCandidateDto[];
  @ApiProperty({ type: CommissionTermsDto, nullable: true, description: 'Null: no vendor, or no rate' })
  applied!: CommissionTermsDto | null;
  @ApiProperty({ type: CommissionFiguresDto, description: 'As the ladder computes them now' })
  figures!: CommissionFiguresDto;
}

/** GET …/commission: the explanation, and the figures the line holds now. */
export class LineCommissionExplanationDto extends CommissionExplanationDto {
  @ApiProperty({ example: 5549201834154 })
  orderId!: number;
  @ApiProperty({ example: 13601741586602 })
  lineItemId!: number;
  @ApiProperty({
    type: CommissionFiguresDto,
    description: 'What the line stores; differs from `figures` until a recalculation (or never: frozen)',
  })
  stored!: CommissionFiguresDto;
  @ApiProperty({ description: 'Paid out: recalculation never rewrites it', example: false })
  frozen!: boolean;
}

export class CommissionPreviewDto {
  @ApiProperty({
    pattern: '^[0-9a-fA-F]{24}$',
    minLength: 24,
    maxLength: 24,
    description: 'A vendor of this shop (unknown: 422)',
    example: '6740b9f1c2a4e15b3c9d0a21',
  })
  @IsMongoId()
  vendorId!: string;

  @ApiPropertyOptional({ maxLength: 255, description: 'Its SKU record is the ladder’s first level' })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  sku?: string;

  @ApiPropertyOptional({
    pattern: '^[0-9]{1,20}$',
    maxLength: 20,
    description: 'Platform product id (decimal string); its stored type is used unless productType is given',
  })
  @IsOptional()
  @IsString()
  @Matches(/^[0-9]{1,20}$/)
  productId?: string;

  @ApiPropertyOptional({ maxLength: 255, description: 'Product type (matched trimmed and lowercased)' })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  productType?: string;

  @ApiProperty({
    description: 'Unit price; at most 2 decimal places',
    minimum: 0,
    maximum: MAX_MONEY,
    example: 20,
  })
  @IsMoney({ min: 0 })
  price!: number;

  @ApiProperty({ minimum: 1, maximum: 1000000, example: 2 })
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1000000)
  quantity!: number;

  @ApiPropertyOptional({
    description: 'The line’s total discount; at most 2 decimal places, at most price × quantity',
    minimum: 0,
    maximum: MAX_MONEY,
  })
  @IsOptional()
  @IsMoney({ min: 0 })
  discount?: number;

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    maxLength: ISO_DATE_TIME_MAX,
    description: 'The order date the rules must be in force at; omitted: now',
  })
  @IsOptional()
  @IsDateTime()
  @MaxLength(ISO_DATE_TIME_MAX)
  orderDate?: string;
}
