import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsMongoId, IsOptional } from 'class-validator';
import type { Types } from 'mongoose';
import { OffsetPageQueryDto } from '../pagination';
import { toObjectId } from '../tenancy';
import { dayRangeFilter, EndDayParam, StartDayParam } from './day-range';

/** The filters GET /v1/payouts and GET /v1/fulfillments share: one vendor and inclusive UTC order days. */
export class VendorDayRangeQueryDto extends OffsetPageQueryDto {
  @ApiPropertyOptional({
    pattern: '^[0-9a-fA-F]{24}$',
    minLength: 24,
    maxLength: 24,
    description: 'Only this vendor: its `_id`, 24 hexadecimal characters',
  })
  @IsOptional()
  @IsMongoId()
  vendorId?: string;

  @StartDayParam('Order date on or after this UTC calendar day (inclusive from 00:00:00.000Z)')
  start?: string;

  @EndDayParam('Order date on or before this UTC calendar day (inclusive up to 23:59:59.999Z)')
  end?: string;
}

/** The line item filter of a VendorDayRangeQueryDto: the vendor, and order dates in the day range. */
export function vendorDayRangeFilter(q: VendorDayRangeQueryDto): {
  vendorId?: Types.ObjectId;
  orderCreatedAt?: { $gte?: Date; $lte?: Date };
} {
  return {
    vendorId: q.vendorId ? (toObjectId(q.vendorId) ?? undefined) : undefined,
    orderCreatedAt: dayRangeFilter(q.start, q.end),
  };
}
