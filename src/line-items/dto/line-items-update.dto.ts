import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { IsMoney, MAX_MONEY } from '../../common/http/validators';

export const MAX_UPDATE_ITEMS = 100;

const money = (description: string, example: number) =>
  ApiPropertyOptional({
    type: Number,
    description: `${description}; at most 2 decimal places`,
    minimum: -MAX_MONEY,
    maximum: MAX_MONEY,
    example,
  });

/** The updatable figures of spec §2.4; any other key is refused with 422. */
export class LineItemFieldsDto {
  @money('Cost of goods of the line; also sets the SKU record’s per-unit cost of goods', 12.5)
  @IsOptional()
  @IsMoney()
  costOfItem?: number;

  @money('Commission amount', 4.2)
  @IsOptional()
  @IsMoney()
  commission?: number;

  @ApiPropertyOptional({ description: 'Commission plan label', maxLength: 200, example: 'manual:flat:4.2' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  commissionPlan?: string;

  @money('Vendor deduction', 1.5)
  @IsOptional()
  @IsMoney()
  deduction?: number;

  @money('Vendor payout; balance and payoutStatus follow it', 30)
  @IsOptional()
  @IsMoney()
  payout?: number;

  @money('Shipping amount', 4.99)
  @IsOptional()
  @IsMoney()
  shipping?: number;

  @money('Sales amount', 40)
  @IsOptional()
  @IsMoney()
  sales?: number;

  @money('Sales after discount', 36)
  @IsOptional()
  @IsMoney()
  salesAfterDiscount?: number;

  @money('Tax amount', 3.6)
  @IsOptional()
  @IsMoney()
  tax?: number;

  @money('TCS amount', 0.36)
  @IsOptional()
  @IsMoney()
  tcs?: number;

  @money('Tax on commissions', 0.76)
  @IsOptional()
  @IsMoney()
  taxOnCommissions?: number;

  @money('Global deductions', 0.72)
  @IsOptional()
  @IsMoney()
  totalGlobalDeductions?: number;

  @money('Discount amount', 4)
  @IsOptional()
  @IsMoney()
  discount?: number;
}

export const UPDATABLE_FIELDS = [
  'costOfItem',
  'commission',
  'commissionPlan',
  'deduction',
  'payout',
  'shipping',
  'sales',
  'salesAfterDiscount',
  'tax',
  'tcs',
  'taxOnCommissions',
  'totalGlobalDeductions',
  'discount',
] as const;
export type UpdatableField = (typeof UPDATABLE_FIELDS)[number];

export class LineItemUpdateItemDto {
  @ApiProperty({ description: 'Store-platform line item id', example: 13601741586602 })
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  lineItemId!: number;

  @ApiProperty({ description: 'Store-platform order id', example: 5549201834154 })
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  orderId!: number;

  @ApiPropertyOptional({
    type: LineItemFieldsDto,
    description: 'Figures to write; needs fields, recalculate, or both',
  })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => LineItemFieldsDto)
  fields?: LineItemFieldsDto;

  @ApiPropertyOptional({
    description: 'true queues a recalculation (after the fields are written)',
    example: true,
  })
  @IsOptional()
  @IsBoolean()
  recalculate?: boolean;
}

/**
 * Two exclusive modes (spec §4.2): `items` (1–100 line items by store ids), or `bySku` (every line
 * item of the shop with that SKU) with `fields` and/or `recalculate` at the top level.
 */
export class UpdateLineItemsDto {
  @ApiPropertyOptional({
    type: [LineItemUpdateItemDto],
    maxItems: MAX_UPDATE_ITEMS,
    minItems: 1,
    description: 'Items mode. Not with bySku.',
  })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_UPDATE_ITEMS)
  @ValidateNested({ each: true })
  @Type(() => LineItemUpdateItemDto)
  items?: LineItemUpdateItemDto[];

  @ApiPropertyOptional({
    description: "By-SKU mode: matches all the shop's line items with this SKU. Not with items.",
    example: 'TSHIRT-RED-M',
    minLength: 1,
    maxLength: 200,
  })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  bySku?: string;

  @ApiPropertyOptional({
    type: LineItemFieldsDto,
    description: 'By-SKU mode: required unless recalculate is true',
  })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => LineItemFieldsDto)
  fields?: LineItemFieldsDto;

  @ApiPropertyOptional({ description: 'By-SKU mode: true queues a recalculation', example: false })
  @IsOptional()
  @IsBoolean()
  recalculate?: boolean;
}

export const LINE_ITEM_UPDATE_STATUSES = [
  'updated',
  'recalculate_queued',
  'updated_and_recalculate_queued',
] as const;
export type LineItemUpdateStatus = (typeof LINE_ITEM_UPDATE_STATUSES)[number];

export class LineItemUpdateResultDto {
  @ApiProperty({ example: 13601741586602 })
  lineItemId!: number;
  @ApiProperty({ example: 5549201834154 })
  orderId!: number;
  @ApiProperty({ enum: LINE_ITEM_UPDATE_STATUSES, example: 'updated_and_recalculate_queued' })
  status!: LineItemUpdateStatus;
}

export class LineItemUpdateErrorDto {
  @ApiProperty({ example: 13601741586603 })
  lineItemId!: number;
  @ApiProperty({ example: 5549201834154 })
  orderId!: number;
  @ApiProperty({ example: 'Line item not found' })
  error!: string;
}

/**
 * The answer. By SKU, at most the first 100 lines (oldest order first) are written before the
 * answer and reported line by line; a SKU with more lines is finished by a job (`jobId`).
 */
export class UpdateLineItemsResponseDto {
  @ApiProperty({ description: 'false when errors is not empty', example: false })
  success!: boolean;
  @ApiProperty({
    description:
      'Line items the request matched: by SKU, every line item with that SKU (also those the job handles); ' +
      'in items mode, the entries whose line item exists',
    example: 5200,
  })
  matched!: number;
  @ApiProperty({
    description: 'Entries whose fields were written before the answer (by SKU: among the first 100 lines)',
    example: 100,
  })
  updated!: number;
  @ApiProperty({
    description:
      'Entries whose recalculation was queued before the answer (by SKU: among the first 100 lines)',
    example: 100,
  })
  recalculateQueued!: number;
  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'The queued work as a job resource, followed at `GET /v1/jobs/{jobId}`: the recalculation, or — by SKU with ' +
      'more than 100 matched lines — a `line-item-update` job that writes the remaining lines (and recalculates ' +
      'when asked, the first 100 included); null when nothing was queued',
    example: '6743b1c2d3e4f5a6b7c8d9e0',
  })
  jobId!: string | null;
  @ApiProperty({
    type: [LineItemUpdateResultDto],
    maxItems: 100,
    description: 'One entry per line item written or queued; by SKU at most the first 100 lines',
  })
  results!: LineItemUpdateResultDto[];
  @ApiProperty({
    maxItems: 100,
    type: [LineItemUpdateErrorDto],
    example: [{ lineItemId: 13601741586603, orderId: 5549201834154, error: 'Line item not found' }],
  })
  errors!: LineItemUpdateErrorDto[];
}
