import { Controller, Get, Inject, Res, ServiceUnavailableException } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import {
  HealthCheckResult,
  HealthCheckService,
  HealthIndicatorService,
  MongooseHealthIndicator,
} from '@nestjs/terminus';
import type { FastifyReply } from 'fastify';
import Redis from 'ioredis';
import { REDIS } from '../redis/redis.module';
import { HealthDto, ReadinessDto } from './health.dto';

@ApiTags('Health')
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly mongo: MongooseHealthIndicator,
    private readonly indicators: HealthIndicatorService,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Liveness: the process answers' })
  @ApiOkResponse({ type: HealthDto })
  live(): HealthDto {
    return { status: 'ok' };
  }

  @Get('ready')
  @ApiOperation({ summary: 'Readiness: MongoDB and Redis answer' })
  @ApiOkResponse({ type: ReadinessDto })
  @ApiServiceUnavailableResponse({ type: ReadinessDto })
  async ready(@Res({ passthrough: true }) reply: FastifyReply): Promise<HealthCheckResult> {
    try {
      return await this.health.check([
        () => this.mongo.pingCheck('mongodb', { timeout: 1500 }),
        () => this.redisCheck(),
      ]);
    } catch (err) {
      if (!(err instanceof ServiceUnavailableException)) throw err;
      void reply.status(503);
      return err.getResponse() as HealthCheckResult;
    }
  }

  private async redisCheck() {
    const indicator = this.indicators.check('redis');
    try {
      await Promise.race([
        this.redis.ping(),
        new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), 1500)),
      ]);
      return indicator.up();
    } catch (err) {
      return indicator.down({ message: (err as Error).message });
    }
  }
}
