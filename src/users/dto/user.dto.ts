import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsEmail,
  IsMongoId,
  IsNotEmpty,
  IsOptional,
  IsString,
  MaxLength,
  MinLength,
} from 'class-validator';
import { VENDOR_SCOPES, type VendorScope } from '../../common/auth/scopes';
import { IfPresent } from '../../common/http/validators';
import { CursorPageQueryDto } from '../../common/pagination';

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 256;
export const EMAIL_MAX = 254;

const trimLower = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.trim().toLowerCase() : value;

export class CreateUserDto {
  @ApiProperty({
    description: 'A vendor of this shop (another shop’s or an unknown vendor → 422)',
    maxLength: 64,
    example: '6740c1a2e4b0f15b3c9d0a21',
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  vendorId!: string;

  @ApiProperty({
    description: 'Stored lowercased; unique per shop',
    maxLength: EMAIL_MAX,
    example: 'jane@acme.example',
  })
  @Transform(trimLower)
  @IsEmail()
  @MaxLength(EMAIL_MAX)
  email!: string;

  @ApiProperty({
    description: `At least ${PASSWORD_MIN} characters; stored as an argon2id hash, never returned`,
    minLength: PASSWORD_MIN,
    maxLength: PASSWORD_MAX,
    example: 'S3cure-portal-pass',
  })
  @IsString()
  @MinLength(PASSWORD_MIN)
  @MaxLength(PASSWORD_MAX)
  password!: string;

  @ApiPropertyOptional({
    description: 'true sends the invitation email, which contains the plaintext password (spec §4.4)',
    example: true,
  })
  @IsOptional()
  @IsBoolean()
  sendEmail?: boolean;
}

const PERMISSIONS_DOC: ApiPropertyOptions = {
  description:
    'The vendor scopes the user holds (each once; may be empty): what its vendor tokens may do on the vendor ' +
    'surface, and the most it may grant an API key it creates. Applies from the next request of its tokens. ' +
    'Users created without it hold every scope.',
  type: String,
  isArray: true,
  enum: [...VENDOR_SCOPES],
  maxItems: VENDOR_SCOPES.length,
  uniqueItems: true,
  example: ['orders:read', 'fulfillments:write'],
};

/** V2 POST: the v1 fields, plus the user's permissions. */
export class CreateUserV2Dto extends CreateUserDto {
  @ApiPropertyOptional(PERMISSIONS_DOC)
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(VENDOR_SCOPES.length)
  @ArrayUnique()
  @IsIn(VENDOR_SCOPES, { each: true })
  permissions?: VendorScope[];
}

/** v1 PUT: both fields required. */
export class ReplaceUserCredentialsDto {
  @ApiProperty({ maxLength: EMAIL_MAX, example: 'jane.doe@acme.example' })
  @Transform(trimLower)
  @IsEmail()
  @MaxLength(EMAIL_MAX)
  email!: string;

  @ApiProperty({ minLength: PASSWORD_MIN, maxLength: PASSWORD_MAX, example: 'An0ther-portal-pass' })
  @IsString()
  @MinLength(PASSWORD_MIN)
  @MaxLength(PASSWORD_MAX)
  password!: string;
}

/** V2 PATCH: any of email, password, approved, permissions. */
export class PatchUserDto {
  @ApiPropertyOptional({ maxLength: EMAIL_MAX, example: 'jane.doe@acme.example' })
  @IfPresent()
  @Transform(trimLower)
  @IsEmail()
  @MaxLength(EMAIL_MAX)
  email?: string;

  @ApiPropertyOptional({ minLength: PASSWORD_MIN, maxLength: PASSWORD_MAX, example: 'An0ther-portal-pass' })
  @IfPresent()
  @IsString()
  @MinLength(PASSWORD_MIN)
  @MaxLength(PASSWORD_MAX)
  password?: string;

  @ApiPropertyOptional({
    description: 'false stops the user signing in and refuses its tokens from the next request on',
    example: false,
  })
  @IfPresent()
  @IsBoolean()
  approved?: boolean;

  @ApiPropertyOptional(PERMISSIONS_DOC)
  @IfPresent()
  @IsArray()
  @ArrayMaxSize(VENDOR_SCOPES.length)
  @ArrayUnique()
  @IsIn(VENDOR_SCOPES, { each: true })
  permissions?: VendorScope[];
}

export class UserListQueryDto extends CursorPageQueryDto {
  @ApiPropertyOptional({
    description: 'Only the users of this vendor: its `_id`, 24 hexadecimal characters',
    pattern: '^[0-9a-fA-F]{24}$',
    minLength: 24,
    maxLength: 24,
  })
  @IsOptional()
  @IsMongoId()
  vendorId?: string;
}
