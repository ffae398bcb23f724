import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { V1ErrorDto, V2ErrorDto } from './error.dto';

const DESCRIPTIONS: Record<number, string> = {
  400: 'Malformed JSON body, or JSON / query parameters nested deeper than 32 levels',
  401: 'Missing, malformed, expired or revoked credential',
  403: 'Credential of the wrong kind for this endpoint',
  404: 'Unknown id, or an id of another shop or vendor',
  409: 'Conflict with the current state',
  413: 'Body larger than 1 MB',
  422: 'Validation failed; nothing was changed',
  429: 'Too many attempts; see Retry-After',
  503: 'MongoDB or Redis is unreachable; retry after Retry-After seconds',
};

/** Documents the listed error statuses in the v1 `{error}` shape. */
export const ApiV1Errors = (...statuses: number[]) =>
  applyDecorators(
    ...statuses.map((status) => ApiResponse({ status, description: DESCRIPTIONS[status], type: V1ErrorDto })),
  );

/** Documents the listed error statuses in the V2 envelope. */
export const ApiV2Errors = (...statuses: number[]) =>
  applyDecorators(
    ...statuses.map((status) => ApiResponse({ status, description: DESCRIPTIONS[status], type: V2ErrorDto })),
  );
