import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsMongoId, IsOptional } from 'class-validator';
import { OffsetPageQueryDto } from '../../common/pagination';

export class ProductsQueryDto extends OffsetPageQueryDto {
  @ApiPropertyOptional({
    description: "Only this vendor's products (matched by vendor name): its `_id`, 24 hexadecimal characters",
    pattern: '^[0-9a-fA-F]{24}$',
    minLength: 24,
    maxLength: 24,
  })
  @IsOptional()
  @IsMongoId()
  vendorId?: string;
}

export class ProductVariantDto {
  @ApiProperty({
    type: String,
    nullable: true,
    description: '64-bit platform id, a decimal string',
    example: '42374833356970',
  })
  id!: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'M' })
  title!: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'TSHIRT-RED-M' })
  sku!: string | null;
  @ApiProperty({ example: 20 })
  price!: number;
  @ApiProperty({ example: 14 })
  inventoryQuantity!: number;
  @ApiProperty({ example: true })
  requiresShipping!: boolean;
}

export class ProductImageDto {
  @ApiProperty({
    type: String,
    nullable: true,
    description: '64-bit platform id, a decimal string',
    example: '36130013889962',
  })
  id!: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'https://cdn.shopify.com/s/files/1/red-tshirt.jpg' })
  src!: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'Red T-shirt' })
  alt!: string | null;
  @ApiProperty({ type: Number, nullable: true, example: 1 })
  position!: number | null;
}

/** A product in the list (spec §2.6). */
export class ProductDto {
  @ApiProperty({ example: '673f1c2b9e1d4a0012345699' })
  _id!: string;
  @ApiProperty({
    description: 'Store-platform product id: a decimal string, every digit of the 64-bit id',
    example: '7513594577066',
  })
  productId!: string;
  @ApiProperty({ example: 'Red T-shirt' })
  title!: string;
  @ApiProperty({ example: 'red-t-shirt' })
  handle!: string;
  @ApiProperty({ example: 'Shirts' })
  productType!: string;
  @ApiProperty({ description: 'Vendor name as the store sends it', example: 'Acme Apparel' })
  vendor!: string;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The vendor of that name, if one exists',
    example: '6740b9f1c2a4e15b3c9d0a11',
  })
  vendorId!: string | null;
  @ApiProperty({ description: 'active, draft or archived', example: 'active' })
  status!: string;
  @ApiProperty({ description: 'Σ variant inventory', example: 42 })
  totalInventory!: number;
  @ApiProperty({ description: 'No variant requires shipping', example: false })
  isDigital!: boolean;
  @ApiProperty({ type: [ProductVariantDto] })
  variants!: ProductVariantDto[];
  @ApiProperty({ type: [ProductImageDto] })
  images!: ProductImageDto[];
  @ApiProperty({ type: [String], example: ['summer', 'cotton'] })
  tags!: string[];
  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-01T08:00:00.000Z' })
  createdAt!: string;
  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-20T08:00:00.000Z' })
  updatedAt!: string;
}

export class ProductListDto {
  @ApiProperty({ example: 1 })
  total!: number;
  @ApiProperty({ type: Number, nullable: true, example: null })
  nextOffset!: number | null;
  @ApiProperty({ type: [ProductDto] })
  products!: ProductDto[];
}
