import * as http from 'node:http';
import * as https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { isPublicAddress } from './address-policy';
import { type HostResolver, type ResolvedAddress, sharedResolver } from './host-resolver';
import { OutboundHttpError } from './outbound-error';

/**
 * The one way this service makes an HTTP request to anything outside it (DESIGN §11): outbound
 * events, the store platform, payout providers. Nothing else in `src/` may call `fetch`,
 * `http.request` or `https.request` (eslint refuses them outside this folder).
 *
 * What it guarantees, whatever the caller passes:
 * - only `https:` (and `http:` where the policy allows it), no credentials in the URL;
 * - the host passes the policy's host check (for example `*.myshopify.com` only);
 * - every address the host resolves to is public (loopback, private, link-local, CGNAT, multicast,
 *   reserved, IPv4-mapped and NAT64 forms of them are refused) unless the policy allows private
 *   targets; the check is made on the address actually connected to (the DNS answer is pinned in
 *   the socket's `lookup`), so a rebinding answer between check and connect cannot slip through;
 * - names are resolved with c-ares (host-resolver.ts: cached, never `dns.lookup`, whose getaddrinfo
 *   holds a libuv pool thread shared with argon2 and file I/O for as long as a slow name takes);
 * - redirects are never followed: a 3xx comes back to the caller as an answer like any other;
 * - one deadline covers DNS, connect, upload and the whole answer; the answer is cut at a size cap.
 */
export interface OutboundPolicy {
  /** Allow `http:` as well as `https:` (development and tests). */
  allowHttp: boolean;
  /** Allow loopback/private/link-local targets (development and tests only). */
  allowPrivate: boolean;
  /** Extra check on the lowercased host name (or IP literal); `false` refuses. */
  allowHost?: (hostname: string) => boolean;
  /** Overall deadline in ms (default 10 s). */
  timeoutMs?: number;
  /** Largest answer body read, in bytes (default 1 MiB); past it the call fails with `too_large`. */
  maxResponseBytes?: number;
  /** Name resolution (default: the process's c-ares resolver with its cache; never `dns.lookup`). */
  resolver?: HostResolver;
}

export interface OutboundRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export interface OutboundResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  durationMs: number;
}

export { OutboundHttpError, type OutboundRefusalReason } from './outbound-error';

export const DEFAULT_OUTBOUND_TIMEOUT_MS = 10_000;
export const DEFAULT_OUTBOUND_MAX_BYTES = 1024 * 1024;

/** Checks a URL against the policy without sending anything (create-time validation → 422). */
export async function assertOutboundUrl(url: string, policy: OutboundPolicy): Promise<URL> {
  const target = parseTarget(url, policy);
  const host = bareHost(target);
  if (isIP(host)) {
    assertAddress(host, policy);
  } else {
    const addresses = await resolverOf(policy).resolve(host);
    addresses.forEach((a) => assertAddress(a.address, policy));
  }
  return target;
}

export async function outboundRequest(
  req: OutboundRequest,
  policy: OutboundPolicy,
): Promise<OutboundResponse> {
  const target = parseTarget(req.url, policy);
  const host = bareHost(target);
  if (isIP(host)) assertAddress(host, policy);
  const timeoutMs = policy.timeoutMs ?? DEFAULT_OUTBOUND_TIMEOUT_MS;
  const maxBytes = policy.maxResponseBytes ?? DEFAULT_OUTBOUND_MAX_BYTES;
  const started = performance.now();
  const transport = target.protocol === 'https:' ? https : http;
  const body = req.body === undefined ? undefined : Buffer.from(req.body);
  const headers: Record<string, string | number> = { ...(req.headers ?? {}) };
  if (body) headers['content-length'] = body.length;

  return new Promise<OutboundResponse>((resolve, reject) => {
    let settled = false;
    const fail = (err: OutboundHttpError) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      reject(err);
    };
    const request = transport.request(
      target,
      {
        method: req.method,
        headers,
        lookup: guardedLookup(policy),
        agent: false, // no pooled socket connected under an earlier check
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) {
            fail(new OutboundHttpError('too_large', `The answer exceeded ${maxBytes} bytes`));
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve({
            status: res.statusCode ?? 0,
            headers: flattenHeaders(res.headers),
            body: Buffer.concat(chunks),
            durationMs: Math.round(performance.now() - started),
          });
        });
        res.on('error', () =>
          fail(new OutboundHttpError('network', 'The connection broke while reading the answer')),
        );
      },
    );
    const timer = setTimeout(
      () => fail(new OutboundHttpError('timeout', `No complete answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
    request.on('error', (err: Error) => {
      fail(
        err instanceof OutboundHttpError
          ? err
          : new OutboundHttpError('network', 'The target could not be reached'),
      );
    });
    if (body) request.write(body);
    request.end();
  });
}

function parseTarget(url: string, policy: OutboundPolicy): URL {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw new OutboundHttpError('url', 'Not an absolute URL');
  }
  if (target.protocol !== 'https:' && !(policy.allowHttp && target.protocol === 'http:')) {
    throw new OutboundHttpError(
      'url',
      policy.allowHttp ? 'Only http(s) URLs are allowed' : 'Only https URLs are allowed',
    );
  }
  if (target.username || target.password)
    throw new OutboundHttpError('url', 'Credentials in the URL are not allowed');
  const host = bareHost(target);
  if (policy.allowHost && !policy.allowHost(host)) {
    throw new OutboundHttpError('host', `The host ${host} is not allowed`);
  }
  return target;
}

/** `[::1]` → `::1`; names lowercased without a trailing dot. */
function bareHost(url: URL): string {
  return url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
}

function assertAddress(address: string, policy: OutboundPolicy): void {
  if (!policy.allowPrivate && !isPublicAddress(address)) {
    throw new OutboundHttpError('address', 'The target address is not a public address');
  }
}

function resolverOf(policy: OutboundPolicy): HostResolver {
  return policy.resolver ?? sharedResolver();
}

/**
 * The socket's own resolver: every resolved address must pass, and only those are connected to.
 * Node calls it with `{all: true}` when it races address families (the default on Node 20).
 */
function guardedLookup(policy: OutboundPolicy): LookupFunction {
  return (hostname, options, callback) => {
    resolverOf(policy)
      .resolve(hostname)
      .then(
        (addresses) => {
          try {
            addresses.forEach((a) => assertAddress(a.address, policy));
          } catch (err) {
            callback(err as NodeJS.ErrnoException, '', 0);
            return;
          }
          const wanted = options.family ? addresses.filter((a) => a.family === options.family) : addresses;
          if (!wanted.length) {
            callback(new OutboundHttpError('network', `The host ${hostname} has no usable address`), '', 0);
          } else if (options.all) {
            (callback as unknown as (e: null, a: ResolvedAddress[]) => void)(null, wanted);
          } else {
            callback(null, wanted[0].address, wanted[0].family);
          }
        },
        (err: OutboundHttpError) => callback(err, '', 0),
      );
  };
}

function flattenHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
}
