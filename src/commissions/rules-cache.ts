import type { StoredLadderRule } from './stored-ladder-rule';
import { CLAIM_TTL_MS } from './commission-rule-checks';

/**
 * How much of the shops' rules one process keeps: rules plus looked-up keys (a product id or a type
 * key, with or without rules), over every shop. A cached rule is a lean document of 11 short fields
 * (~0.5 KB with its map entry), so the bound holds the cache under ~10 MB per process.
 */
export const RULES_CACHE_MAX_WEIGHT = 20_000;

/** What a shop's document says of its rules (shop.schema.ts): the stamp a cache entry is valid for. */
export interface RulesStamp {
  /** Moved on before and after every rule write (absent on shops stored before it: 0). */
  version: number;
  /** Whether the shop's rules may be cached at this version (no rule write in flight). */
  cacheable: boolean;
}

/** The shop document's fields that stamp its rules (shop.schema.ts; absent on older shops). */
export interface RulesStampSource {
  rulesVersion?: number | null;
  rulesWriting?: number | null;
  rulesWriteAt?: Date | null;
}

/**
 * The stamp of a shop's rules as its document says at `now`. Rules read while a write is in flight
 * are not kept (the write may land after the read, and its closing bump is what would retire
 * them). A count left above 0 by a writer that died is taken as finished once its last start is
 * older than a rule claim's lifetime (CLAIM_TTL_MS: a write that old has lost its claim too).
 */
export function rulesStampOf(shop: RulesStampSource, now: Date): RulesStamp {
  const writing = (shop.rulesWriting ?? 0) > 0;
  const lastStart = shop.rulesWriteAt ? new Date(shop.rulesWriteAt).getTime() : null;
  const stale = lastStart === null || now.getTime() - lastStart >= CLAIM_TTL_MS;
  return { version: shop.rulesVersion ?? 0, cacheable: !writing || stale };
}

/** The rules of the keys asked for, and the keys the cache could not answer. */
export interface CachedRules {
  rules: StoredLadderRule[];
  missingProductIds: string[];
  missingTypeKeys: string[];
}

interface Entry {
  version: number;
  /** Per key (`p:<productId>`, `t:<typeKey>`): the rules targeting it, [] when none. */
  byKey: Map<string, StoredLadderRule[]>;
  weight: number;
}

const productKey = (id: string) => `p:${id}`;
const typeKey = (key: string) => `t:${key}`;

/**
 * The commission rules the pricing read looked up (DESIGN §13), per shop and per product id or type
 * key, valid for one `rulesVersion` of the shop: the pricing read loads the shop document anyway,
 * so a hit costs no command, and any rule write, in any process, moves the version on and so
 * retires every process's entry for that shop. Least recently used shops go first once the weight
 * passes `maxWeight`. Per process: nothing here is shared, nothing needs to be.
 */
export class RulesCache {
  /** In use order: the first entry is the least recently used. */
  private readonly shops = new Map<string, Entry>();
  private total = 0;

  constructor(private readonly maxWeight = RULES_CACHE_MAX_WEIGHT) {}

  /** The rules of these keys at this version, and the keys it does not hold. */
  lookup(shopId: string, version: number, productIds: string[], typeKeys: string[]): CachedRules {
    const entry = this.shops.get(shopId);
    const current = entry && entry.version === version ? entry : null;
    if (current) {
      // used now: to the back of the eviction order
      this.shops.delete(shopId);
      this.shops.set(shopId, current);
    }
    const rules: StoredLadderRule[] = [];
    const collect = (key: string): boolean => {
      const found = current?.byKey.get(key);
      if (found) rules.push(...found);
      return !found;
    };
    return {
      rules,
      missingProductIds: productIds.filter((id) => collect(productKey(id))),
      missingTypeKeys: typeKeys.filter((k) => collect(typeKey(k))),
    };
  }

  /**
   * Keeps what a read of these keys found at this version (a key without a rule is kept as such).
   * An entry of an older version is replaced; a read of an older version than the entry's is
   * dropped (its rules may be older too).
   */
  remember(
    shopId: string,
    version: number,
    productIds: string[],
    typeKeys: string[],
    found: StoredLadderRule[],
  ): void {
    let entry = this.shops.get(shopId);
    if (entry && entry.version > version) return;
    if (!entry || entry.version < version) {
      this.drop(shopId);
      entry = { version, byKey: new Map(), weight: 0 };
    } else this.shops.delete(shopId);
    this.shops.set(shopId, entry);
    const keyed = new Map<string, StoredLadderRule[]>([
      ...productIds.map((id): [string, StoredLadderRule[]] => [productKey(id), []]),
      ...typeKeys.map((k): [string, StoredLadderRule[]] => [typeKey(k), []]),
    ]);
    for (const r of found) {
      const key = r.level === 'product' ? productKey(r.productId ?? '') : typeKey(r.productTypeKey ?? '');
      keyed.get(key)?.push(r);
    }
    for (const [key, rules] of keyed) {
      if (entry.byKey.has(key)) continue;
      entry.byKey.set(key, rules);
      entry.weight += 1 + rules.length;
      this.total += 1 + rules.length;
    }
    this.evict();
  }

  /** Rules and keys held, over every shop (the bound's measure). */
  get weight(): number {
    return this.total;
  }

  get shopCount(): number {
    return this.shops.size;
  }

  private evict(): void {
    for (const shopId of this.shops.keys()) {
      if (this.total <= this.maxWeight) return;
      this.drop(shopId);
    }
  }

  private drop(shopId: string): void {
    const entry = this.shops.get(shopId);
    if (!entry) return;
    this.total -= entry.weight;
    this.shops.delete(shopId);
  }
}
