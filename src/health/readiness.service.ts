import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import Redis from 'ioredis';
import type { Connection } from 'mongoose';
import { TimeoutError, withTimeout } from '../common/async/timeout';
import { REDIS } from '../redis/redis.module';

const CHECK_TIMEOUT_MS = 1500;

export interface Readiness {
  status: 'ok' | 'error';
  info: Record<string, { status: 'up' }>;
  error: Record<string, { status: 'down'; message: string }>;
  details: Record<string, { status: 'up' | 'down'; message?: string }>;
}

/**
 * Whether MongoDB and Redis answer a ping now (each within 1.5 s), on every call: no cached
 * verdict, so readiness goes down and comes back up with the services, without a restart. A down
 * dependency is named with one of our own words (`unreachable`, `no answer in time`); the driver's
 * error text goes to the log only.
 */
@Injectable()
export class ReadinessService {
  private readonly logger = new Logger('Readiness');

  constructor(
    @InjectConnection() private readonly connection: Connection,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  async check(): Promise<Readiness> {
    const checks: Array<[string, () => Promise<unknown>]> = [
      ['mongodb', () => this.connection.db!.admin().ping()],
      ['redis', () => this.redis.ping()],
    ];
    const results = await Promise.all(
      checks.map(async ([name, ping]) => {
        try {
          await withTimeout(ping(), CHECK_TIMEOUT_MS, name);
          return [name, null] as const;
        } catch (err) {
          // The driver's text (host names, addresses, credentials in a URI) is logged, never answered.
          const message = err instanceof TimeoutError ? 'no answer in time' : 'unreachable';
          this.logger.warn({ dependency: name, err: (err as Error)?.message }, `Readiness: ${name} is down`);
          return [name, message] as const;
        }
      }),
    );
    const out: Readiness = { status: 'ok', info: {}, error: {}, details: {} };
    for (const [name, failure] of results) {
      if (failure === null) {
        out.info[name] = { status: 'up' };
        out.details[name] = { status: 'up' };
      } else {
        out.status = 'error';
        out.error[name] = { status: 'down', message: failure };
        out.details[name] = { status: 'down', message: failure };
      }
    }
    return out;
  }
}
