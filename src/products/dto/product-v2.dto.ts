import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsMongoId, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { CursorPageQueryDto, PageInfoDto } from '../../common/pagination';
import { PRODUCT_STATUSES, type ProductStatus } from '../product.schema';
import { ProductDto } from './product.dto';

const trimmed = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/** GET /products, /v2/products: cursor paging plus the vendor surface's filters (DESIGN §12). */
export class ProductsV2QueryDto extends CursorPageQueryDto {
  @ApiPropertyOptional({ enum: PRODUCT_STATUSES, description: 'Only products in this status' })
  @IsOptional()
  @IsIn(PRODUCT_STATUSES)
  status?: ProductStatus;

  @ApiPropertyOptional({
    description: 'Only products whose title contains this text (case-insensitive, literal; trimmed)',
    minLength: 1,
    maxLength: 100,
  })
  @IsOptional()
  @Transform(trimmed)
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  search?: string;
}

/** GET /v2/products with a shop token may narrow to one vendor. */
export class ShopProductsV2QueryDto extends ProductsV2QueryDto {
  @ApiPropertyOptional({
    description:
      "Shop token: only this vendor's products (matched by vendor name); an unknown id matches none. " +
      'Ignored for a vendor token (it always sees its own).',
    pattern: '^[0-9a-fA-F]{24}$',
    minLength: 24,
    maxLength: 24,
  })
  @IsOptional()
  @IsMongoId()
  vendorId?: string;
}

export class ProductsPageDto {
  @ApiProperty({ type: [ProductDto] })
  items!: ProductDto[];
  @ApiProperty({ type: PageInfoDto })
  pageInfo!: PageInfoDto;
  @ApiProperty({ example: 42 })
  totalCount!: number;
}

export class ProductsPageEnvelopeDto {
  @ApiProperty({ enum: [true], example: true })
  success!: true;
  @ApiProperty({ type: ProductsPageDto })
  data!: ProductsPageDto;
}

export class ProductEnvelopeDto {
  @ApiProperty({ enum: [true], example: true })
  success!: true;
  @ApiProperty({ type: ProductDto })
  data!: ProductDto;
}

/** The vendor's live products per status. */
export class ProductCountsDto {
  @ApiProperty({ example: 12 })
  active!: number;
  @ApiProperty({ example: 3 })
  draft!: number;
  @ApiProperty({ example: 1 })
  archived!: number;
}

export class ProductCountsEnvelopeDto {
  @ApiProperty({ enum: [true], example: true })
  success!: true;
  @ApiProperty({ type: ProductCountsDto })
  data!: ProductCountsDto;
}
