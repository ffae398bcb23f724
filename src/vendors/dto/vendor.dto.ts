import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsNotEmpty,
  IsOptional,
  IsString,
  MaxLength,
  registerDecorator,
  ValidateNested,
  ValidationOptions,
} from 'class-validator';
import { IfPresent, IsMoney } from '../../common/http/validators';
import { CursorPageQueryDto, OffsetPageQueryDto } from '../../common/pagination';
import { COMMISSION_TYPES, CommissionType } from '../vendor.schema';

export const VENDOR_NAME_MAX = 255;
export const ADDRESS_FIELD_MAX = 255;
export const PROFILE_ENTRIES_MAX = 100;
export const PROFILE_STRING_MAX = 2000;

const trimLower = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.trim().toLowerCase() : value;

/** string, finite number or boolean: a profile value is never an object, array or null. */
export function IsProfileValue(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isProfileValue',
      target: target.constructor,
      propertyName: propertyName as string,
      options: {
        message: `$property must be a string (at most ${PROFILE_STRING_MAX} characters), a number or a boolean, never an object`,
        ...options,
      },
      validator: {
        validate: (v: unknown) =>
          (typeof v === 'string' && v.length <= PROFILE_STRING_MAX) ||
          typeof v === 'boolean' ||
          (typeof v === 'number' && Number.isFinite(v)),
      },
    });
}

export class CreateVendorDto {
  @ApiProperty({
    description: 'Stored trimmed and lowercased; unique per shop in any letter case',
    maxLength: VENDOR_NAME_MAX,
    example: 'Acme Apparel',
  })
  @Transform(trimLower)
  @IsString()
  @IsNotEmpty()
  @MaxLength(VENDOR_NAME_MAX)
  vendorName!: string;

  @ApiProperty({ enum: COMMISSION_TYPES, example: 'percentage' })
  @IsIn(COMMISSION_TYPES)
  commissionType!: CommissionType;

  @ApiProperty({
    description:
      'percentage: the percent (10 means 10%), 0–100. flat: an amount per item, ≥ 0. At most 2 decimal places.',
    minimum: 0,
    maximum: 1_000_000_000,
    example: 10,
  })
  @IsMoney({ min: 0 })
  commissionAmount!: number;
}

/** v1 PUT: only the given fields change. */
export class UpdateVendorDto {
  @ApiPropertyOptional({ maxLength: VENDOR_NAME_MAX, example: 'Acme Apparel EU' })
  @IfPresent()
  @Transform(trimLower)
  @IsString()
  @IsNotEmpty()
  @MaxLength(VENDOR_NAME_MAX)
  vendorName?: string;

  @ApiPropertyOptional({ enum: COMMISSION_TYPES, example: 'flat' })
  @IfPresent()
  @IsIn(COMMISSION_TYPES)
  commissionType?: CommissionType;

  @ApiPropertyOptional({
    minimum: 0,
    maximum: 1_000_000_000,
    description: 'As for create: 0–100 for a percentage; at most 2 decimal places',
    example: 2.5,
  })
  @IfPresent()
  @IsMoney({ min: 0 })
  commissionAmount?: number;
}

/** PUT /v1/vendors/{id}/address: every field optional; unknown keys are ignored (spec §4.3). */
export class VendorAddressDto {
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: ADDRESS_FIELD_MAX,
    example: '12 Harbour Street',
  })
  @IsOptional()
  @IsString()
  @MaxLength(ADDRESS_FIELD_MAX)
  address1?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: ADDRESS_FIELD_MAX, example: 'Unit 4' })
  @IsOptional()
  @IsString()
  @MaxLength(ADDRESS_FIELD_MAX)
  address2?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: ADDRESS_FIELD_MAX, example: 'Bristol' })
  @IsOptional()
  @IsString()
  @MaxLength(ADDRESS_FIELD_MAX)
  city?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: ADDRESS_FIELD_MAX, example: 'Avon' })
  @IsOptional()
  @IsString()
  @MaxLength(ADDRESS_FIELD_MAX)
  state?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: ADDRESS_FIELD_MAX, example: 'BS1 4DJ' })
  @IsOptional()
  @IsString()
  @MaxLength(ADDRESS_FIELD_MAX)
  postalCode?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: ADDRESS_FIELD_MAX, example: 'GB' })
  @IsOptional()
  @IsString()
  @MaxLength(ADDRESS_FIELD_MAX)
  country?: string | null;
}

export const ADDRESS_FIELDS = ['address1', 'address2', 'city', 'state', 'postalCode', 'country'] as const;

export class ProfileEntryDto {
  @ApiProperty({
    description: "One of the shop's profile field names (GET /v1/shop/profile)",
    maxLength: 100,
    example: 'taxId',
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  field!: string;

  @ApiProperty({
    description: 'A string, number or boolean; never an object',
    oneOf: [{ type: 'string', maxLength: PROFILE_STRING_MAX }, { type: 'number' }, { type: 'boolean' }],
    example: 'GB123456789',
  })
  @IsProfileValue()
  value!: string | number | boolean;
}

/** V2 PATCH: the v1 fields plus the active flag, the address and profile entries. */
export class PatchVendorDto extends UpdateVendorDto {
  @ApiPropertyOptional({
    description: 'false deactivates (as DELETE does); true reactivates',
    example: true,
  })
  @IfPresent()
  @IsBoolean()
  active?: boolean;

  @ApiPropertyOptional({ type: VendorAddressDto, description: 'Only the given address fields change' })
  @IfPresent()
  @ValidateNested()
  @Type(() => VendorAddressDto)
  address?: VendorAddressDto;

  @ApiPropertyOptional({
    type: [ProfileEntryDto],
    maxItems: PROFILE_ENTRIES_MAX,
    description: `Profile entries to set (at most ${PROFILE_ENTRIES_MAX}); other entries keep their values`,
  })
  @IfPresent()
  @IsArray()
  @ArrayMaxSize(PROFILE_ENTRIES_MAX)
  @ValidateNested({ each: true })
  @Type(() => ProfileEntryDto)
  profile?: ProfileEntryDto[];
}

export class VendorReadQueryDto {
  @ApiPropertyOptional({
    enum: ['true', 'false'],
    description: "`true` adds the vendor's portal users (never their passwords) to the record",
  })
  @IsOptional()
  @IsIn(['true', 'false'])
  users?: 'true' | 'false';
}

/** GET /v1/vendors. */
export class VendorV1ListQueryDto extends OffsetPageQueryDto {
  @ApiPropertyOptional({
    enum: ['true', 'false'],
    description: "`true` adds each vendor's portal users (never their passwords)",
  })
  @IsOptional()
  @IsIn(['true', 'false'])
  users?: 'true' | 'false';

  @ApiPropertyOptional({
    enum: ['true', 'false'],
    description: 'Only active (`true`) or only deactivated (`false`) vendors; both when absent',
  })
  @IsOptional()
  @IsIn(['true', 'false'])
  active?: 'true' | 'false';
}

export class VendorListQueryDto extends CursorPageQueryDto {
  @ApiPropertyOptional({
    enum: ['true', 'false'],
    description: 'Only active (true) or inactive (false) vendors; unset: both',
  })
  @IsOptional()
  @IsIn(['true', 'false'])
  active?: 'true' | 'false';
}
