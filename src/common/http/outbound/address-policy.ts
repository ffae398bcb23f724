import { BlockList, isIP, isIPv4 } from 'node:net';

/**
 * Addresses an outbound call must never reach unless a policy allows private targets: the IANA
 * special-purpose registries (RFC 6890 and successors) — unspecified, loopback, private, shared
 * (CGNAT), link-local (cloud metadata at 169.254.169.254), documentation, benchmarking, multicast,
 * reserved and broadcast, for IPv4 and IPv6.
 */
const nonPublic = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  nonPublic.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16], // 6to4: embeds an IPv4 address we would have to re-check
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  nonPublic.addSubnet(net, prefix, 'ipv6');
}

/** The IPv4 address inside `::ffff:a.b.c.d` / `::ffff:0102:0304`, NAT64 `64:ff9b::…` or `::a.b.c.d`. */
function embeddedIpv4(address: string): string | null {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|64:ff9b::|::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hex) {
    const hi = parseInt(hex[1], 16);
    const lo = parseInt(hex[2], 16);
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return null;
}

/** True only for a syntactically valid address that is globally routable. */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 0) return false;
  if (isIPv4(bare)) return !nonPublic.check(bare, 'ipv4');
  const v4 = embeddedIpv4(bare);
  if (v4 !== null) return isIPv4(v4) && !nonPublic.check(v4, 'ipv4');
  return !nonPublic.check(bare, 'ipv6');
}
