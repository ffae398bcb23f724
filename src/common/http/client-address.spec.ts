import { parseTrustProxy } from '../../config/trust-proxy';
import { addressBucket, expandIPv6 } from './client-address';

describe('client address buckets (sign-in limits)', () => {
  it('counts every address of one IPv6 /64 as one client (issue 18)', () => {
    const a = addressBucket('2001:db8:1:2::1');
    expect(a).toBe('2001:db8:1:2::/64');
    for (const other of [
      '2001:db8:1:2:ffff:ffff:ffff:ffff',
      '2001:0db8:0001:0002:abcd::9',
      '2001:DB8:1:2:0:0:0:2',
      '[2001:db8:1:2::3]',
      '2001:db8:1:2::4%eth0',
    ])
      expect(addressBucket(other)).toBe(a);
    // the next /64 is another client
    expect(addressBucket('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(
      new Set(Array.from({ length: 1000 }, (_, i) => addressBucket(`2001:db8:1:2::${i.toString(16)}`))).size,
    ).toBe(1);
  });

  it('an IPv4-mapped IPv6 address is its IPv4 address; IPv4 addresses are themselves', () => {
    expect(addressBucket('::ffff:127.0.0.2')).toBe('127.0.0.2');
    expect(addressBucket('::FFFF:7f00:3')).toBe('127.0.0.3');
    expect(addressBucket('10.1.2.3')).toBe('10.1.2.3');
    expect(addressBucket('10.1.2.4')).not.toBe(addressBucket('10.1.2.3'));
  });

  it('never throws: empty and unparsable inputs are buckets of their own', () => {
    expect(addressBucket(undefined)).toBe('unknown');
    expect(addressBucket('')).toBe('unknown');
    expect(addressBucket('not-an-ip')).toBe('not-an-ip');
  });

  it('expands IPv6 text forms to eight groups', () => {
    expect(expandIPv6('::')).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect(expandIPv6('::1')).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
    expect(expandIPv6('1::')).toEqual([1, 0, 0, 0, 0, 0, 0, 0]);
    expect(expandIPv6('64:ff9b::192.0.2.33')).toEqual([0x64, 0xff9b, 0, 0, 0, 0, 0xc000, 0x0221]);
    expect(expandIPv6('1:2:3:4:5:6:7:8')).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    for (const bad of ['1::2::3', '1:2:3', '12345::', '1:2:3:4:5:6:7:8::', 'g::1'])
      expect(expandIPv6(bad)).toBeNull();
  });
});

describe('TRUST_PROXY', () => {
  it('is off unless set: the socket peer is the client, X-Forwarded-For ignored', () => {
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy('')).toBe(false);
    expect(parseTrustProxy('false')).toBe(false);
  });

  it('takes a hop count or a list of proxy addresses/CIDRs', () => {
    expect(parseTrustProxy('1')).toBe(1);
    expect(parseTrustProxy('10.0.0.0/8, 192.168.1.7,loopback')).toEqual([
      '10.0.0.0/8',
      '192.168.1.7',
      'loopback',
    ]);
    expect(parseTrustProxy('2001:db8::/32')).toEqual(['2001:db8::/32']);
  });

  it('refuses `true` (any client could pick its address) and malformed entries', () => {
    for (const bad of ['true', '0', '11', '10.0.0.0/33', '::/129', 'proxy.example.com', '1.2.3.4/8/1'])
      expect(parseTrustProxy(bad)).toBeNull();
  });
});
