import { ApiProperty, ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { IsIn, IsMongoId, IsNumber, IsOptional, IsString, MaxLength } from 'class-validator';
import { IsDateTime } from '../../common/dates/date-time';
import { OBJECT_ID_PATTERN } from '../../common/http/params';
import { MAX_MONEY } from '../../common/http/validators';
import { OffsetPageQueryDto } from '../../common/pagination';
import {
  RULE_COMMISSION_TYPES,
  RULE_LEVELS,
  type RuleCommissionType,
  type RuleLevel,
} from '../commission-rule.schema';
import { MAX_PRODUCT_TYPE_LENGTH } from '../commission-rule-checks';

/** Room for any ISO 8601 date-time a person writes. */
const DATE_TIME_MAX = 64;
const NUMBER = { allowNaN: false, allowInfinity: false } as const;

/**
 * The body of POST (create) and PUT (full replace): every field; an omitted optional one is null
 * on the stored rule. Cross-field rules (commission-rule-checks.ts) answer 422 by field.
 */
export class CommissionRuleBodyDto {
  @ApiProperty({
    enum: RULE_LEVELS,
    description:
      '`product`: the rule targets one product (`productId`); `productType`: every product of a type',
    example: 'product',
  })
  @IsIn(RULE_LEVELS)
  level!: RuleLevel;

  @ApiPropertyOptional({
    type: String,
    maxLength: 20,
    pattern: '^[1-9][0-9]{0,19}$',
    description: 'Level `product` only (required there): the platform product id, as a decimal string',
    example: '7513594937496',
  })
  @IsOptional()
  @IsString()
  @MaxLength(20)
  productId?: string | null;

  @ApiPropertyOptional({
    type: String,
    maxLength: MAX_PRODUCT_TYPE_LENGTH,
    pattern: '\\S',
    description:
      'Level `productType` only (required there): the product type, trimmed; matched in any letter case',
    example: 'Outerwear',
  })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_PRODUCT_TYPE_LENGTH)
  productType?: string | null;

  @ApiPropertyOptional({
    type: String,
    pattern: '^[0-9a-fA-F]{24}$',
    minLength: 24,
    maxLength: 24,
    description:
      "A vendor of this shop: the rule applies to that vendor's lines only, and beats the shop-wide rule of " +
      'the same target. Omitted or null: every vendor of the shop',
    example: '6740b9f1c2a4e15b3c9d0a21',
  })
  @IsOptional()
  @IsMongoId()
  vendorId?: string | null;

  @ApiProperty({
    enum: RULE_COMMISSION_TYPES,
    description:
      '`percentage`: salesAfterDiscount × commissionAmount / 100; `flat`: commissionAmount per item; ' +
      '`percentage_plus_flat`: the percentage plus flatAmount per item',
    example: 'percentage',
  })
  @IsIn(RULE_COMMISSION_TYPES)
  commissionType!: RuleCommissionType;

  @ApiProperty({
    description:
      'A percent (12 = 12 %, 0–100) for `percentage` and `percentage_plus_flat`; an amount per item ' +
      `(0–${MAX_MONEY}) for \`flat\`; at most 2 decimal places`,
    minimum: 0,
    maximum: MAX_MONEY,
    example: 12,
  })
  @IsNumber(NUMBER)
  commissionAmount!: number;

  @ApiPropertyOptional({
    type: Number,
    description: 'Required for `percentage_plus_flat` (refused otherwise): an amount per item, 2 dp at most',
    minimum: 0,
    maximum: MAX_MONEY,
    example: 0.5,
  })
  @IsOptional()
  @IsNumber(NUMBER)
  flatAmount?: number | null;

  @ApiPropertyOptional({
    type: Number,
    description: "The line's commission is at least this (an amount, 2 dp at most; ≤ maximum)",
    minimum: 0,
    maximum: MAX_MONEY,
    example: 1,
  })
  @IsOptional()
  @IsNumber(NUMBER)
  minimum?: number | null;

  @ApiPropertyOptional({
    type: Number,
    description: "The line's commission is at most this (an amount, 2 dp at most)",
    minimum: 0,
    maximum: MAX_MONEY,
    example: 40,
  })
  @IsOptional()
  @IsNumber(NUMBER)
  maximum?: number | null;

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    maxLength: DATE_TIME_MAX,
    description: "Inclusive start, compared with the order's created_at. Omitted: since always",
    example: '2026-12-01T00:00:00Z',
  })
  @IsOptional()
  @IsDateTime()
  @MaxLength(DATE_TIME_MAX)
  validFrom?: string | null;

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    maxLength: DATE_TIME_MAX,
    description: 'Exclusive end (later than validFrom). Omitted: open-ended',
    example: '2027-01-01T00:00:00Z',
  })
  @IsOptional()
  @IsDateTime()
  @MaxLength(DATE_TIME_MAX)
  validTo?: string | null;
}

export class DryRunQueryDto {
  @ApiPropertyOptional({
    enum: ['true', 'false'],
    description:
      '`true`: validate fully (overlap included), write nothing, and answer 200 with the rule as it would be ' +
      'and its effect on the unpaid, unfrozen lines',
  })
  @IsOptional()
  @IsIn(['true', 'false'])
  dryRun?: 'true' | 'false';
}

export class CommissionRuleListQueryDto extends OffsetPageQueryDto {
  @ApiPropertyOptional({ enum: RULE_LEVELS, description: 'Only rules of this level' })
  @IsOptional()
  @IsIn(RULE_LEVELS)
  level?: RuleLevel;

  @ApiPropertyOptional({
    type: String,
    pattern: '^[0-9a-fA-F]{24}$',
    minLength: 24,
    maxLength: 24,
    description: "Only rules limited to this vendor (shop-wide rules are not this vendor's)",
  })
  @IsOptional()
  @IsMongoId()
  vendorId?: string;

  @ApiPropertyOptional({
    type: String,
    maxLength: 20,
    pattern: '^[1-9][0-9]{0,19}$',
    description: 'Only product rules of this platform product id',
  })
  @IsOptional()
  @IsString()
  @MaxLength(20)
  productId?: string;

  @ApiPropertyOptional({
    type: String,
    maxLength: MAX_PRODUCT_TYPE_LENGTH,
    description: 'Only productType rules of this type (trimmed, any letter case)',
  })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_PRODUCT_TYPE_LENGTH)
  productType?: string;

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    maxLength: DATE_TIME_MAX,
    description: 'Only rules in force at this instant: validFrom ≤ activeAt < validTo (null ends unbounded)',
  })
  @IsOptional()
  @IsDateTime()
  @MaxLength(DATE_TIME_MAX)
  activeAt?: string;
}

export class CommissionRuleDto {
  @ApiProperty({ pattern: OBJECT_ID_PATTERN, maxLength: 24, example: '6750c3d4e5f6a7b8c9d0e1f2' })
  _id!: string;
  @ApiProperty({ enum: RULE_LEVELS, example: 'product' }) level!: RuleLevel;
  @ApiProperty({
    type: String,
    nullable: true,
    pattern: '^[1-9][0-9]{0,19}$',
    maxLength: 20,
    example: '7513594937496',
  })
  productId!: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    maxLength: MAX_PRODUCT_TYPE_LENGTH,
    pattern: '\\S',
    example: null,
  })
  productType!: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    pattern: OBJECT_ID_PATTERN,
    maxLength: 24,
    example: '6740b9f1c2a4e15b3c9d0a21',
  })
  vendorId!: string | null;
  @ApiProperty({ enum: RULE_COMMISSION_TYPES, example: 'percentage_plus_flat' })
  commissionType!: RuleCommissionType;
  @ApiProperty({ example: 12 }) commissionAmount!: number;
  @ApiProperty({ type: Number, nullable: true, example: 0.5 }) flatAmount!: number | null;
  @ApiProperty({ type: Number, nullable: true, example: 1 }) minimum!: number | null;
  @ApiProperty({ type: Number, nullable: true, example: 40 }) maximum!: number | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: '2026-12-01T00:00:00.000Z' })
  validFrom!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: null })
  validTo!: string | null;
  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-27T10:00:00.000Z' }) createdAt!: string;
  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-27T10:00:00.000Z' }) updatedAt!: string;
}

export class CommissionRuleListDto {
  @ApiProperty({ example: 1 }) total!: number;
  @ApiProperty({ type: Number, nullable: true, example: null }) nextOffset!: number | null;
  @ApiProperty({ type: [CommissionRuleDto] }) rules!: CommissionRuleDto[];
}

/** The rule a dry run would write: `_id` null for a create (no id is taken), the rule's for a replace. */
export class CommissionRulePreviewDto extends OmitType(CommissionRuleDto, ['_id'] as const) {
  @ApiProperty({ type: String, nullable: true, pattern: OBJECT_ID_PATTERN, maxLength: 24, example: null })
  _id!: string | null;
}

export class AffectedLineDto {
  @ApiProperty({ description: 'The platform order id', example: 5012345678901 }) orderId!: number;
  @ApiProperty({ description: 'The platform line item id', example: 13012345678901 }) lineItemId!: number;
  @ApiProperty({ example: 88 }) payoutBefore!: number;
  @ApiProperty({ example: 85.5 }) payoutAfter!: number;
}

export class CommissionRuleDryRunDto {
  @ApiProperty({ type: CommissionRulePreviewDto }) rule!: CommissionRulePreviewDto;
  @ApiProperty({
    description: 'Unpaid, unfrozen lines whose commission the rule would change',
    example: 14,
  })
  affectedLines!: number;
  @ApiProperty({
    type: [AffectedLineDto],
    description: 'The first affected lines (at most 100), with their payout now and with the rule',
  })
  affectedLineSample!: AffectedLineDto[];
  @ApiProperty({
    description: 'Σ (payout with the rule − payout now) over those lines: negative when vendors get less',
    example: -37.5,
  })
  payoutDelta!: number;
}

export class DeletedCommissionRuleDto {
  @ApiProperty({ pattern: OBJECT_ID_PATTERN, maxLength: 24, example: '6750c3d4e5f6a7b8c9d0e1f2' })
  _id!: string;
  @ApiProperty({ example: true }) deleted!: true;
}

/** 409 of an overlapping rule: v1 adds `conflictingRuleId`, V2 has it in `details`. */
export class V1RuleConflictDto {
  @ApiProperty({ maxLength: 500, example: 'Overlaps commission rule 6750c3d4e5f6a7b8c9d0e1f2' })
  error!: string;
  @ApiProperty({ pattern: OBJECT_ID_PATTERN, maxLength: 24, example: '6750c3d4e5f6a7b8c9d0e1f2' })
  conflictingRuleId!: string;
}
