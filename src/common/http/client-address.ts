import { isIP } from 'node:net';

/**
 * The bucket a client address is counted in by the sign-in limits: an IPv4 address as itself, an
 * IPv6 address by its /64 (one customer's allocation: a single host can use 2^64 of them, so
 * counting full addresses would give an attacker unlimited buckets), an IPv4-mapped IPv6 address
 * (`::ffff:a.b.c.d`, what a dual-stack socket reports for an IPv4 peer) as its IPv4 address.
 * Anything unparsable is one bucket of its own name (never an exception on the sign-in path).
 */
export function addressBucket(address: string | undefined | null): string {
  const raw = (address ?? '')
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '');
  if (!raw) return 'unknown';
  const zoneless = raw.split('%')[0];
  if (isIP(zoneless) === 4) return zoneless;
  if (isIP(zoneless) !== 6) return raw;
  const groups = expandIPv6(zoneless);
  if (!groups) return raw;
  // ::ffff:a.b.c.d (IPv4-mapped) is an IPv4 peer.
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [groups[6] >> 8, groups[6] & 0xff, groups[7] >> 8, groups[7] & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (with `::` and a trailing dotted IPv4 part). */
export function expandIPv6(address: string): number[] | null {
  let text = address;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const b = dotted.slice(1).map(Number);
    if (b.some((x) => x > 255)) return null;
    const hex = (hi: number, lo: number) => ((hi << 8) | lo).toString(16);
    text = `${text.slice(0, dotted.index)}${hex(b[0], b[1])}:${hex(b[2], b[3])}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const parse = (s: string) =>
    s === '' ? [] : s.split(':').map((h) => (/^[0-9a-f]{1,4}$/.test(h) ? parseInt(h, 16) : NaN));
  const head = parse(halves[0]);
  const rest = halves.length === 2 ? parse(halves[1]) : [];
  const missing = 8 - head.length - rest.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...new Array<number>(missing).fill(0), ...rest];
  return groups.every((g) => Number.isInteger(g)) ? groups : null;
}
