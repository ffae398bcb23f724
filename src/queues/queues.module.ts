import { BullModule, getQueueToken } from '@nestjs/bull';
import { Global, Logger, Module, OnApplicationBootstrap } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { Queue } from 'bull';
import { appConfig, AppConfig, redisConfig, RedisConfig } from '../config/configuration';
import { Queues } from './jobs';
import { whenConnected } from './queues';

/** Every queue, registered once for the whole app (one Bull instance per queue and process). */
const queueRegistrations = BullModule.registerQueue(...Object.values(Queues).map((name) => ({ name })));

@Global()
@Module({
  imports: [
    BullModule.forRootAsync({
      inject: [redisConfig.KEY, appConfig.KEY],
      useFactory: (redis: RedisConfig, app: AppConfig) => ({
        url: redis.url,
        prefix: app.queuePrefix,
        // A job whose worker died is back in the queue within ~30 s (lock lapses, then the stalled
        // check), well inside the inbox's re-drive grace period.
        settings: { lockDuration: 15_000, stalledInterval: 15_000 },
        defaultJobOptions: {
          attempts: 5,
          backoff: { type: 'exponential', delay: 1000 },
          removeOnComplete: 1000,
          removeOnFail: false,
        },
      }),
    }),
    queueRegistrations,
  ],
  exports: [queueRegistrations],
})
export class QueuesModule implements OnApplicationBootstrap {
  private readonly logger = new Logger('Queues');

  constructor(private readonly moduleRef: ModuleRef) {}

  /**
   * Once a queue's command client is connected, it stops queueing commands while disconnected:
   * adding a job when Redis is down fails at once (the caller answers 503 or relies on the
   * sweeper) instead of hanging, or running minutes later behind the caller's back. Bull's
   * blocking and subscriber clients keep the settings Bull requires.
   */
  onApplicationBootstrap(): void {
    for (const name of Object.values(Queues)) {
      const queue = this.moduleRef.get<Queue>(getQueueToken(name), { strict: false });
      whenConnected(queue)
        .then(() => {
          Object.assign(queue.client.options, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
        })
        .catch((err: unknown) =>
          this.logger.warn({ queue: name, err: (err as Error)?.message }, 'Queue not ready'),
        );
    }
  }
}
