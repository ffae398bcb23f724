import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { IfPresent } from '../../common/http/validators';
import {
  COUNTRY_PATTERN,
  IDENTIFIER_MAX,
  IDENTIFIER_PATTERN,
  LEGAL_NAME_MAX,
} from '../../common/legal/identifiers';
import { LegalAddressDto, LegalAddressResponseDto } from '../../common/legal/legal-address.dto';
import { TAX_PROFILE_FIELDS, type TaxProfileField } from '../tax-profile-completeness';
import { ENTITY_TYPES, type EntityType } from '../tax-profile.schema';

export const DATE_OF_BIRTH_PATTERN = '^\\d{4}-\\d{2}-\\d{2}$';
const identifier = () =>
  Matches(new RegExp(IDENTIFIER_PATTERN), {
    message: '$property must be 2–32 letters, digits, spaces, dots, dashes or slashes',
  });
const idDoc = (description: string, example: string) =>
  ApiPropertyOptional({
    type: String,
    nullable: true,
    pattern: IDENTIFIER_PATTERN,
    maxLength: IDENTIFIER_MAX,
    description,
    example,
  });

/**
 * PUT …/tax-profile: only the given fields change; `null` clears one. The tax id and the date of
 * birth are write-only (omit them to keep what is stored).
 */
export class UpdateTaxProfileDto {
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: LEGAL_NAME_MAX,
    description: 'The legal name documents address',
    example: 'Example Goods Ltd',
  })
  @IsOptional()
  @IsString()
  @Matches(/\S/, { message: 'legalName must not be blank' })
  @MaxLength(LEGAL_NAME_MAX)
  legalName?: string | null;

  @ApiPropertyOptional({
    enum: ENTITY_TYPES,
    nullable: true,
    description: 'Changing to `business` clears a stored date of birth',
    example: 'business',
  })
  @IsOptional()
  @IsIn(ENTITY_TYPES)
  entityType?: EntityType | null;

  @ApiPropertyOptional({
    type: LegalAddressDto,
    nullable: true,
    description: 'The address documents print, sent whole',
  })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => LegalAddressDto)
  address?: LegalAddressDto | null;

  @idDoc('VAT identification number, printed on documents as given', 'GB000000000')
  @IsOptional()
  @IsString()
  @identifier()
  vatId?: string | null;

  @idDoc(
    'Tax identification number (TIN). Write-only: sealed at rest; reads show `taxIdProvided` and `taxIdLast4`',
    'AB000000C',
  )
  @IsOptional()
  @IsString()
  @identifier()
  taxId?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    pattern: COUNTRY_PATTERN,
    minLength: 2,
    maxLength: 2,
    description: 'The country that issued the tax id (ISO 3166-1 alpha-2, upper case)',
    example: 'GB',
  })
  @IsOptional()
  @IsString()
  @Matches(new RegExp(COUNTRY_PATTERN), {
    message: 'taxIdCountry must be an upper-case ISO 3166-1 alpha-2 code',
  })
  taxIdCountry?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    format: 'date',
    maxLength: 10,
    description:
      'Individuals only (422 for a business): YYYY-MM-DD, a real date in the past. Write-only: sealed at rest; ' +
      'reads show `dateOfBirthProvided`',
    example: '1980-01-31',
  })
  @IsOptional()
  @IsString()
  @Matches(new RegExp(DATE_OF_BIRTH_PATTERN), { message: 'dateOfBirth must be a date as YYYY-MM-DD' })
  dateOfBirth?: string | null;

  @idDoc(
    'Business registration number (company register); required for a complete business profile',
    '00000000',
  )
  @IsOptional()
  @IsString()
  @identifier()
  businessRegistrationNumber?: string | null;

  @ApiPropertyOptional({
    description:
      'Consent to self-billing (the shop issues the vendor’s invoices). A change is recorded with who made it ' +
      'and when; withdrawing it is recorded the same way',
    example: true,
  })
  @IfPresent()
  @IsBoolean()
  selfBillingConsent?: boolean;
}

export class ConsentActorDto {
  @ApiProperty({ enum: ['shop', 'merchant', 'vendor'], example: 'vendor' })
  kind!: string;
  @ApiProperty({
    description: 'The shop, merchant key or vendor user id',
    example: '6740c1a2e4b0f15b3c9d0a31',
  })
  id!: string;
}

export class SelfBillingConsentDto {
  @ApiProperty({ example: true })
  given!: boolean;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When it last changed (null: never stated)',
    example: '2026-01-15T09:30:00.000Z',
  })
  at!: string | null;
  @ApiProperty({
    type: ConsentActorDto,
    nullable: true,
    description: 'Who last changed it (null: never stated)',
  })
  by!: ConsentActorDto | null;
}

export class TaxProfileCompletenessDto {
  @ApiProperty({ example: false })
  complete!: boolean;
  @ApiProperty({ enum: TAX_PROFILE_FIELDS, isArray: true, example: ['businessRegistrationNumber'] })
  missing!: TaxProfileField[];
}

/** A vendor's tax profile as the shop and the vendor read it (sealed fields as flags and a tail). */
export class TaxProfileDto {
  @ApiProperty({ example: '6740c1a2e4b0f15b3c9d0a21' })
  vendorId!: string;
  @ApiProperty({ type: String, nullable: true, example: 'Example Goods Ltd' })
  legalName!: string | null;
  @ApiProperty({ enum: ENTITY_TYPES, nullable: true, example: 'business' })
  entityType!: EntityType | null;
  @ApiProperty({ type: LegalAddressResponseDto, nullable: true })
  address!: LegalAddressResponseDto | null;
  @ApiProperty({ type: String, nullable: true, example: 'GB000000000' })
  vatId!: string | null;
  @ApiProperty({ description: 'Whether a tax id is stored (it is never returned)', example: true })
  taxIdProvided!: boolean;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The last 4 characters of the tax id (null when none, or shorter than 8 characters)',
    example: '000C',
  })
  taxIdLast4!: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'GB' })
  taxIdCountry!: string | null;
  @ApiProperty({ description: 'Whether a date of birth is stored (it is never returned)', example: false })
  dateOfBirthProvided!: boolean;
  @ApiProperty({ type: String, nullable: true, example: '00000000' })
  businessRegistrationNumber!: string | null;
  @ApiProperty({ type: SelfBillingConsentDto })
  selfBillingConsent!: SelfBillingConsentDto;
  @ApiProperty({ type: TaxProfileCompletenessDto })
  completeness!: TaxProfileCompletenessDto;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'Last change (null: no profile stored yet)',
    example: '2026-01-15T09:30:00.000Z',
  })
  updatedAt!: string | null;
}

export class TaxProfileEnvelopeDto {
  @ApiProperty({ enum: [true], example: true })
  success!: true;
  @ApiProperty({ type: TaxProfileDto })
  data!: TaxProfileDto;
}
