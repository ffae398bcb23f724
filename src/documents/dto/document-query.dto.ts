import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsMongoId, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { EndDayParam, StartDayParam } from '../../common/dates/day-range';
import { OBJECT_ID_PATTERN } from '../../common/http/params';
import { CursorPageQueryDto, OffsetPageQueryDto } from '../../common/pagination';
import { DOCUMENT_TYPES, type DocumentType } from '../document.types';

const typeFilter = () =>
  applyDecorators(
    ApiPropertyOptional({ enum: DOCUMENT_TYPES, description: 'Only documents of this kind' }),
    IsOptional(),
    IsIn(DOCUMENT_TYPES),
  );

const idFilter = (description: string) =>
  applyDecorators(
    ApiPropertyOptional({ pattern: OBJECT_ID_PATTERN, minLength: 24, maxLength: 24, description }),
    IsOptional(),
    IsMongoId(),
  );

/** GET /v1/documents (DESIGN §14): every filter optional, any combination. */
export class DocumentListQueryDto extends OffsetPageQueryDto {
  @typeFilter() type?: DocumentType;

  @idFilter('Only this vendor’s documents: its `_id`, 24 hexadecimal characters')
  vendorId?: string;

  @idFilter('Only the documents of this payout batch')
  batchId?: string;

  @ApiPropertyOptional({
    pattern: '^[0-9]{1,20}$',
    maxLength: 20,
    description: "Only documents with a line for this order: the platform's numeric order id",
  })
  @IsOptional()
  @IsString()
  @MaxLength(20)
  @Matches(/^[0-9]{1,20}$/, { message: 'orderId must be the numeric order id of the platform' })
  orderId?: string;

  @StartDayParam('Issued on or after this UTC calendar day (inclusive from 00:00:00.000Z)')
  start?: string;

  @EndDayParam('Issued on or before this UTC calendar day (inclusive up to 23:59:59.999Z)')
  end?: string;
}

/** GET /v2/documents and the vendor's GET /documents (cursor paging). */
export class DocumentPageQueryDto extends CursorPageQueryDto {
  @typeFilter() type?: DocumentType;

  @idFilter('Only this vendor’s documents (a shop token; a vendor token always reads only its own)')
  vendorId?: string;
}
