import type { INestApplicationContext } from '@nestjs/common';
import { getQueueToken } from '@nestjs/bull';
import type { Queue } from 'bull';
import { appConfig } from '../config/configuration';
import { EnvValidationError } from '../config/env.validation';
import { Queues } from './jobs';

/**
 * Whether this process registers queue processors (its role and QUEUE_PROCESSORS, through the
 * validated `app` namespace). Called while feature modules are imported: an invalid environment
 * answers false here and stops the process at bootstrap with its one-line message.
 */
export function processorsEnabled(): boolean {
  try {
    return appConfig().queueProcessors;
  } catch (err) {
    if (err instanceof EnvValidationError) return false;
    throw err;
  }
}

/**
 * Resolves once every registered queue's Redis clients are ready. Closing a Bull queue before that
 * leaves rejections with `undefined` unhandled (Bull's isRedisReady), which kills a short-lived
 * process such as a CLI command that fails fast.
 */
export async function queuesReady(app: INestApplicationContext): Promise<void> {
  const queues: Queue[] = [];
  for (const name of Object.values(Queues)) {
    try {
      queues.push(app.get<Queue>(getQueueToken(name), { strict: false }));
    } catch {
      // this queue is not registered in this app
    }
  }
  await Promise.all(queues.map((q) => q.isReady()));
}
