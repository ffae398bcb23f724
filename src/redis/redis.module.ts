import { Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import { redisConfig, RedisConfig } from '../config/configuration';

export const REDIS = Symbol('REDIS');

/** One shared ioredis client for readiness checks and counters (rate limits); Bull keeps its own. */
@Global()
@Module({
  providers: [
    {
      provide: REDIS,
      inject: [redisConfig.KEY],
      useFactory: (cfg: RedisConfig) =>
        new Redis(cfg.url, { lazyConnect: false, maxRetriesPerRequest: 2, enableOfflineQueue: true }),
    },
  ],
  exports: [REDIS],
})
export class RedisModule implements OnApplicationShutdown {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
