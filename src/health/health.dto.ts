import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class HealthDto {
  @ApiProperty({ enum: ['ok'], example: 'ok' })
  status!: 'ok';
}

export class ReadinessDto {
  @ApiProperty({ enum: ['ok', 'error', 'shutting_down'], example: 'ok' })
  status!: string;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    example: { mongodb: { status: 'up' }, redis: { status: 'up' } },
  })
  info?: Record<string, unknown>;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, example: {} })
  error?: Record<string, unknown>;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    example: { mongodb: { status: 'up' }, redis: { status: 'up' } },
  })
  details!: Record<string, unknown>;
}
