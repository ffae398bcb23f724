import { applyDecorators, UseInterceptors } from '@nestjs/common';
import { ApiHeader, ApiResponse } from '@nestjs/swagger';
import { V1ErrorDto, V2ErrorDto } from '../common/http/error.dto';
import { IdempotencyInterceptor } from './idempotency.interceptor';

export const IDEMPOTENCY_KEY_HEADER_DESCRIPTION =
  'Optional. A client-chosen key (1–255 printable ASCII characters, e.g. a UUID) that makes retrying this ' +
  'request safe: the first answer (status and body, 5xx excepted) is stored for 24 hours per shop, credential ' +
  'kind and key, and a retry with the same key and the same request gets that answer again, with ' +
  '`Idempotent-Replayed: true`, without doing anything twice. The same key with a different request ' +
  '(method, path, query or body) → 422; while the first request is still running → 409. Another shop may ' +
  'use the same key.';

/**
 * Makes a write route accept `Idempotency-Key` (IdempotencyInterceptor) and documents the header,
 * the replay header and the two answers it adds, in the route's error shape.
 */
export function Idempotent(api: 'v1' | 'v2') {
  const type = api === 'v1' ? V1ErrorDto : V2ErrorDto;
  const code = (c: string) => (api === 'v2' ? ` (code ${c})` : '');
  return applyDecorators(
    UseInterceptors(IdempotencyInterceptor),
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      description: IDEMPOTENCY_KEY_HEADER_DESCRIPTION,
      // No example: Swagger UI would send the same key with every request and turn the second
      // into a replay (or a 422 when the body changed).
      schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7E]+$' },
    }),
    ApiResponse({
      status: 409,
      description:
        `Conflict with the current state, or a request with the same Idempotency-Key is still running` +
        `${code('IDEMPOTENCY_IN_PROGRESS')}; see Retry-After`,
      type,
    }),
    ApiResponse({
      status: 422,
      description:
        `Validation failed (nothing was changed), or the Idempotency-Key is malformed or was used with a ` +
        `different request${code('IDEMPOTENCY_KEY_MISMATCH')}`,
      type,
    }),
  );
}
