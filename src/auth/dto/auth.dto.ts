import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { VENDOR_SCOPES, type VendorScope } from '../../common/auth/scopes';

export class AuthenticateV1Dto {
  @ApiProperty({
    description: 'Shop API key (from the operator CLI `shop:create`)',
    maxLength: 200,
    example: 'shpk_4Qm0yq4d7m9bXyZ1hF3kP0sLwV8rT2nE6cJ5aG7u',
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  apiKey!: string;

  @ApiProperty({ description: 'The store domain', maxLength: 253, example: 'acme.myshopify.com' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(253)
  shopDomain!: string;
}

export class ShopTokenDto {
  @ApiProperty({
    description: 'JWT for `x-access-token`, valid 24 hours',
    example: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzaWQiOiI2NzQw…',
  })
  token!: string;
  @ApiProperty({ example: 'acme.myshopify.com' })
  shopDomain!: string;
}

export class AuthenticateMerchantDto {
  @ApiProperty({
    description: 'Merchant API key (`mk_live_…`) or vendor API key (`vk_live_…`)',
    maxLength: 200,
    example: 'mk_live_6740b9f1c2a4e15b3c9d0a10a1b2c3d4_Xy7Qm0yq4d7m9bXyZ1hF3kP0sLwV8rT2nE6cJ5aG',
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  apiKey!: string;
}

export class V2TokenDto {
  @ApiProperty({ example: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzaWQiOiI2NzQw…' })
  token!: string;
  @ApiProperty({ description: 'Seconds until the token expires', example: 1209600 })
  expiresIn!: number;
  @ApiProperty({ enum: ['merchant', 'vendor'], example: 'merchant' })
  scope!: 'merchant' | 'vendor';
  @ApiPropertyOptional({
    type: String,
    isArray: true,
    enum: [...VENDOR_SCOPES],
    description: 'Vendor API key tokens only: the scopes the token holds (the key’s)',
    example: ['orders:read', 'payouts:read'],
  })
  permissions?: VendorScope[];
  @ApiProperty({ example: 'acme.myshopify.com' })
  shopDomain!: string;
  @ApiPropertyOptional({ enum: ['live'], description: 'Vendor API key tokens only', example: 'live' })
  mode?: 'live';
  @ApiPropertyOptional({
    description: 'Vendor API key tokens only: the vendor whose data the token reaches',
    example: '6740c1a2e4b0f15b3c9d0a21',
  })
  vendorId?: string;
}

export class V2TokenEnvelopeDto {
  @ApiProperty({ enum: [true], example: true })
  success!: true;
  @ApiProperty({ type: V2TokenDto })
  data!: V2TokenDto;
}
