import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength, MinLength } from 'class-validator';

export class CreateMerchantKeyDto {
  @ApiPropertyOptional({
    description: 'A label for people, e.g. the integration that uses the key',
    maxLength: 100,
    example: 'ERP sync',
  })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  name?: string;
}

export const MERCHANT_KEY_STATUSES = ['active', 'expiring', 'expired', 'revoked'] as const;
export type MerchantKeyStatus = (typeof MERCHANT_KEY_STATUSES)[number];

export class MerchantKeyDto {
  @ApiProperty({ example: '6740b9f1c2a4e15b3c9d0a11' })
  id!: string;
  @ApiProperty({
    description: 'The non-secret start of the key, to recognise it',
    example: 'mk_live_6740b9f1c2a4e15b3c9d0a10a1b2c3d4_…',
  })
  keyPrefix!: string;
  @ApiProperty({ type: String, nullable: true, example: 'ERP sync' })
  name!: string | null;
  @ApiProperty({
    enum: MERCHANT_KEY_STATUSES,
    description: '`expiring`: rotated, still valid until `expiresAt`',
    example: 'active',
  })
  status!: MerchantKeyStatus;
  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-21T10:00:00.000Z' })
  createdAt!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: null })
  expiresAt!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: null })
  revokedAt!: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Id of the key that replaced this one on rotation',
    example: null,
  })
  replacedBy!: string | null;
}

export class CreatedMerchantKeyDto {
  @ApiProperty({ example: '6740b9f1c2a4e15b3c9d0a11' })
  id!: string;
  @ApiProperty({
    description: 'The full key. Shown only in this response; store it now.',
    example: 'mk_live_6740b9f1c2a4e15b3c9d0a10a1b2c3d4_Xy7…',
  })
  key!: string;
  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-21T10:00:00.000Z' })
  createdAt!: string;
}

export class RotatedMerchantKeyDto extends CreatedMerchantKeyDto {
  @ApiProperty({
    type: MerchantKeyDto,
    description: 'The previous key: it keeps working until its `expiresAt` (24 h)',
  })
  previousKey!: MerchantKeyDto;
}

export class MerchantKeyListDto {
  @ApiProperty({ example: 2 })
  total!: number;
  @ApiProperty({ type: Number, nullable: true, example: null })
  nextOffset!: number | null;
  @ApiProperty({ type: [MerchantKeyDto] })
  merchantKeys!: MerchantKeyDto[];
}

export class RevokedMerchantKeyDto {
  @ApiProperty({ example: 'Merchant key revoked' })
  message!: string;
  @ApiProperty({ type: MerchantKeyDto })
  merchantKey!: MerchantKeyDto;
}
