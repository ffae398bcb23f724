import { promises as dnsPromises } from 'node:dns';
import { isIP } from 'node:net';
import { OutboundHttpError } from './outbound-error';

/** One address a host name resolves to. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name (or IP literal) for an outbound call; a failure is an OutboundHttpError. */
export interface HostResolver {
  resolve(host: string): Promise<ResolvedAddress[]>;
}

/** The DNS queries the resolver makes: `dns.promises.Resolver`'s, so a test can inject its own. */
export interface DnsQueries {
  resolve4(host: string, options: { ttl: true }): Promise<Array<{ address: string; ttl: number }>>;
  resolve6(host: string, options: { ttl: true }): Promise<Array<{ address: string; ttl: number }>>;
}

export interface CachingResolverOptions {
  /** Longest time an answer is reused, whatever its records' TTL says (ms). */
  maxTtlMs: number;
  /** How long a failed name (no such name, no address, timeout, server failure) is refused without asking again (ms). */
  negativeTtlMs: number;
  /** Names remembered at most (the oldest entry goes first). */
  maxEntries: number;
  now?: () => number;
}

/** c-ares per query: 2.5 s, two tries (the delivery deadline of 15 s covers DNS too). */
const QUERY_TIMEOUT_MS = 2500;
const QUERY_TRIES = 2;
export const DEFAULT_RESOLVER_OPTIONS: CachingResolverOptions = {
  maxTtlMs: 60_000,
  negativeTtlMs: 10_000,
  maxEntries: 10_000,
};

const LOOPBACK: ResolvedAddress[] = [
  { address: '127.0.0.1', family: 4 },
  { address: '::1', family: 6 },
];
/** Answers for one family that only mean "nothing of this family" (the other may have some). */
const NO_RECORDS = new Set(['ENODATA', 'ENOTFOUND', 'ENONAME', 'EBADRESP']);

type Entry = { until: number } & ({ addresses: ResolvedAddress[] } | { error: OutboundHttpError });

/**
 * The outbound guard's name resolution, off the libuv thread pool (issue 28). `dns.lookup` runs
 * getaddrinfo on one of the pool's 4 threads, shared with argon2 sign-ins and file I/O: a few slow
 * names from a shop's endpoint list stalled every sign-in of the process. This resolver uses
 * `dns.promises.Resolver` (c-ares: non-blocking sockets on the event loop, no pool thread) and asks
 * A and AAAA at once. It caches answers for their records' TTL (capped) and failures for a short
 * negative TTL, and shares one query among concurrent callers of the same name.
 *
 * Semantics, decided: IP literals are used as they are; `localhost` and `*.localhost` are loopback
 * (RFC 6761) without a query; every other name goes to the DNS servers of /etc/resolv.conf and
 * `/etc/hosts` is NOT read (a name only in /etc/hosts does not resolve: use the address, or a DNS
 * record). The guard checks every address returned, wherever it came from.
 */
export class CachingResolver implements HostResolver {
  private readonly cache = new Map<string, Entry>();
  private readonly inFlight = new Map<string, Promise<ResolvedAddress[]>>();
  private readonly now: () => number;

  constructor(
    private readonly dns: DnsQueries = new dnsPromises.Resolver({
      timeout: QUERY_TIMEOUT_MS,
      tries: QUERY_TRIES,
    }),
    private readonly options: CachingResolverOptions = DEFAULT_RESOLVER_OPTIONS,
  ) {
    this.now = options.now ?? Date.now;
  }

  resolve(host: string): Promise<ResolvedAddress[]> {
    const name = host
      .replace(/^\[|\]$/g, '')
      .replace(/\.$/, '')
      .toLowerCase();
    const family = isIP(name);
    if (family) return Promise.resolve([{ address: name, family: family as 4 | 6 }]);
    if (name === 'localhost' || name.endsWith('.localhost'))
      return Promise.resolve(LOOPBACK.map((a) => ({ ...a })));
    const hit = this.cache.get(name);
    if (hit && hit.until > this.now()) {
      return 'error' in hit
        ? Promise.reject(hit.error)
        : Promise.resolve(hit.addresses.map((a) => ({ ...a })));
    }
    if (hit) this.cache.delete(name);
    const running = this.inFlight.get(name);
    if (running) return running.then((list) => list.map((a) => ({ ...a })));
    const query = this.query(name).finally(() => this.inFlight.delete(name));
    this.inFlight.set(name, query);
    return query.then((list) => list.map((a) => ({ ...a })));
  }

  private async query(name: string): Promise<ResolvedAddress[]> {
    const [v4, v6] = await Promise.allSettled([
      this.dns.resolve4(name, { ttl: true }),
      this.dns.resolve6(name, { ttl: true }),
    ]);
    const records = [
      ...(v4.status === 'fulfilled' ? v4.value.map((r) => ({ ...r, family: 4 as const })) : []),
      ...(v6.status === 'fulfilled' ? v6.value.map((r) => ({ ...r, family: 6 as const })) : []),
    ];
    if (records.length === 0) {
      const codes = [v4, v6].map((r) =>
        r.status === 'rejected' ? (r.reason as { code?: string })?.code : 'ENODATA',
      );
      const missing = codes.every((c) => c !== undefined && NO_RECORDS.has(c));
      const error = new OutboundHttpError(
        'network',
        missing
          ? `The host ${name} could not be resolved`
          : `The host ${name} could not be resolved (DNS failure)`,
      );
      this.remember(name, { until: this.now() + this.options.negativeTtlMs, error });
      throw error;
    }
    const ttlMs = Math.min(...records.map((r) => r.ttl * 1000), this.options.maxTtlMs);
    const addresses = records.map(({ address, family }) => ({ address, family }));
    if (ttlMs > 0) this.remember(name, { until: this.now() + ttlMs, addresses });
    return addresses;
  }

  private remember(name: string, entry: Entry): void {
    if (this.cache.size >= this.options.maxEntries) {
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
    this.cache.set(name, entry);
  }
}

let shared: HostResolver | null = null;

/** The process's resolver (one cache for events, the store platform and payout providers). */
export function sharedResolver(): HostResolver {
  shared ??= new CachingResolver();
  return shared;
}
