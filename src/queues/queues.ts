import type { INestApplicationContext } from '@nestjs/common';
import { getQueueToken } from '@nestjs/bull';
import type { Queue } from 'bull';
import { Queues } from './jobs';

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

/**
 * Makes `name` a repeatable job of `queue` every `everyMs` (idempotent across processes and
 * restarts: Bull keys a repeatable by name and interval); a repeatable of the same name with
 * another interval (a changed setting) is removed.
 */
export async function scheduleRepeatable(queue: Queue, name: string, everyMs: number): Promise<void> {
  for (const r of await queue.getRepeatableJobs()) {
    if (r.name === name && Number(r.every) !== everyMs) await queue.removeRepeatableByKey(r.key);
  }
  await queue.add(
    name,
    {},
    { repeat: { every: everyMs }, jobId: name, removeOnComplete: true, removeOnFail: 50 },
  );
}

/** One wait per client: every maintenance processor waits on the same queue's client. */
const connecting = new WeakMap<object, Promise<void>>();

/** Resolves once the queue's command client is connected to Redis (Bull's `isReady` does not wait for that). */
export async function whenConnected(queue: Queue): Promise<void> {
  await queue.isReady();
  const client = queue.client;
  if (client.status === 'ready') return;
  let wait = connecting.get(client);
  if (!wait) {
    wait = new Promise<void>((resolve) => client.once('ready', () => resolve()));
    connecting.set(client, wait);
  }
  await wait;
}

/**
 * Keeps trying `schedule` (registering repeatable jobs) until it succeeds or `stopped()`: Redis
 * may be down when a process starts, and the sweepers must not stay unscheduled.
 */
export async function keepTrying(
  schedule: () => Promise<void>,
  onError: (err: unknown) => void,
  stopped: () => boolean,
  everyMs = 5000,
): Promise<void> {
  while (!stopped()) {
    try {
      await schedule();
      return;
    } catch (err) {
      onError(err);
      await new Promise((r) => setTimeout(r, everyMs).unref());
    }
  }
}
