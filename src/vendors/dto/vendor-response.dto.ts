import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PageInfoDto } from '../../common/pagination';
import { UserDto } from '../../users/dto/user-response.dto';
import { COMMISSION_TYPES, CommissionType } from '../vendor.schema';

export class VendorAddressResponseDto {
  @ApiProperty({ type: String, nullable: true, example: '12 Harbour Street' })
  address1!: string | null;
  @ApiProperty({ type: String, nullable: true, example: null })
  address2!: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'Bristol' })
  city!: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'Avon' })
  state!: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'BS1 4DJ' })
  postalCode!: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'GB' })
  country!: string | null;
}

export class ProfileEntryResponseDto {
  @ApiProperty({ example: 'taxId' })
  field!: string;
  @ApiProperty({
    oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }],
    example: 'GB123456789',
  })
  value!: string | number | boolean;
}

export class VendorDto {
  @ApiProperty({ example: '6740c1a2e4b0f15b3c9d0a21' })
  _id!: string;
  @ApiProperty({ description: 'Trimmed and lowercased; unique per shop', example: 'acme apparel' })
  vendorName!: string;
  @ApiProperty({ enum: COMMISSION_TYPES, example: 'percentage' })
  commissionType!: CommissionType;
  @ApiProperty({ description: 'percentage: the percent (10 = 10%); flat: an amount per item', example: 10 })
  commissionAmount!: number;
  @ApiProperty({
    description: 'Inactive vendors leave GET /v1/commissions/vendor and cannot sign in',
    example: true,
  })
  active!: boolean;
  @ApiProperty({ example: '6740b9f1c2a4e15b3c9d0a10' })
  shopId!: string;
  @ApiProperty({ type: VendorAddressResponseDto })
  address!: VendorAddressResponseDto;
  @ApiProperty({ type: [ProfileEntryResponseDto] })
  profile!: ProfileEntryResponseDto[];
  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-21T10:00:00.000Z' })
  createdAt!: string;
  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-21T10:00:00.000Z' })
  updatedAt!: string;
}

export class VendorWithUsersDto extends VendorDto {
  @ApiPropertyOptional({
    type: [UserDto],
    description: 'Only with `users=true`: the portal users of this vendor (never a password)',
  })
  users?: UserDto[];
}

export class VendorMessageDto {
  @ApiProperty({ example: 'Vendor created' })
  message!: string;
  @ApiProperty({ type: VendorDto })
  vendor!: VendorDto;
}

/** GET /v1/vendors. */
export class VendorListDto {
  @ApiProperty({ description: 'Vendors matching the filter, across pages', example: 2 })
  total!: number;
  @ApiProperty({ type: Number, nullable: true, description: 'null on the last page', example: null })
  nextOffset!: number | null;
  @ApiProperty({ type: [VendorWithUsersDto], description: 'By name (A–Z)' })
  vendors!: VendorWithUsersDto[];
}

/** GET /v1/vendors/{vendorId}/profile. */
export class VendorProfileDto {
  @ApiProperty({ type: [ProfileEntryResponseDto] })
  profile!: ProfileEntryResponseDto[];
}

export class VendorReadDto {
  @ApiProperty({ type: [VendorWithUsersDto], description: 'One element: the vendor record with its profile' })
  vendor!: VendorWithUsersDto[];
}

export class VendorEnvelopeDto {
  @ApiProperty({ enum: [true], example: true })
  success!: true;
  @ApiProperty({ type: VendorDto })
  data!: VendorDto;
}

export class VendorsPageDto {
  @ApiProperty({ type: [VendorDto] })
  vendors!: VendorDto[];
  @ApiProperty({ type: PageInfoDto })
  pageInfo!: PageInfoDto;
  @ApiProperty({ type: Number, nullable: true, example: 3 })
  totalCount!: number | null;
}

export class VendorsPageEnvelopeDto {
  @ApiProperty({ enum: [true], example: true })
  success!: true;
  @ApiProperty({ type: VendorsPageDto })
  data!: VendorsPageDto;
}
