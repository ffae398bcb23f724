import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

export const V1_MAX_LIMIT = 250;
export const V1_DEFAULT_LIMIT = 100;

/** v1 list paging (DESIGN §5): limit 1–250 (default 100), offset ≥ 0 (default 0). */
export class OffsetPageQueryDto {
  @ApiPropertyOptional({ minimum: 1, maximum: V1_MAX_LIMIT, default: V1_DEFAULT_LIMIT, example: 100 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(V1_MAX_LIMIT)
  limit: number = V1_DEFAULT_LIMIT;

  @ApiPropertyOptional({ minimum: 0, default: 0, example: 0 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  offset: number = 0;
}

/** `nextOffset` is null on the last page (and past the end). */
export function nextOffset(page: { offset: number; limit: number }, total: number): number | null {
  const next = page.offset + page.limit;
  return next < total ? next : null;
}
