import {
  isVendorKey,
  mintVendorKey,
  missingScopes,
  normaliseScopes,
  parseVendorKey,
  vendorKeyPrefix,
} from './vendor-key-format';

const SHOP = '6740b9f1c2a4e15b3c9d0a10';

describe('vendor key format', () => {
  it('mints vk_live_ + the shop id + 8 hex + _ + a 40-character secret, and parses it back', () => {
    const { key, lookupId, secret } = mintVendorKey(SHOP);
    expect(key).toMatch(/^vk_live_6740b9f1c2a4e15b3c9d0a10[0-9a-f]{8}_[A-Za-z0-9]{40}$/);
    expect(lookupId.startsWith(SHOP)).toBe(true);
    expect(parseVendorKey(key)).toEqual({ shopId: SHOP, lookupId, secret });
    expect(mintVendorKey(SHOP).key).not.toBe(key);
  });

  it('refuses merchant keys and malformed vendor keys', () => {
    const { key } = mintVendorKey(SHOP);
    expect(parseVendorKey(key.replace('vk_live_', 'mk_live_'))).toBeNull();
    expect(parseVendorKey(key.slice(0, -1))).toBeNull();
    expect(parseVendorKey(`${key}x`)).toBeNull();
    expect(parseVendorKey(key.replace('_', '-'))).toBeNull();
    expect(parseVendorKey(42)).toBeNull();
    expect(isVendorKey(key)).toBe(true);
    expect(isVendorKey('mk_live_abc')).toBe(false);
    expect(isVendorKey(undefined)).toBe(false);
  });

  it('shows a prefix without the secret', () => {
    const { key, lookupId, secret } = mintVendorKey(SHOP);
    const prefix = vendorKeyPrefix(lookupId);
    expect(key.startsWith(prefix.slice(0, -1))).toBe(true);
    expect(prefix).not.toContain(secret);
  });

  it('orders scopes as the catalogue does and names the ones a holder lacks', () => {
    expect(normaliseScopes(['payouts:read', 'orders:read'])).toEqual(['orders:read', 'payouts:read']);
    expect(missingScopes(['payouts:read', 'orders:read'], ['orders:read'])).toEqual(['payouts:read']);
    expect(missingScopes(['orders:read'], ['orders:read', 'products:read'])).toEqual([]);
    expect(missingScopes(['payouts:read'], undefined)).toEqual([]);
    expect(missingScopes(['payouts:read'], [])).toEqual(['payouts:read']);
  });
});
