import { isIP } from 'node:net';

/** Fastify's `trustProxy` values TRUST_PROXY may give (never `true`: that trusts any sender). */
export type TrustProxy = false | number | string[];

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * TRUST_PROXY: unset, empty or `false` → no proxy is trusted (the socket's peer is the client; an
 * `X-Forwarded-For` header is ignored); a whole number 1–10 → that many proxy hops in front of the
 * service; otherwise a comma-separated list of proxy addresses or CIDRs (or the names `loopback`,
 * `linklocal`, `uniquelocal`), whose `X-Forwarded-For` entries are believed. Null when invalid.
 */
export function parseTrustProxy(raw: string | undefined): TrustProxy | null {
  const value = (raw ?? '').trim();
  if (value === '' || value.toLowerCase() === 'false') return false;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    return hops >= 1 && hops <= 10 ? hops : null;
  }
  const entries = value.split(',').map((e) => e.trim().toLowerCase());
  return entries.every(isProxyEntry) ? entries : null;
}

function isProxyEntry(entry: string): boolean {
  if (PROXY_NAMES.has(entry)) return true;
  const [addr, prefix, extra] = entry.split('/');
  if (extra !== undefined) return false;
  const family = isIP(addr);
  if (family === 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}
