import type { INestApplicationContext } from '@nestjs/common';
import { getQueueToken } from '@nestjs/bull';
import type { Queue } from 'bull';

/** Bull queue names (one place, so producers and processors cannot drift apart). */
export const Queues = {
  Ingestion: 'ingestion',
  Recalculation: 'recalculation',
  Payouts: 'payouts',
  Mail: 'mail',
} as const;

/** Whether this process runs queue processors (the API does unless QUEUE_PROCESSORS=false; dist/worker.js always does). */
export function processorsEnabled(): boolean {
  if (process.env.MP_WORKER === '1') return true;
  return !['0', 'false', 'no'].includes(String(process.env.QUEUE_PROCESSORS ?? 'true').toLowerCase());
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
