import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsMongoId, IsOptional } from 'class-validator';
import { OffsetPageQueryDto } from '../../common/pagination';
import { IsDay } from '../date-range';

/** The filters GET /v1/payouts and GET /v1/fulfillments share: one vendor and inclusive UTC order days. */
export class VendorDayRangeQueryDto extends OffsetPageQueryDto {
  @ApiPropertyOptional({
    pattern: '^[0-9a-fA-F]{24}$',
    description: 'Only this vendor',
    example: '6740b9f1c2a4e15b3c9d0a21',
  })
  @IsOptional()
  @IsMongoId()
  vendorId?: string;

  @ApiPropertyOptional({
    type: String,
    format: 'date',
    pattern: '^\\d{4}-\\d{2}-\\d{2}$',
    description: 'Order date on or after this UTC calendar day (inclusive from 00:00:00.000Z)',
    example: '2026-11-01',
  })
  @IsOptional()
  @IsDay()
  start?: string;

  @ApiPropertyOptional({
    type: String,
    format: 'date',
    pattern: '^\\d{4}-\\d{2}-\\d{2}$',
    description: 'Order date on or before this UTC calendar day (inclusive up to 23:59:59.999Z)',
    example: '2026-11-30',
  })
  @IsOptional()
  @IsDay()
  end?: string;
}
