import { Inject, Injectable, Logger } from '@nestjs/common';
import type Redis from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { rateLimitConfig, RateLimitConfig } from '../../config/configuration';
import { REDIS } from '../redis/redis.token';
import type { CredentialKind } from '../auth/principal';
import { withTimeout } from '../async/timeout';

/** Where one caller stands in its window: what the RateLimit-* headers say. */
export interface RateLimitState {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets (and, when refused, until the next request is allowed). */
  resetSeconds: number;
}

const WINDOW_SECONDS = 60;
/** A Redis that hangs (rather than fails) must not hold the request: the in-memory limiter decides. */
const REDIS_TIMEOUT_MS = 500;

/**
 * Fixed one-minute windows counted in Redis (rate-limiter-flexible's RateLimiterRedis), so every
 * API process of a deployment shares one count per caller. Each limiter has an in-memory insurance
 * limiter with the same limit: while Redis cannot be reached (or does not answer within 500 ms)
 * each process counts on its own, so callers are still limited (up to the limit per process)
 * and a Redis outage never turns requests into errors.
 */
@Injectable()
export class RateLimits {
  private readonly logger = new Logger('RateLimits');
  private readonly credential: Record<
    CredentialKind,
    { limiter: RateLimiterRedis; insurance: RateLimiterMemory }
  >;
  private readonly signInAddress: { limiter: RateLimiterRedis; insurance: RateLimiterMemory };
  private readonly providerWebhookAddress: { limiter: RateLimiterRedis; insurance: RateLimiterMemory };
  private lastWarning = 0;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(rateLimitConfig.KEY) cfg: RateLimitConfig,
  ) {
    const make = (name: string, points: number) => {
      const insurance = new RateLimiterMemory({
        points,
        duration: WINDOW_SECONDS,
        keyPrefix: `${cfg.keyPrefix}:${name}`,
      });
      const limiter = new RateLimiterRedis({
        storeClient: this.redis,
        points,
        duration: WINDOW_SECONDS,
        keyPrefix: `${cfg.keyPrefix}:${name}`,
        rejectIfRedisNotReady: true,
        insuranceLimiter: insurance,
      });
      return { limiter, insurance };
    };
    this.credential = {
      shop: make('shop', cfg.perMinute.shop),
      merchant: make('merchant', cfg.perMinute.merchant),
      vendor: make('vendor', cfg.perMinute.vendor),
    };
    this.signInAddress = make('sign-in-address', cfg.signInPerAddress);
    this.providerWebhookAddress = make('provider-webhook-address', cfg.providerWebhookPerAddress);
  }

  /** One request of a credential (shop id, merchant key id or portal user id). */
  consumeCredential(kind: CredentialKind, id: string): Promise<RateLimitState> {
    return this.consume(this.credential[kind], id);
  }

  /**
   * One sign-in attempt, whatever its outcome, counted per client address bucket (IPv6 by /64).
   * Deliberately not per shop or account: a count every caller adds to would let anyone hold a
   * shop's sign-in at 429 (failures per account are SignInLimiter's, and count per address).
   */
  consumeSignIn(addressBucket: string): Promise<RateLimitState> {
    return this.consume(this.signInAddress, addressBucket || 'unknown');
  }

  /**
   * One payment-provider webhook (PayPal or Stripe), whatever its outcome, per client address
   * bucket: before anything else, so an unauthenticated flood costs a Redis count, not a read.
   */
  consumeProviderWebhook(addressBucket: string): Promise<RateLimitState> {
    return this.consume(this.providerWebhookAddress, addressBucket || 'unknown');
  }

  private async consume(
    l: { limiter: RateLimiterRedis; insurance: RateLimiterMemory },
    key: string,
  ): Promise<RateLimitState> {
    let res: RateLimiterRes;
    try {
      res = await withTimeout(l.limiter.consume(key), REDIS_TIMEOUT_MS, 'the rate limiter (Redis)');
    } catch (err) {
      if (err instanceof RateLimiterRes) return state(l.limiter.points, err, false);
      this.warnInsurance(err);
      try {
        res = await l.insurance.consume(key);
      } catch (refused) {
        if (refused instanceof RateLimiterRes) return state(l.insurance.points, refused, false);
        throw refused;
      }
    }
    return state(l.limiter.points, res, true);
  }

  private warnInsurance(err: unknown): void {
    const now = Date.now();
    if (now - this.lastWarning < 10_000) return;
    this.lastWarning = now;
    this.logger.warn({ err: (err as Error)?.message }, 'Rate limits counted in memory: Redis is unavailable');
  }
}

function state(limit: number, res: RateLimiterRes, allowed: boolean): RateLimitState {
  return {
    allowed,
    limit,
    remaining: Math.max(0, res.remainingPoints),
    resetSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
  };
}
