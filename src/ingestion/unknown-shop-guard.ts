import { Injectable } from '@nestjs/common';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { RateLimitedError } from '../common/errors';

/** An unknown domain is remembered this long: repeats answer 401 without a database read. */
export const UNKNOWN_SHOP_CACHE_MS = 60_000;
/** Domains remembered at most (oldest dropped first), so guessing cannot grow memory without bound. */
export const UNKNOWN_SHOP_CACHE_SIZE = 10_000;
/** Lookups of domains that turned out unknown, per client address and minute, before 429. */
export const UNKNOWN_SHOP_LOOKUPS_PER_MINUTE = 30;

/**
 * Bounds what `POST /webhooks/shopify` with a made-up `X-Shopify-Shop-Domain` costs: every such
 * request would otherwise be a database read. A domain found unknown is negatively cached for a
 * minute, and an address whose lookups keep missing is refused (429) before any read until its
 * window resets. Counted per process, in memory: the bound is on this process's database reads, and
 * the platform's own deliveries (known shops) never count. A shop created after a miss is reachable
 * once the entry expires (at most a minute).
 */
@Injectable()
export class UnknownShopGuard {
  private readonly unknown = new Map<string, number>();
  private readonly misses = new RateLimiterMemory({
    points: UNKNOWN_SHOP_LOOKUPS_PER_MINUTE,
    duration: 60,
    keyPrefix: 'webhook-unknown-shop',
  });

  /** True when the domain is known to be unknown (no read needed). */
  isKnownUnknown(domain: string, now = Date.now()): boolean {
    const until = this.unknown.get(domain);
    if (until === undefined) return false;
    if (until > now) return true;
    this.unknown.delete(domain);
    return false;
  }

  /** Before a database lookup: refuses an address whose lookups have kept missing. */
  async assertMayLookUp(address: string): Promise<void> {
    const res = await this.misses.get(address || 'unknown');
    if (res && res.consumedPoints >= UNKNOWN_SHOP_LOOKUPS_PER_MINUTE) {
      throw new RateLimitedError(
        Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
        'Too many webhooks for unknown shops from this address; try again later',
      );
    }
  }

  /** After a lookup found nothing: remember the domain and count the miss against the address. */
  async recordMiss(domain: string, address: string, now = Date.now()): Promise<void> {
    if (this.unknown.size >= UNKNOWN_SHOP_CACHE_SIZE) {
      this.unknown.delete(this.unknown.keys().next().value!);
    }
    this.unknown.set(domain, now + UNKNOWN_SHOP_CACHE_MS);
    await this.misses.consume(address || 'unknown').catch(() => undefined);
  }
}
