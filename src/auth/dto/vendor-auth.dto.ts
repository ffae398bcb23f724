import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { V2TokenDto } from './auth.dto';

export class VendorAuthenticateDto {
  @ApiProperty({ description: 'The store domain', maxLength: 253, example: 'acme.myshopify.com' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(253)
  shopDomain!: string;

  @ApiProperty({
    description: 'The portal user’s email (any letter case)',
    maxLength: 254,
    example: 'jane@acme.example',
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(254)
  email!: string;

  @ApiProperty({ format: 'password', maxLength: 256, example: 'S3cure-portal-pass' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(256)
  password!: string;
}

export class VendorTokenDto extends V2TokenDto {
  @ApiProperty({ example: '6740c1a2e4b0f15b3c9d0a21' })
  declare vendorId: string;
  @ApiProperty({ example: '6740c7d3e4b0f15b3c9d0a31' })
  userId!: string;
}

export class VendorTokenEnvelopeDto {
  @ApiProperty({ enum: [true], example: true })
  success!: true;
  @ApiProperty({ type: VendorTokenDto })
  data!: VendorTokenDto;
}
