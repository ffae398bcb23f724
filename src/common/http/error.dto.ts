import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { ErrorCode } from '../errors/domain-errors';
import { CODE_BY_STATUS } from '../errors/error-response';

export const ERROR_CODES: ErrorCode[] = [
  'VALIDATION_ERROR',
  'BAD_REQUEST',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'GONE',
  'ADJUSTMENT_PAID',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'RATE_LIMITED',
  'IDEMPOTENCY_KEY_MISMATCH',
  'IDEMPOTENCY_IN_PROGRESS',
  'SERVICE_UNAVAILABLE',
  'INTERNAL_SERVER_ERROR',
];

const EXAMPLE_ERROR_ID = '2f1c4b1e-7d7a-4c55-9d1e-2b8b5f0f6c11';

/**
 * An error body as the exception filter writes it, for a response example: v1 `{error, ...extra}`
 * (`errorId` on 5xx), V2 `{success: false, error: {message, code, details?, errorId?}}` where the
 * v1 extra fields travel as `details` (4xx only).
 */
export function errorExample(
  api: 'v1' | 'v2',
  status: number,
  message: string,
  extra?: Record<string, unknown>,
  code: ErrorCode = CODE_BY_STATUS[status] ?? 'BAD_REQUEST',
): Record<string, unknown> {
  const errorId = status >= 500 ? { errorId: EXAMPLE_ERROR_ID } : {};
  if (api === 'v1') return { error: message, ...(extra ?? {}), ...errorId };
  return {
    success: false,
    error: { message, code, ...(extra && status < 500 ? { details: extra } : {}), ...errorId },
  };
}

export class V1ErrorDto {
  @ApiProperty({ description: 'What went wrong, for a person to read' })
  error!: string;
  @ApiPropertyOptional({
    description: 'Correlation id, on 5xx responses only (quote it to support; the cause is logged under it)',
    format: 'uuid',
    maxLength: 36,
  })
  errorId?: string;
}

/** v1 500/503: the message and the correlation id under which the cause was logged. */
export class V1ServerErrorDto {
  @ApiProperty({ description: 'What went wrong, for a person to read' })
  error!: string;
  @ApiProperty({ description: 'Correlation id; the cause is logged under it', format: 'uuid', maxLength: 36 })
  errorId!: string;
}

/** v1 409 of a vendor name taken in any letter case (spec: the body names the vendor). */
export class V1VendorConflictDto extends V1ErrorDto {
  @ApiPropertyOptional({
    // No maxLength: it echoes a stored name (up to the vendor DTOs' VENDOR_NAME_MAX, 255), and a
    // response limit would only ever be a second copy of that rule.
    description: 'The vendor name that is taken (absent on other conflicts, e.g. an Idempotency-Key in use)',
  })
  vendorName?: string;
}

/** v1 409 of a user email taken in the shop. */
export class V1UserConflictDto extends V1ErrorDto {
  @ApiPropertyOptional({
    description: 'The email that is taken (absent on other conflicts, e.g. an Idempotency-Key in use)',
    format: 'email',
    maxLength: 254,
  })
  email?: string;
}

export class V2ErrorBodyDto {
  @ApiProperty({ description: 'What went wrong, for a person to read' })
  message!: string;
  @ApiProperty({ enum: ERROR_CODES, description: 'Stable machine-readable code' })
  code!: ErrorCode;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description:
      'Client-error context: `fields` (path → messages) on VALIDATION_ERROR, the taken value on ' +
      'CONFLICT (e.g. `vendorName`), `retryAfterSeconds` on RATE_LIMITED; never set on 5xx',
  })
  details?: Record<string, unknown>;
  @ApiPropertyOptional({
    description: 'Correlation id for support; on 5xx only',
    format: 'uuid',
    maxLength: 36,
  })
  errorId?: string;
}

export class V2ErrorDto {
  @ApiProperty({ enum: [false] })
  success!: false;
  @ApiProperty({ type: V2ErrorBodyDto })
  error!: V2ErrorBodyDto;
}

export class V2ServerErrorBodyDto {
  @ApiProperty({ description: 'What went wrong, for a person to read' })
  message!: string;
  @ApiProperty({ enum: ['INTERNAL_SERVER_ERROR', 'SERVICE_UNAVAILABLE'] })
  code!: 'INTERNAL_SERVER_ERROR' | 'SERVICE_UNAVAILABLE';
  @ApiProperty({ description: 'Correlation id; the cause is logged under it', format: 'uuid', maxLength: 36 })
  errorId!: string;
}

/** V2 500/503: the envelope with an errorId and never details. */
export class V2ServerErrorDto {
  @ApiProperty({ enum: [false] })
  success!: false;
  @ApiProperty({ type: V2ServerErrorBodyDto })
  error!: V2ServerErrorBodyDto;
}
