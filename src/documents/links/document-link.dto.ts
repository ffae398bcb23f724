import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsMongoId, IsOptional, IsString, Matches, MaxLength } from 'class-validator';

/** POST /documents/invoice and /documents/packing-slip: the order, as the vendor surface names it. */
export class DocumentLinkRequestDto {
  @ApiProperty({
    description: 'The order: our `_id` (24 hexadecimal characters) or the store platform’s numeric order id',
    maxLength: 24,
    example: '5549201834154',
  })
  @IsString()
  @MaxLength(24)
  @Matches(/^([0-9a-fA-F]{24}|[1-9][0-9]{0,15})$/, {
    message: 'orderId must be an order _id (24 hexadecimal characters) or a numeric platform order id',
  })
  orderId!: string;
}

/** `?vendorId=`: whose part of the order (required with a shop token; a vendor token is its own vendor). */
export class DocumentLinkQueryDto {
  @ApiPropertyOptional({
    description:
      'Shop token: the vendor whose document it is (required). Vendor token: optional; only its own vendor ' +
      '(another vendor’s id → 404).',
    minLength: 24,
    maxLength: 24,
    pattern: '^[0-9a-fA-F]{24}$',
  })
  @IsOptional()
  @IsMongoId()
  vendorId?: string;
}

export class DocumentLinkDto {
  @ApiProperty({
    description:
      'A link of ours that serves the PDF without `x-access-token` until `expiresAt` (48 hours); it opens this ' +
      'one document only. A changed link answers 403, an expired one 410.',
    maxLength: 2048,
    example:
      'https://api.example.com/documents/links/eyJ2IjoxLCJzIjoiNjc0MGI5ZjFjMmE0ZTE1YjNjOWQwYTAxIn0.q3kZ4bQ',
  })
  url!: string;

  @ApiProperty({ format: 'date-time', maxLength: 30, example: '2026-11-30T10:00:00.000Z' })
  expiresAt!: string;
}

export class DocumentLinkEnvelopeDto {
  @ApiProperty({ enum: [true] })
  success!: true;

  @ApiProperty({ type: DocumentLinkDto })
  data!: DocumentLinkDto;
}
