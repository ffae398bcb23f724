import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, ArrayUnique, IsArray, IsNotEmpty, IsString, MaxLength } from 'class-validator';

export const PROFILE_FIELDS_MAX = 50;
export const PROFILE_FIELD_NAME_MAX = 100;

export class ShopProfileDto {
  @ApiProperty({
    type: [String],
    description: 'Names of the custom vendor profile fields',
    example: ['companyName', 'taxId', 'phone', 'website', 'description'],
  })
  fields!: string[];
}

export class UpdateShopProfileDto {
  @ApiProperty({
    type: 'array',
    items: { type: 'string', minLength: 1, maxLength: PROFILE_FIELD_NAME_MAX },
    description: `Field names: non-empty (trimmed), unique, at most ${PROFILE_FIELDS_MAX}. Replaces the list.`,
    maxItems: PROFILE_FIELDS_MAX,
    example: ['companyName', 'taxId', 'phone', 'website', 'description'],
  })
  @Transform(({ value }) =>
    Array.isArray(value) ? value.map((v) => (typeof v === 'string' ? v.trim() : v)) : value,
  )
  @IsArray()
  @ArrayMaxSize(PROFILE_FIELDS_MAX)
  @ArrayUnique({ message: 'fields must not contain the same name twice' })
  @IsString({ each: true })
  @IsNotEmpty({ each: true })
  @MaxLength(PROFILE_FIELD_NAME_MAX, { each: true })
  fields!: string[];
}

export class UpdatedShopProfileDto extends ShopProfileDto {
  @ApiProperty({ example: 'Profile fields updated' })
  message!: string;
}
