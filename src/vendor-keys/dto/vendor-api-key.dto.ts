import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsIn,
  IsOptional,
  IsString,
  MaxLength,
  MinLength,
} from 'class-validator';
import { VENDOR_SCOPES, type VendorScope } from '../../common/auth/scopes';
import { PageInfoDto } from '../../common/pagination';

export const MAX_LIVE_VENDOR_KEYS = 25;

export class CreateVendorApiKeyDto {
  @ApiPropertyOptional({
    description: 'A label for people, e.g. the program that uses the key',
    maxLength: 100,
    example: 'Warehouse sync',
  })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  name?: string;

  @ApiProperty({
    description:
      'What the key may do on the vendor surface: one or more scopes, each once. A portal user may grant only ' +
      'scopes it holds itself.',
    type: [String],
    enum: VENDOR_SCOPES,
    minItems: 1,
    maxItems: VENDOR_SCOPES.length,
    uniqueItems: true,
    example: ['orders:read', 'fulfillments:write'],
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(VENDOR_SCOPES.length)
  @ArrayUnique()
  @IsIn(VENDOR_SCOPES, { each: true })
  scopes!: VendorScope[];
}

/** A vendor API key as lists show it: never its secret. */
export class VendorApiKeyDto {
  @ApiProperty({ example: '6741a0b1c2d3e4f5a6b7c8d9' })
  id!: string;
  @ApiProperty({ example: '6740c1a2e4b0f15b3c9d0a21' })
  vendorId!: string;
  @ApiProperty({
    description: 'The non-secret start of the key, to recognise it',
    example: 'vk_live_6740b9f1c2a4e15b3c9d0a10a1b2c3d4_…',
  })
  prefix!: string;
  @ApiProperty({ type: String, nullable: true, example: 'Warehouse sync' })
  name!: string | null;
  @ApiProperty({ type: [String], enum: VENDOR_SCOPES, example: ['orders:read', 'fulfillments:write'] })
  scopes!: VendorScope[];
  @ApiProperty({ enum: ['active', 'revoked'], example: 'active' })
  status!: 'active' | 'revoked';
  @ApiProperty({
    description:
      'Who created it: `shop` (shop token), `merchant` (merchant key id), `vendor` (portal user id)',
    example: { kind: 'shop', id: '6740b9f1c2a4e15b3c9d0a10' },
  })
  createdBy!: { kind: 'shop' | 'merchant' | 'vendor'; id: string };
  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-21T10:00:00.000Z' })
  createdAt!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: null })
  revokedAt!: string | null;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description:
      'When a token was last minted from the key or used (updated at most hourly); null until then',
    example: null,
  })
  lastUsedAt!: string | null;
}

export class CreatedVendorApiKeyDto {
  @ApiProperty({ example: '6741a0b1c2d3e4f5a6b7c8d9' })
  id!: string;
  @ApiProperty({
    description: 'The full key. Shown only in this response; store it now.',
    example: 'vk_live_6740b9f1c2a4e15b3c9d0a10a1b2c3d4_Xy7Qm0yq4d7m9bXyZ1hF3kP0sLwV8rT2nE6cJ5aG',
  })
  key!: string;
  @ApiProperty({ type: String, nullable: true, example: 'Warehouse sync' })
  name!: string | null;
  @ApiProperty({ type: [String], enum: VENDOR_SCOPES, example: ['orders:read', 'fulfillments:write'] })
  scopes!: VendorScope[];
  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-21T10:00:00.000Z' })
  createdAt!: string;
}

export class VendorApiKeyListDto {
  @ApiProperty({ example: 2 })
  total!: number;
  @ApiProperty({ type: Number, nullable: true, example: null })
  nextOffset!: number | null;
  @ApiProperty({ type: [VendorApiKeyDto] })
  apiKeys!: VendorApiKeyDto[];
}

export class RevokedVendorApiKeyDto {
  @ApiProperty({ example: 'Vendor API key revoked' })
  message!: string;
  @ApiProperty({ type: VendorApiKeyDto })
  apiKey!: VendorApiKeyDto;
}

export class VendorApiKeysPageDto {
  @ApiProperty({ type: [VendorApiKeyDto] })
  items!: VendorApiKeyDto[];
  @ApiProperty({ type: PageInfoDto })
  pageInfo!: PageInfoDto;
  @ApiProperty({ type: Number, nullable: true, example: 2 })
  totalCount!: number | null;
}

export class CreatedVendorApiKeyEnvelopeDto {
  @ApiProperty({ enum: [true], example: true })
  success!: true;
  @ApiProperty({ type: CreatedVendorApiKeyDto })
  data!: CreatedVendorApiKeyDto;
}

export class VendorApiKeyEnvelopeDto {
  @ApiProperty({ enum: [true], example: true })
  success!: true;
  @ApiProperty({ type: VendorApiKeyDto })
  data!: VendorApiKeyDto;
}

export class VendorApiKeysPageEnvelopeDto {
  @ApiProperty({ enum: [true], example: true })
  success!: true;
  @ApiProperty({ type: VendorApiKeysPageDto })
  data!: VendorApiKeysPageDto;
}
