import { randomBytes } from 'node:crypto';
import { randomBase62 } from '../common/crypto';
import { VENDOR_SCOPES, type VendorScope } from '../common/auth/scopes';

export const VENDOR_KEY_PREFIX = 'vk_live_';
/** `vk_live_` + lookup id (the shop id, then 8 random hex) + `_` + a 40-character base62 secret. */
const KEY_RE = /^vk_live_([0-9a-f]{24})([0-9a-f]{8})_([A-Za-z0-9]{40})$/;

export interface ParsedVendorKey {
  shopId: string;
  lookupId: string;
  secret: string;
}

/** Whether a raw API key is a vendor key (told apart from `mk_live_` merchant keys by its prefix). */
export function isVendorKey(rawKey: unknown): boolean {
  return typeof rawKey === 'string' && rawKey.startsWith(VENDOR_KEY_PREFIX);
}

/** The parts of a well-formed vendor key, or null. */
export function parseVendorKey(rawKey: unknown): ParsedVendorKey | null {
  const m = typeof rawKey === 'string' ? KEY_RE.exec(rawKey) : null;
  return m ? { shopId: m[1], lookupId: m[1] + m[2], secret: m[3] } : null;
}

/** A new key of this shop: its lookup id, secret and the full key shown once. */
export function mintVendorKey(shopId: string): { lookupId: string; secret: string; key: string } {
  const lookupId = shopId + randomBytes(4).toString('hex');
  const secret = randomBase62(40);
  return { lookupId, secret, key: `${VENDOR_KEY_PREFIX}${lookupId}_${secret}` };
}

/** The non-secret start of a key, to recognise it in lists. */
export function vendorKeyPrefix(lookupId: string): string {
  return `${VENDOR_KEY_PREFIX}${lookupId}_…`;
}

/** Scopes in the catalogue's order, each once (what is stored and shown). */
export function normaliseScopes(scopes: readonly VendorScope[]): VendorScope[] {
  return VENDOR_SCOPES.filter((s) => scopes.includes(s));
}

/** The scopes among `wanted` that `held` lacks (`held` undefined: every scope is held). */
export function missingScopes(
  wanted: readonly VendorScope[],
  held: readonly VendorScope[] | undefined,
): VendorScope[] {
  if (held === undefined) return [];
  return normaliseScopes(wanted).filter((s) => !held.includes(s));
}
