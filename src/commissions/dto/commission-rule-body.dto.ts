import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsMongoId, IsNumber, IsOptional, IsString, MaxLength } from 'class-validator';
import { IsDateTime } from '../../common/dates/date-time';
import { MAX_MONEY } from '../../common/http/validators';
import {
  RULE_COMMISSION_TYPES,
  RULE_LEVELS,
  type RuleCommissionType,
  type RuleLevel,
} from '../commission-rule.schema';
import { MAX_PRODUCT_TYPE_LENGTH } from '../commission-rule-checks';

/** Room for any ISO 8601 date-time a person writes. */
export const DATE_TIME_MAX = 64;
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
