import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsISO31661Alpha2, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { COUNTRY_PATTERN } from './identifiers';

/**
 * A postal address as invoices print it (DESIGN §14): the shop's legal address and a vendor's tax
 * address. Sent whole: every required field each time, so a document never prints half of two addresses.
 */
export class LegalAddressDto {
  @ApiProperty({ maxLength: 200, example: '1 Example Street' })
  @IsString()
  @Matches(/\S/, { message: 'line1 must not be blank' })
  @MaxLength(200)
  line1!: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 200, example: 'Unit 4' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  line2?: string | null;

  @ApiProperty({ maxLength: 100, example: 'Exampleton' })
  @IsString()
  @Matches(/\S/, { message: 'city must not be blank' })
  @MaxLength(100)
  city!: string;

  @ApiProperty({ maxLength: 20, example: '12345' })
  @IsString()
  @Matches(/\S/, { message: 'postalCode must not be blank' })
  @MaxLength(20)
  postalCode!: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 100, example: 'Example Region' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  region?: string | null;

  @ApiProperty({
    description: 'ISO 3166-1 alpha-2 country code, upper case',
    pattern: COUNTRY_PATTERN,
    minLength: 2,
    maxLength: 2,
    example: 'DE',
  })
  @IsString()
  @Matches(new RegExp(COUNTRY_PATTERN), { message: 'country must be an upper-case ISO 3166-1 alpha-2 code' })
  @IsISO31661Alpha2({ message: 'country must be an ISO 3166-1 alpha-2 country code' })
  country!: string;
}

/** The stored and answered address: optional parts as null, strings trimmed. */
export interface LegalAddress {
  line1: string;
  line2: string | null;
  city: string;
  postalCode: string;
  region: string | null;
  country: string;
}

export class LegalAddressResponseDto {
  @ApiProperty({ example: '1 Example Street' })
  line1!: string;
  @ApiProperty({ type: String, nullable: true, example: 'Unit 4' })
  line2!: string | null;
  @ApiProperty({ example: 'Exampleton' })
  city!: string;
  @ApiProperty({ example: '12345' })
  postalCode!: string;
  @ApiProperty({ type: String, nullable: true, example: null })
  region!: string | null;
  @ApiProperty({ example: 'DE' })
  country!: string;
}

/** The address to store: trimmed, blank optional parts as null (the DTO has checked the shape). */
export function legalAddressOf(a: LegalAddressDto): LegalAddress {
  const opt = (v: string | null | undefined) => (v && v.trim() ? v.trim() : null);
  return {
    line1: a.line1.trim(),
    line2: opt(a.line2),
    city: a.city.trim(),
    postalCode: a.postalCode.trim(),
    region: opt(a.region),
    country: a.country,
  };
}
