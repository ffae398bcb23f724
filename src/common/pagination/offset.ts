import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

export const V1_MAX_LIMIT = 250;
export const V1_DEFAULT_LIMIT = 100;
/** The int32 bound: an offset past every list (422 beyond), so generated clients can use 32-bit integers. */
export const V1_MAX_OFFSET = 2_147_483_647;

/** v1 list paging (DESIGN §5): limit 1–250 (default 100), offset ≥ 0 (default 0). */
export class OffsetPageQueryDto {
  @ApiPropertyOptional({
    type: 'integer',
    format: 'int32',
    minimum: 1,
    maximum: V1_MAX_LIMIT,
    default: V1_DEFAULT_LIMIT,
    description: `Page size (1–${V1_MAX_LIMIT}, default ${V1_DEFAULT_LIMIT})`,
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(V1_MAX_LIMIT)
  limit: number = V1_DEFAULT_LIMIT;

  @ApiPropertyOptional({
    type: 'integer',
    format: 'int32',
    minimum: 0,
    maximum: V1_MAX_OFFSET,
    default: 0,
    description: 'Items to skip (default 0); `nextOffset` of the previous page',
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(V1_MAX_OFFSET)
  offset: number = 0;
}

/** `nextOffset` is null on the last page (and past the end). */
export function nextOffset(page: { offset: number; limit: number }, total: number): number | null {
  const next = page.offset + page.limit;
  return next < total ? next : null;
}
