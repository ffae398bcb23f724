import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import {
  IDENTIFIER_MAX,
  IDENTIFIER_PATTERN,
  LEGAL_NAME_MAX,
  PREFIX_MAX,
  PREFIX_PATTERN,
} from '../../common/legal/identifiers';
import { LegalAddressDto, LegalAddressResponseDto } from '../../common/legal/legal-address.dto';
import { IfPresent } from '../../common/http/validators';

const PREFIX_DOC = 'Prefix of the series: 1–10 characters of A–Z 0–9 - _ /, distinct from the other series';
const prefix = (example: string) =>
  ApiPropertyOptional({ description: PREFIX_DOC, pattern: PREFIX_PATTERN, maxLength: PREFIX_MAX, example });
const isPrefix = () =>
  Matches(new RegExp(PREFIX_PATTERN), { message: '$property must be 1–10 characters of A-Z 0-9 - _ /' });
const identifier = () =>
  Matches(new RegExp(IDENTIFIER_PATTERN), {
    message: '$property must be 2–32 letters, digits, spaces, dots, dashes or slashes',
  });

/** Only the given series change. */
export class DocumentPrefixesInputDto {
  @prefix('INV-')
  @IfPresent()
  @IsString()
  @isPrefix()
  commission_invoice?: string;

  @prefix('CN-')
  @IfPresent()
  @IsString()
  @isPrefix()
  credit_note?: string;

  @prefix('SB-')
  @IfPresent()
  @IsString()
  @isPrefix()
  self_billed_invoice?: string;
}

/** PUT /v1/shop/legal: only the given fields change; `null` clears an optional one. */
export class UpdateShopLegalDto {
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: LEGAL_NAME_MAX,
    description: 'The legal name documents show as issuer',
    example: 'Example Marketplace GmbH',
  })
  @IsOptional()
  @IsString()
  @Matches(/\S/, { message: 'legalName must not be blank' })
  @MaxLength(LEGAL_NAME_MAX)
  legalName?: string | null;

  @ApiPropertyOptional({
    type: LegalAddressDto,
    nullable: true,
    description: 'The registered address, sent whole (line1, city, postalCode and country required)',
  })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => LegalAddressDto)
  address?: LegalAddressDto | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    pattern: IDENTIFIER_PATTERN,
    maxLength: IDENTIFIER_MAX,
    description: 'VAT identification number (printed on documents as given)',
    example: 'DE000000000',
  })
  @IsOptional()
  @IsString()
  @identifier()
  vatId?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    pattern: IDENTIFIER_PATTERN,
    maxLength: IDENTIFIER_MAX,
    description:
      'Tax number. Write-only: sealed at rest; reads show `taxIdProvided` and `taxIdLast4`. Omit it to keep the ' +
      'stored one (a read-then-write round trip never changes it).',
    example: '00/000/00000',
  })
  @IsOptional()
  @IsString()
  @identifier()
  taxId?: string | null;

  @ApiPropertyOptional({
    type: DocumentPrefixesInputDto,
    description: 'Number prefixes of the numbered document series; only the given series change',
  })
  @IfPresent()
  @IsObject()
  @ValidateNested()
  @Type(() => DocumentPrefixesInputDto)
  prefixes?: DocumentPrefixesInputDto;

  @ApiPropertyOptional({
    description:
      'Whether the shop issues self-billed invoices for vendors whose tax profile records their consent',
    example: true,
  })
  @IfPresent()
  @IsBoolean()
  selfBilling?: boolean;
}

export class DocumentPrefixesDto {
  @ApiProperty({ example: 'INV-' })
  commission_invoice!: string;
  @ApiProperty({ example: 'CN-' })
  credit_note!: string;
  @ApiProperty({ example: 'SB-' })
  self_billed_invoice!: string;
}

/** The shop as the issuer of documents (DESIGN §14). */
export class ShopLegalDto {
  @ApiProperty({ type: String, nullable: true, example: 'Example Marketplace GmbH' })
  legalName!: string | null;
  @ApiProperty({ type: LegalAddressResponseDto, nullable: true })
  address!: LegalAddressResponseDto | null;
  @ApiProperty({ type: String, nullable: true, example: 'DE000000000' })
  vatId!: string | null;
  @ApiProperty({ description: 'Whether a tax number is stored (it is never returned)', example: true })
  taxIdProvided!: boolean;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The last 4 characters of the tax number (null when none, or shorter than 8 characters)',
    example: '0000',
  })
  taxIdLast4!: string | null;
  @ApiProperty({ type: DocumentPrefixesDto })
  prefixes!: DocumentPrefixesDto;
  @ApiProperty({ example: false })
  selfBilling!: boolean;
}

export class ShopLegalResponseDto {
  @ApiProperty({ type: ShopLegalDto })
  legal!: ShopLegalDto;
}

export class UpdatedShopLegalResponseDto {
  @ApiProperty({ example: 'Legal settings updated; documents issued from now on use them' })
  message!: string;
  @ApiProperty({ type: ShopLegalDto })
  legal!: ShopLegalDto;
}
