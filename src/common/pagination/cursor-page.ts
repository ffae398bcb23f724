import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { ValidationError } from '../errors';
import { CursorPosition, decodeCursor, encodeCursor } from './cursor';

export const V2_MAX_PAGE = 100;
export const V2_DEFAULT_PAGE = 20;

/** Relay-style cursor input (spec §2.11, DESIGN §5). */
export class CursorPageQueryDto {
  @ApiPropertyOptional({
    type: 'integer',
    format: 'int32',
    minimum: 1,
    maximum: V2_MAX_PAGE,
    description: `Page size going forwards (1–${V2_MAX_PAGE}; 20 when neither first nor last is sent). Not with \`last\`.`,
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(V2_MAX_PAGE)
  first?: number;

  @ApiPropertyOptional({
    description: 'Cursor (the `endCursor` of a page) to continue after. Not with `before`.',
    maxLength: 512,
  })
  @IsOptional()
  @IsString()
  @MaxLength(512)
  after?: string;

  @ApiPropertyOptional({
    type: 'integer',
    format: 'int32',
    minimum: 1,
    maximum: V2_MAX_PAGE,
    description: `Page size going backwards (1–${V2_MAX_PAGE}). Not with \`first\`.`,
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(V2_MAX_PAGE)
  last?: number;

  @ApiPropertyOptional({
    description: 'Cursor (the `startCursor` of a page) to go back from. Not with `after`.',
    maxLength: 512,
  })
  @IsOptional()
  @IsString()
  @MaxLength(512)
  before?: string;
}

export class PageInfoDto {
  @ApiProperty({ example: true })
  hasNextPage!: boolean;
  @ApiProperty({ example: false })
  hasPreviousPage!: boolean;
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'WzE3MzE1MDAwMDAwMDAsIjY3M2YxIl0.q1w2e3r4t5y6u7i8o9p0aa',
  })
  startCursor!: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'WzE3MzE0MDAwMDAwMDAsIjY3M2YwIl0.a1s2d3f4g5h6j7k8l9z0xx',
  })
  endCursor!: string | null;
  @ApiProperty({ type: Number, nullable: true, example: 42 })
  totalCount!: number | null;
}

/** A validated request for one page of a newest-first list. */
export interface CursorWindow {
  direction: 'forward' | 'backward';
  size: number;
  /** The row the page starts after (forward) or ends before (backward), if any. */
  boundary?: CursorPosition;
}

export function resolveCursorWindow(q: CursorPageQueryDto, key: Buffer, context: string): CursorWindow {
  if (q.first !== undefined && q.last !== undefined)
    throw combo('first and last cannot be combined', ['first', 'last']);
  if (q.after !== undefined && q.before !== undefined)
    throw combo('after and before cannot be combined', ['after', 'before']);
  if (q.last !== undefined || q.before !== undefined) {
    if (q.first !== undefined) throw combo('first cannot be combined with before', ['first', 'before']);
    if (q.after !== undefined) throw combo('after cannot be combined with last', ['after', 'last']);
    return {
      direction: 'backward',
      size: q.last ?? V2_DEFAULT_PAGE,
      boundary: q.before !== undefined ? decodeCursor(key, context, q.before, 'before') : undefined,
    };
  }
  return {
    direction: 'forward',
    size: q.first ?? V2_DEFAULT_PAGE,
    boundary: q.after !== undefined ? decodeCursor(key, context, q.after, 'after') : undefined,
  };
}

function combo(message: string, fields: string[]): ValidationError {
  return new ValidationError(message, { fields: Object.fromEntries(fields.map((f) => [f, [message]])) });
}

/** What a repository's cursor read returns (see TenantRepository.cursorPage). */
export interface CursorRows<T> {
  /** `size + 1` rows at most, in the window's scan order (see buildCursorPage). */
  rows: T[];
  hasMoreBehind: boolean;
  totalCount: number;
}

/**
 * A whole V2 cursor list call: validates the query into a window for this list (`context` names it
 * and the caller's scope, so cursors cannot cross lists or tenants), reads the window, builds the page.
 */
export async function readCursorPage<T>(
  query: CursorPageQueryDto,
  key: Buffer,
  context: string,
  read: (window: CursorWindow) => Promise<CursorRows<T>>,
  position: (row: T) => CursorPosition,
): Promise<{ items: T[]; pageInfo: PageInfoDto; totalCount: number }> {
  const window = resolveCursorWindow(query, key, context);
  const { rows, hasMoreBehind, totalCount } = await read(window);
  const page = buildCursorPage(rows, window, position, key, context, { hasMoreBehind, totalCount });
  return { items: page.items, pageInfo: page.pageInfo, totalCount };
}

/**
 * Builds the page from rows fetched by the repository in the window's scan order with `size + 1`
 * rows (newest first going forward, oldest first going backward). `hasMoreBehind` says whether any
 * row exists on the other side of the boundary.
 */
export function buildCursorPage<T>(
  rows: T[],
  window: CursorWindow,
  position: (row: T) => CursorPosition,
  key: Buffer,
  context: string,
  extra: { hasMoreBehind: boolean; totalCount: number | null },
): { items: T[]; pageInfo: PageInfoDto } {
  const hasMoreAhead = rows.length > window.size;
  const slice = rows.slice(0, window.size);
  const items = window.direction === 'forward' ? slice : slice.reverse();
  const cursor = (row: T | undefined) =>
    row === undefined ? null : encodeCursor(key, context, position(row));
  return {
    items,
    pageInfo: {
      hasNextPage: window.direction === 'forward' ? hasMoreAhead : extra.hasMoreBehind,
      hasPreviousPage: window.direction === 'forward' ? extra.hasMoreBehind : hasMoreAhead,
      startCursor: cursor(items[0]),
      endCursor: cursor(items[items.length - 1]),
      totalCount: extra.totalCount,
    },
  };
}
