import * as dgram from 'node:dgram';
import * as dns from 'node:dns';
import { readFile } from 'node:fs/promises';
import * as argon2 from 'argon2';
import { dnsError as err, lookupSpy, ScriptedDns } from '../../../../test/fakes/dns.fake';
import { CachingResolver } from './host-resolver';
import { OutboundHttpError } from './outbound-error';

describe('CachingResolver (outbound names off the libuv pool)', () => {
  let clock = 0;
  const options = { maxTtlMs: 60_000, negativeTtlMs: 10_000, maxEntries: 3, now: () => clock };
  beforeEach(() => (clock = 1_000_000));

  it('answers IP literals and localhost without any query', async () => {
    const q = new ScriptedDns();
    const r = new CachingResolver(q, options);
    expect(await r.resolve('203.0.113.9')).toEqual([{ address: '203.0.113.9', family: 4 }]);
    expect(await r.resolve('[2606:4700::1111]')).toEqual([{ address: '2606:4700::1111', family: 6 }]);
    expect(await r.resolve('LocalHost.')).toEqual([
      { address: '127.0.0.1', family: 4 },
      { address: '::1', family: 6 },
    ]);
    expect(await r.resolve('api.localhost')).toHaveLength(2);
    expect(q.asked).toEqual([]);
  });

  it('asks A and AAAA, keeps both, and reuses the answer within its TTL (capped)', async () => {
    const q = new ScriptedDns();
    q.v4.set('hooks.example.com', [{ address: '93.184.216.34', ttl: 300 }]);
    q.v6.set('hooks.example.com', [{ address: '2606:2800:220:1::1', ttl: 30 }]);
    const r = new CachingResolver(q, options);
    const first = await r.resolve('hooks.example.com');
    expect(first).toEqual([
      { address: '93.184.216.34', family: 4 },
      { address: '2606:2800:220:1::1', family: 6 },
    ]);
    clock += 29_000;
    expect(await r.resolve('HOOKS.example.com.')).toEqual(first);
    expect(q.asked).toHaveLength(2);
    clock += 2_000; // past the shortest record TTL (30 s)
    await r.resolve('hooks.example.com');
    expect(q.asked).toHaveLength(4);
  });

  it('a name with only one family resolves; a name with none fails as network', async () => {
    const q = new ScriptedDns();
    q.v4.set('v4only.example', [{ address: '198.51.100.7', ttl: 60 }]);
    q.v6.set('v4only.example', err('ENODATA'));
    const r = new CachingResolver(q, options);
    expect(await r.resolve('v4only.example')).toEqual([{ address: '198.51.100.7', family: 4 }]);
    await expect(r.resolve('nowhere.example')).rejects.toMatchObject({
      reason: 'network',
      message: 'The host nowhere.example could not be resolved',
    });
  });

  it('negative cache: a failed name is refused without a query for the negative TTL, then asked again', async () => {
    const q = new ScriptedDns();
    q.v4.set('slow.example', err('ETIMEOUT'));
    q.v6.set('slow.example', err('ETIMEOUT'));
    const r = new CachingResolver(q, options);
    await expect(r.resolve('slow.example')).rejects.toBeInstanceOf(OutboundHttpError);
    expect(q.asked).toEqual(['A slow.example', 'AAAA slow.example']);
    for (let i = 0; i < 5; i++) {
      clock += 1_900;
      await expect(r.resolve('slow.example')).rejects.toMatchObject({ reason: 'network' });
    }
    expect(q.asked).toHaveLength(2); // 9.5 s of refusals, no query
    clock += 600;
    q.v4.set('slow.example', [{ address: '192.0.2.10', ttl: 60 }]);
    expect(await r.resolve('slow.example')).toEqual([{ address: '192.0.2.10', family: 4 }]);
    expect(q.asked).toHaveLength(4);
  });

  it('one query for concurrent callers of one name; the cache is bounded', async () => {
    const q = new ScriptedDns();
    let release!: () => void;
    q.hold = new Promise((ok) => (release = ok));
    for (const n of ['a', 'b', 'c', 'd']) q.v4.set(`${n}.example`, [{ address: '192.0.2.1', ttl: 60 }]);
    const r = new CachingResolver(q, options);
    const all = Promise.all(Array.from({ length: 20 }, () => r.resolve('a.example')));
    release();
    expect(await all).toHaveLength(20);
    expect(q.asked).toEqual(['A a.example', 'AAAA a.example']);
    q.hold = null;
    for (const n of ['b', 'c', 'd']) await r.resolve(`${n}.example`);
    await r.resolve('a.example'); // evicted (3 entries at most): asked again
    expect(q.asked.filter((x) => x === 'A a.example')).toHaveLength(2);
  });

  it('never calls dns.lookup', async () => {
    const lookup = lookupSpy();
    try {
      const q = new ScriptedDns();
      q.v4.set('hooks.example.com', [{ address: '93.184.216.34', ttl: 60 }]);
      await new CachingResolver(q, options).resolve('hooks.example.com');
      await new CachingResolver(undefined, options).resolve('localhost');
      expect(lookup).not.toHaveBeenCalled();
    } finally {
      lookup.mockRestore();
    }
  });

  /**
   * The point of issue 28, measured with real c-ares queries: eight names whose DNS server never
   * answers are pending while an argon2 hash and a file read run, and neither waits for them
   * (getaddrinfo would hold all four libuv pool threads for the whole query timeout).
   */
  it('slow names do not hold the libuv pool: argon2 and fs finish while 8 queries hang', async () => {
    const silent = dgram.createSocket('udp4'); // a DNS server that never answers
    await new Promise<void>((ok) => silent.bind(0, '127.0.0.1', ok));
    try {
      const cares = new dns.promises.Resolver({ timeout: 3_000, tries: 1 });
      cares.setServers([`127.0.0.1:${silent.address().port}`]);
      const r = new CachingResolver(cares, { ...options, maxEntries: 100, now: Date.now });
      const started = Date.now();
      const hanging = Array.from({ length: 8 }, (_, i) =>
        r.resolve(`slow-${i}.example`).then(
          () => 'resolved',
          () => Date.now() - started,
        ),
      );
      await new Promise((ok) => setTimeout(ok, 50)); // the queries are out
      const t0 = Date.now();
      await Promise.all([
        argon2.hash('correct horse battery staple', { type: argon2.argon2id, memoryCost: 4096, timeCost: 2 }),
        readFile(__filename),
      ]);
      const busyMs = Date.now() - t0;
      const hungMs = await Promise.all(hanging);
      // the pool work finished long before the queries timed out (3 s): it never waited for them
      expect(busyMs).toBeLessThan(1_500);
      for (const ms of hungMs) expect(ms).toBeGreaterThanOrEqual(2_500);
    } finally {
      silent.close();
    }
  }, 15_000);
});
