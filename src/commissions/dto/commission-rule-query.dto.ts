import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsMongoId, IsOptional, IsString, MaxLength } from 'class-validator';
import { IsDateTime } from '../../common/dates/date-time';
import { OffsetPageQueryDto } from '../../common/pagination';
import { RULE_LEVELS, type RuleLevel } from '../commission-rule.schema';
import { MAX_PRODUCT_TYPE_LENGTH } from '../commission-rule-checks';
import { DATE_TIME_MAX } from './commission-rule-body.dto';

/** `?dryRun=` of a create or replace (the list's filters are below). */
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
