import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type Redis from 'ioredis';
import { Clock } from '../common/clock/clock';
import { sha256Hex } from '../common/crypto';
import { appConfig, AppConfig } from '../config/configuration';
import { REDIS } from '../redis/redis.module';

export const SIGN_IN_MAX_FAILURES = 5;
export const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;

/**
 * Failed vendor sign-ins per shop + email + client address (DESIGN §3): after 5 failures within
 * 15 minutes, further attempts are refused until the oldest of them leaves the window. A sliding
 * log in a Redis sorted set, scored with the injectable clock (so tests can move time); the key
 * expires in real time once the window has passed. A success clears the log.
 */
@Injectable()
export class SignInLimiter {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly clock: Clock,
    @Inject(appConfig.KEY) private readonly app: AppConfig,
  ) {}

  key(shopDomain: string, email: string, clientAddress: string): string {
    return `${this.app.queuePrefix}:vendor-sign-in:${sha256Hex(`${shopDomain}\n${email}\n${clientAddress}`)}`;
  }

  /** Seconds to wait before the next attempt, or 0 when one is allowed now. */
  async retryAfter(key: string): Promise<number> {
    const now = this.clock.now().getTime();
    const results = await this.redis
      .multi()
      .zremrangebyscore(key, '-inf', String(now - SIGN_IN_WINDOW_MS))
      .zcard(key)
      .zrange(key, 0, '0', 'WITHSCORES')
      .exec();
    const count = Number(results?.[1]?.[1] ?? 0);
    if (count < SIGN_IN_MAX_FAILURES) return 0;
    // [member, score] (RESP2) or [[member, score]] (RESP3)
    const first = results?.[2]?.[1] as unknown[] | undefined;
    const oldest = Number((Array.isArray(first?.[0]) ? (first[0] as unknown[])[1] : first?.[1]) ?? now);
    return Math.max(1, Math.ceil((oldest + SIGN_IN_WINDOW_MS - now) / 1000));
  }

  async recordFailure(key: string): Promise<void> {
    const now = this.clock.now().getTime();
    await this.redis
      .multi()
      .zadd(key, now, `${now}:${randomBytes(6).toString('hex')}`)
      .pexpire(key, SIGN_IN_WINDOW_MS)
      .exec();
  }

  async clear(key: string): Promise<void> {
    await this.redis.del(key);
  }
}
