import { randomBytes } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type Redis from 'ioredis';
import { withTimeout } from '../common/async/timeout';
import { Clock } from '../common/clock/clock';
import { sha256Hex } from '../common/crypto';
import { RateLimitedError, UnauthorizedError } from '../common/errors';
import { addressBucket } from '../common/http/client-address';
import { rateLimitConfig, RateLimitConfig } from '../config/configuration';
import { REDIS } from '../redis/redis.module';
import { signInWaitMs, SignInPolicy } from './sign-in-policy';

/**
 * The account a sign-in attempt is for: `shop:<domain>` (shop API key), `vendor:<domain>\n<email>`
 * (portal user), `merchant:<lookup id>` (merchant key). Null when the body names none (a malformed
 * merchant key): only the per-address limit of the guard applies then.
 */
export type SignInAccount = string;

const REDIS_TIMEOUT_MS = 500;

/** The Redis keys of one attempt: this address's failures for the account, the account's hourly counts. */
interface AttemptKeys {
  pair: string;
  accountNow: string;
  accountBefore: string;
}

/**
 * Failed sign-ins per account + client address (IPv6 by /64), a sliding log in a Redis sorted set
 * scored with the injectable clock (tests move time), plus a per-account count of failures from
 * every address. Only failures count, and only against the address that made them: a correct
 * credential from an address without failures is never refused, whatever others did (no one can
 * lock an account out for its owner). The numbers are in SignInPolicy and docs/operations/security.md.
 *
 * Redis unreachable: attempts are let through (logged), the per-address request limit of the
 * guard still holds (it has an in-memory fallback); sign-in never turns into a 500 for it.
 */
@Injectable()
export class SignInLimiter {
  private readonly logger = new Logger('SignInLimiter');
  private readonly policy: SignInPolicy;
  private readonly prefix: string;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly clock: Clock,
    @Inject(rateLimitConfig.KEY) cfg: RateLimitConfig,
  ) {
    this.policy = cfg.signIn;
    this.prefix = `${cfg.keyPrefix}:sign-in`;
  }

  /**
   * Runs one sign-in attempt for `account` from `clientAddress`: refused with 429 (Retry-After)
   * while this address has used up its failures for the account — checked before the credential,
   * so the limit cannot be probed around —, else `verify`. A 401 from it is recorded as a failure
   * of this address for this account; a success clears this address's failures.
   */
  async attempt<T>(
    account: SignInAccount | null,
    clientAddress: string,
    verify: () => Promise<T>,
  ): Promise<T> {
    if (account === null) return verify();
    const keys = this.keys(account, addressBucket(clientAddress));
    const waitMs = await this.safely(() => this.waitMs(keys), 0);
    if (waitMs > 0)
      throw new RateLimitedError(
        Math.ceil(waitMs / 1000),
        'Too many failed sign-in attempts from this address; try again later',
      );
    let result: T;
    try {
      result = await verify();
    } catch (err) {
      if (err instanceof UnauthorizedError) await this.safely(() => this.recordFailure(keys), undefined);
      throw err;
    }
    await this.safely(() => this.redis.del(keys.pair), 0);
    return result;
  }

  private keys(account: string, bucket: string): AttemptKeys {
    const now = this.clock.now().getTime();
    const window = Math.floor(now / this.policy.accountWindowMs);
    const acct = `${this.prefix}:account:${sha256Hex(account)}`;
    return {
      pair: `${this.prefix}:pair:${sha256Hex(`${account}\n${bucket}`)}`,
      accountNow: `${acct}:${window}`,
      accountBefore: `${acct}:${window - 1}`,
    };
  }

  private async waitMs(keys: AttemptKeys): Promise<number> {
    const now = this.clock.now().getTime();
    const results = await this.redis
      .multi()
      .zrangebyscore(keys.pair, String(now - this.policy.longWindowMs), '+inf', 'WITHSCORES')
      .get(keys.accountNow)
      .get(keys.accountBefore)
      .exec();
    const flat = (results?.[0]?.[1] ?? []) as unknown[];
    // [member, score, member, score, …] (RESP2) or [[member, score], …] (RESP3)
    const scores = flat.every(Array.isArray)
      ? (flat as unknown[][]).map((p) => Number(p[1]))
      : flat.filter((_, i) => i % 2 === 1).map(Number);
    const counts = [results?.[1]?.[1], results?.[2]?.[1]].map((c) => Number(c ?? 0));
    const underAttack = counts.some((c) => c >= this.policy.perAccount);
    return signInWaitMs(scores, now, this.policy, underAttack);
  }

  private async recordFailure(keys: AttemptKeys): Promise<void> {
    const now = this.clock.now().getTime();
    await this.redis
      .multi()
      .zadd(keys.pair, now, `${now}:${randomBytes(6).toString('hex')}`)
      .zremrangebyscore(keys.pair, '-inf', String(now - this.policy.longWindowMs))
      .pexpire(keys.pair, this.policy.longWindowMs)
      .incr(keys.accountNow)
      .pexpire(keys.accountNow, 2 * this.policy.accountWindowMs)
      .exec();
  }

  private async safely<T>(work: () => Promise<T>, fallback: T): Promise<T> {
    try {
      return await withTimeout(work(), REDIS_TIMEOUT_MS, 'the sign-in limiter (Redis)');
    } catch (err) {
      this.logger.warn(
        { err: (err as Error)?.message },
        'Sign-in failures not counted: Redis is unavailable',
      );
      return fallback;
    }
  }
}
