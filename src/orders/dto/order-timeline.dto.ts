import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsMongoId, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { NOTE_AUTHOR_KINDS } from '../order-note.schema';
import { TIMELINE_ENTRY_TYPES } from '../timeline/timeline-entry';

export class TimelineEntryDto {
  @ApiProperty({ enum: TIMELINE_ENTRY_TYPES, example: 'fulfilled' })
  type!: string;
  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-22T09:30:00.000Z' })
  at!: string;
  @ApiProperty({ maxLength: 2200, example: 'TSHIRT-RED-M × 2 fulfilled: UPS 1Z999AA10123456784' })
  message!: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      'The entry’s facts, by type: received/paid `{financialStatus}` (paid: `timeKnown: false`, see the ' +
      'guide); fulfilled `{lineItemId, vendorId, sku, quantity, trackingCompany, trackingNumber, trackingUrl}`; ' +
      'tracking_updated `{eventId, lineItemId, vendorId, status, message}`; ' +
      'refunded `{lineItemId, vendorId, refundId, refundedQuantity, salesAfterDiscount, payout}`; paid_out ' +
      '`{batchId, vendorId, amount, lineItemIds}`; note `{noteId, vendorId, author: {kind, id}}`',
    example: {
      lineItemId: '673f1c2b9e1d4a0012345679',
      sku: 'TSHIRT-RED-M',
      trackingNumber: '1Z999AA10123456784',
    },
  })
  data!: Record<string, unknown>;
}

export class OrderTimelineDto {
  @ApiProperty({ description: 'Order id', example: '673f1c2b9e1d4a0012345678' })
  orderRef!: string;
  @ApiProperty({ example: 5549201834154 })
  orderId!: number;
  @ApiProperty({ type: [TimelineEntryDto], description: 'Oldest first' })
  entries!: TimelineEntryDto[];
}

export class OrderTimelineEnvelopeDto {
  @ApiProperty({ enum: [true], example: true })
  success!: true;
  @ApiProperty({ type: OrderTimelineDto })
  data!: OrderTimelineDto;
}

export class AddOrderNoteDto {
  @ApiProperty({
    minLength: 1,
    maxLength: 2000,
    description: '1–2000 characters, not only spaces',
    example: 'Shipping tomorrow morning, tracking to follow',
  })
  @IsString()
  @MinLength(1)
  @MaxLength(2000)
  @Matches(/\S/, { message: 'message must not be blank' })
  message!: string;

  @ApiPropertyOptional({
    pattern: '^[0-9a-fA-F]{24}$',
    maxLength: 24,
    description:
      'Shop tokens only: put the note on this vendor’s part of the order (the vendor sees it); without it the ' +
      'note is the shop’s own. A vendor token’s note is always on its own part (sending this → 422)',
  })
  @IsOptional()
  @IsMongoId()
  @MaxLength(24)
  vendorId?: string;
}

export class OrderNoteAuthorDto {
  @ApiProperty({ enum: NOTE_AUTHOR_KINDS, example: 'vendor_user' })
  kind!: string;
  @ApiProperty({ maxLength: 64, example: '673f1c2b9e1d4a00123456aa' })
  id!: string;
}

export class OrderNoteDto {
  @ApiProperty({ example: '673f1c2b9e1d4a00123456bb' })
  _id!: string;
  @ApiProperty({ example: 5549201834154 })
  orderId!: number;
  @ApiProperty({ type: String, nullable: true, description: 'The vendor part the note is on', example: null })
  vendorId!: string | null;
  @ApiProperty({ type: OrderNoteAuthorDto })
  author!: OrderNoteAuthorDto;
  @ApiProperty({ maxLength: 2000, example: 'Shipping tomorrow morning, tracking to follow' })
  message!: string;
  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-22T09:30:00.000Z' })
  createdAt!: string;
}

export class OrderNoteEnvelopeDto {
  @ApiProperty({ enum: [true], example: true })
  success!: true;
  @ApiProperty({ type: OrderNoteDto })
  data!: OrderNoteDto;
}
