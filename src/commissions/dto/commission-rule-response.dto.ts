import { ApiProperty, OmitType } from '@nestjs/swagger';
import { OBJECT_ID_PATTERN } from '../../common/http/params';
import {
  RULE_COMMISSION_TYPES,
  RULE_LEVELS,
  type RuleCommissionType,
  type RuleLevel,
} from '../commission-rule.schema';
import { MAX_PRODUCT_TYPE_LENGTH } from '../commission-rule-checks';

/** A rule as the routes answer it (the other responses here: a page, a dry run, a deletion, a v1 409). */
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
