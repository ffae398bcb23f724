import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class V1ErrorDto {
  @ApiProperty({ example: 'Missing or invalid access token' })
  error!: string;
  @ApiPropertyOptional({
    description: 'Correlation id, on 5xx responses only',
    example: '2f1c4b1e-7d7a-4c55-9d1e-2b8b5f0f6c11',
  })
  errorId?: string;
}

export class V2ErrorBodyDto {
  @ApiProperty({ example: 'first must not be greater than 100' })
  message!: string;
  @ApiProperty({
    example: 'VALIDATION_ERROR',
    enum: [
      'VALIDATION_ERROR',
      'BAD_REQUEST',
      'UNAUTHORIZED',
      'FORBIDDEN',
      'NOT_FOUND',
      'CONFLICT',
      'ADJUSTMENT_PAID',
      'PAYLOAD_TOO_LARGE',
      'UNSUPPORTED_MEDIA_TYPE',
      'RATE_LIMITED',
      'IDEMPOTENCY_KEY_MISMATCH',
      'IDEMPOTENCY_IN_PROGRESS',
      'SERVICE_UNAVAILABLE',
      'INTERNAL_SERVER_ERROR',
    ],
  })
  code!: string;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'Client-error context, e.g. `fields` (path → messages); never set on 5xx',
    example: { fields: { first: ['first must not be greater than 100'] } },
  })
  details?: Record<string, unknown>;
  @ApiPropertyOptional({
    description: 'Correlation id for support; on 5xx only',
    example: '2f1c4b1e-7d7a-4c55-9d1e-2b8b5f0f6c11',
  })
  errorId?: string;
}

export class V2ErrorDto {
  @ApiProperty({ enum: [false], example: false })
  success!: false;
  @ApiProperty({ type: V2ErrorBodyDto })
  error!: V2ErrorBodyDto;
}
