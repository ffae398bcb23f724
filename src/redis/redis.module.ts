import { Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import { redisConfig, RedisConfig } from '../config/configuration';
import { REDIS } from '../common/redis/redis.token';

export { REDIS };

/**
 * One shared ioredis client for readiness checks and counters (rate limits); Bull keeps its own.
 * It fails a command at once while disconnected (no offline queue, one retry) instead of holding
 * the request: the caller answers 503 within the request's time budget.
 */
@Global()
@Module({
  providers: [
    {
      provide: REDIS,
      inject: [redisConfig.KEY],
      useFactory: async (cfg: RedisConfig) => {
        const redis = new Redis(cfg.url, {
          lazyConnect: false,
          enableOfflineQueue: false,
          maxRetriesPerRequest: 1,
          connectTimeout: 2000,
          retryStrategy: (times) => Math.min(times * 200, 2000),
        });
        redis.on('error', () => undefined); // reconnects by itself; failed commands answer 503
        // Without an offline queue, a command before the first connection fails: start connected
        // (or after 5 s without Redis, which readiness then reports).
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 5000);
          redis.once('ready', () => {
            clearTimeout(timer);
            resolve();
          });
        });
        return redis;
      },
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
