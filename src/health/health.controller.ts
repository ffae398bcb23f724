import { Controller, Get, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { HealthDto, ReadinessDto } from './health.dto';
import { ReadinessService } from './readiness.service';

@ApiTags('Operations')
@Controller('health')
export class HealthController {
  constructor(private readonly readiness: ReadinessService) {}

  @Get()
  @ApiOperation({ operationId: 'checkLiveness', summary: 'Liveness: the process answers' })
  @ApiOkResponse({ type: HealthDto })
  live(): HealthDto {
    return { status: 'ok' };
  }

  @Get('ready')
  @ApiOperation({
    operationId: 'checkReadiness',
    summary: 'Readiness: MongoDB and Redis answer (checked on every call)',
  })
  @ApiOkResponse({ type: ReadinessDto })
  @ApiServiceUnavailableResponse({
    description:
      'MongoDB or Redis does not answer (or the process is shutting down); the dependency is named with ' +
      '`unreachable` or `no answer in time`, never the driver’s error text',
    type: ReadinessDto,
    example: {
      status: 'error',
      info: { redis: { status: 'up' } },
      error: { mongodb: { status: 'down', message: 'unreachable' } },
      details: { mongodb: { status: 'down', message: 'unreachable' }, redis: { status: 'up' } },
    },
  })
  async ready(@Res({ passthrough: true }) reply: FastifyReply): Promise<ReadinessDto> {
    const result = await this.readiness.check();
    if (result.status !== 'ok') void reply.status(503);
    return result;
  }
}
