import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray } from 'class-validator';
import { COMMISSION_TYPES, CommissionType } from '../../vendors/vendor.schema';
import { SKU_UPLOAD_MAX } from '../sku-upload';

/** Documentation of one element; elements are checked one by one and reported in `errors` (spec §4.5). */
export class SkuUploadElementDto {
  @ApiProperty({ description: 'Trimmed; non-empty', maxLength: 255, example: 'ACME-JKT-M' })
  sku!: string;
  @ApiPropertyOptional({
    enum: COMMISSION_TYPES,
    description: 'Omitted: `percentage` (an uploaded SKU always carries a commission)',
    example: 'percentage',
  })
  commissionType?: CommissionType;
  @ApiPropertyOptional({
    description:
      'Applied as given (14 means 14%); ≥ 0, at most 100 for a percentage. Alias: commissionAmount. ' +
      'Omitted: 0, so the SKU overrides its vendor with no commission.',
    minimum: 0,
    example: 14,
  })
  commissionRate?: number;
  @ApiPropertyOptional({
    description: 'Per unit; ≥ 0. Omitted: the stored value is kept.',
    minimum: 0,
    example: 41.5,
  })
  costOfGoods?: number;
}

export class SkuUploadDto {
  @ApiProperty({
    type: [SkuUploadElementDto],
    maxItems: SKU_UPLOAD_MAX,
    description: `At most ${SKU_UPLOAD_MAX} elements. Repeated SKUs are applied in order; the last wins.`,
  })
  @IsArray({ message: 'skus must be an array' })
  @ArrayMaxSize(SKU_UPLOAD_MAX, { message: `skus must contain at most ${SKU_UPLOAD_MAX} elements` })
  skus!: unknown[];
}

export class SkuUploadErrorDto {
  @ApiProperty({ description: 'Position of the element in `skus`', example: 2 })
  index!: number;
  @ApiProperty({ example: 'ACME-JKT-XL' })
  sku!: string;
  @ApiProperty({ example: 'commissionRate must not be less than 0' })
  error!: string;
}

export class SkuUploadResultDto {
  @ApiProperty({
    description: 'false when any element failed validation; the valid ones were still written',
    example: false,
  })
  success!: boolean;
  @ApiProperty({ example: 3 })
  received!: number;
  @ApiProperty({ example: 1 })
  created!: number;
  @ApiProperty({ example: 1 })
  updated!: number;
  @ApiProperty({ type: [SkuUploadErrorDto] })
  errors!: SkuUploadErrorDto[];
}

export class SkuCommissionDto {
  @ApiProperty({ example: 'ACME-JKT-M' })
  sku!: string;
  @ApiProperty({ type: Number, nullable: true, example: 41.5 })
  costOfGoods!: number | null;
  @ApiProperty({
    enum: COMMISSION_TYPES,
    nullable: true,
    description: 'null for a record that only holds a cost of goods (it never overrides the vendor)',
    example: 'percentage',
  })
  commissionType!: CommissionType | null;
  @ApiProperty({ type: Number, nullable: true, example: 14 })
  commissionAmount!: number | null;
}

export class SkuCommissionListDto {
  @ApiProperty({ type: [SkuCommissionDto] })
  skus!: SkuCommissionDto[];
}

export class VendorCommissionDto {
  @ApiProperty({ example: '6740c1a2e4b0f15b3c9d0a21' })
  vendorId!: string;
  @ApiProperty({ example: 'acme apparel' })
  vendorName!: string;
  @ApiProperty({ enum: COMMISSION_TYPES, example: 'percentage' })
  commissionType!: CommissionType;
  @ApiProperty({ example: 12 })
  commissionAmount!: number;
}

export class VendorCommissionListDto {
  @ApiProperty({ type: [VendorCommissionDto] })
  vendors!: VendorCommissionDto[];
}
