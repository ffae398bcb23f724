import { Types } from 'mongoose';
import { CLAIM_TTL_MS } from './commission-rule-checks';
import { RulesCache, rulesStampOf } from './rules-cache';
import type { StoredLadderRule } from './stored-ladder-rule';

const SHOP_A = new Types.ObjectId().toHexString();
const SHOP_B = new Types.ObjectId().toHexString();

function rule(level: 'product' | 'productType', target: string, commissionAmount = 10): StoredLadderRule {
  return {
    _id: new Types.ObjectId(),
    level,
    productId: level === 'product' ? target : null,
    productTypeKey: level === 'productType' ? target : null,
    vendorId: null,
    commissionType: 'percentage',
    commissionAmount,
    flatAmount: null,
    minimum: null,
    maximum: null,
    validFrom: null,
    validTo: null,
  };
}

describe('RulesCache', () => {
  it('answers the keys it read at this version, rules and no-rule keys alike, and names the rest', () => {
    const cache = new RulesCache();
    const p1 = rule('product', '1');
    const lamps = rule('productType', 'lamps');
    cache.remember(SHOP_A, 3, ['1', '2'], ['lamps'], [p1, lamps]);
    const hit = cache.lookup(SHOP_A, 3, ['1', '2', '9'], ['lamps', 'mugs']);
    expect(hit.rules).toEqual([p1, lamps]);
    expect(hit.missingProductIds).toEqual(['9']);
    expect(hit.missingTypeKeys).toEqual(['mugs']);
  });

  it('never answers for another version (a rule write moved the stamp) or another shop', () => {
    const cache = new RulesCache();
    cache.remember(SHOP_A, 3, ['1'], [], [rule('product', '1')]);
    expect(cache.lookup(SHOP_A, 4, ['1'], [])).toEqual({
      rules: [],
      missingProductIds: ['1'],
      missingTypeKeys: [],
    });
    expect(cache.lookup(SHOP_B, 3, ['1'], [])).toEqual({
      rules: [],
      missingProductIds: ['1'],
      missingTypeKeys: [],
    });
  });

  it('a newer version replaces the entry; a read at an older version than the entry is dropped', () => {
    const cache = new RulesCache();
    const old = rule('product', '1', 10);
    const current = rule('product', '1', 20);
    cache.remember(SHOP_A, 3, ['1'], [], [old]);
    cache.remember(SHOP_A, 5, ['1'], [], [current]);
    expect(cache.lookup(SHOP_A, 5, ['1'], []).rules).toEqual([current]);
    // a slower reader of version 4 finishes last: its rules may be older, they are not kept
    cache.remember(SHOP_A, 4, ['2'], [], [rule('product', '2')]);
    expect(cache.lookup(SHOP_A, 5, ['2'], []).missingProductIds).toEqual(['2']);
    expect(cache.lookup(SHOP_A, 4, ['2'], []).missingProductIds).toEqual(['2']);
    expect(cache.weight).toBe(2);
  });

  it('a key already held keeps its rules (two readers of one version add no weight twice)', () => {
    const cache = new RulesCache();
    const r = rule('productType', 'lamps');
    cache.remember(SHOP_A, 1, [], ['lamps'], [r]);
    cache.remember(SHOP_A, 1, [], ['lamps'], [r]);
    expect(cache.lookup(SHOP_A, 1, [], ['lamps']).rules).toEqual([r]);
    expect(cache.weight).toBe(2);
  });

  it('holds at most maxWeight rules and keys, dropping the least recently used shops first', () => {
    const cache = new RulesCache(10);
    const shops = Array.from({ length: 4 }, () => new Types.ObjectId().toHexString());
    // 3 keys + 1 rule each: 4 per shop
    for (const s of shops.slice(0, 2)) cache.remember(s, 1, ['1', '2', '3'], [], [rule('product', '1')]);
    expect(cache.weight).toBe(8);
    cache.lookup(shops[0], 1, ['1'], []); // shops[0] used last: shops[1] is now the oldest
    cache.remember(shops[2], 1, ['1', '2', '3'], [], [rule('product', '1')]);
    expect(cache.weight).toBe(8);
    expect(cache.shopCount).toBe(2);
    expect(cache.lookup(shops[1], 1, ['1'], []).missingProductIds).toEqual(['1']);
    expect(cache.lookup(shops[0], 1, ['1'], []).missingProductIds).toEqual([]);
    // one shop heavier than the whole bound is not kept at all
    cache.remember(
      shops[3],
      1,
      Array.from({ length: 11 }, (_, i) => String(i)),
      [],
      [],
    );
    expect(cache.weight).toBeLessThanOrEqual(10);
    expect(cache.lookup(shops[3], 1, ['0'], []).missingProductIds).toEqual(['0']);
  });

  it('stays within its bound under many shops and keys', () => {
    const cache = new RulesCache(1_000);
    for (let i = 0; i < 500; i++) {
      const ids = Array.from({ length: 7 }, (_, k) => String(i * 10 + k));
      cache.remember(
        new Types.ObjectId().toHexString(),
        1,
        ids,
        [],
        ids.map((id) => rule('product', id)),
      );
      expect(cache.weight).toBeLessThanOrEqual(1_000);
    }
    expect(cache.shopCount).toBe(Math.floor(1_000 / 14));
  });
});

describe('rulesStampOf', () => {
  const now = new Date('2026-11-28T04:00:00.000Z');
  const ago = (ms: number) => new Date(now.getTime() - ms);

  it('a shop stored before the stamp: version 0, cacheable', () => {
    expect(rulesStampOf({}, now)).toEqual({ version: 0, cacheable: true });
  });

  it('no write in flight: cacheable at its version', () => {
    expect(rulesStampOf({ rulesVersion: 6, rulesWriting: 0, rulesWriteAt: ago(5) }, now)).toEqual({
      version: 6,
      cacheable: true,
    });
  });

  it('a write in flight: not cacheable, until its start is a claim lifetime old (a writer that died)', () => {
    expect(rulesStampOf({ rulesVersion: 7, rulesWriting: 1, rulesWriteAt: ago(10) }, now).cacheable).toBe(
      false,
    );
    expect(
      rulesStampOf({ rulesVersion: 7, rulesWriting: 1, rulesWriteAt: ago(CLAIM_TTL_MS - 1) }, now).cacheable,
    ).toBe(false);
    expect(
      rulesStampOf({ rulesVersion: 7, rulesWriting: 1, rulesWriteAt: ago(CLAIM_TTL_MS) }, now).cacheable,
    ).toBe(true);
  });
});
