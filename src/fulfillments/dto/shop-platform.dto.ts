import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { STORE_PLATFORM_NAMES, type StorePlatformName } from '../platform/store-platform';

export class SetShopPlatformDto {
  @ApiProperty({
    enum: STORE_PLATFORM_NAMES,
    description:
      '`local`: the marketplace records fulfillments itself; `shopify`: fulfillments are created through ' +
      'the Shopify Admin API with the access token',
    example: 'shopify',
  })
  @IsIn(STORE_PLATFORM_NAMES)
  platform!: StorePlatformName;

  @ApiPropertyOptional({
    description:
      'Admin API access token. Write-only: stored encrypted (AES-256-GCM) and never returned. Required to ' +
      'switch to `shopify` unless one is already stored; omitted: the stored token is kept.',
    minLength: 1,
    maxLength: 512,
    example: 'shpat_0123456789abcdef0123456789abcdef',
  })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(512)
  accessToken?: string;
}

export class ShopPlatformDto {
  @ApiProperty({ enum: STORE_PLATFORM_NAMES, example: 'shopify' })
  platform!: string;
  @ApiProperty({
    description: 'Whether an access token is stored (the token itself is never shown)',
    example: true,
  })
  accessTokenSet!: boolean;
  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-21T10:00:00.000Z' })
  updatedAt!: string;
}
