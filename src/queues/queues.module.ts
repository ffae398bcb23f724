import { BullModule } from '@nestjs/bull';
import { Global, Module } from '@nestjs/common';
import { appConfig, AppConfig, redisConfig, RedisConfig } from '../config/configuration';

@Global()
@Module({
  imports: [
    BullModule.forRootAsync({
      inject: [redisConfig.KEY, appConfig.KEY],
      useFactory: (redis: RedisConfig, app: AppConfig) => ({
        url: redis.url,
        prefix: app.queuePrefix,
        defaultJobOptions: {
          attempts: 5,
          backoff: { type: 'exponential', delay: 1000 },
          removeOnComplete: 1000,
          removeOnFail: false,
        },
      }),
    }),
  ],
  exports: [BullModule],
})
export class QueuesModule {}
