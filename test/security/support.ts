/* eslint-disable @typescript-eslint/no-explicit-any */
import { request } from 'node:http';
import { startApp, TestApp } from '../support/app';

export interface AddressedResponse {
  status: number;
  body: any;
  headers: Record<string, string | string[] | undefined>;
}

/**
 * A client whose socket is bound to one loopback address (127.0.0.2, 127.0.0.3, …): to the app it
 * is a distinct client address, as another machine would be. fetch cannot bind a local address,
 * hence node:http here (a test helper; the service's own outbound calls use outbound-http.ts).
 */
export function fromAddress(baseUrl: string, localAddress: string) {
  const send = (
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<AddressedResponse> =>
    new Promise((resolve, reject) => {
      const url = new URL(path, baseUrl);
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname + url.search,
          method,
          localAddress,
          agent: false,
          headers: {
            ...headers,
            ...(payload !== undefined
              ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) }
              : {}),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let parsed: unknown = text;
            try {
              parsed = text ? JSON.parse(text) : undefined;
            } catch {
              // not JSON: keep the text
            }
            resolve({ status: res.statusCode ?? 0, body: parsed, headers: res.headers });
          });
        },
      );
      req.on('error', reject);
      if (payload !== undefined) req.write(payload);
      req.end();
    });
  return {
    post: (path: string, body?: unknown, headers?: Record<string, string>) =>
      send('POST', path, body, headers),
    get: (path: string, headers?: Record<string, string>) => send('GET', path, undefined, headers),
  };
}

/** `127.0.0.<n>`: distinct client addresses on one machine. */
export const loopback = (n: number) => `127.0.0.${n}`;

const REAL_LIMITS = [
  'RATE_LIMIT_SIGN_IN_PER_ADDRESS',
  'SIGN_IN_FAILURES_PER_ADDRESS',
  'SIGN_IN_FAILURES_PER_ADDRESS_PER_DAY',
  'SIGN_IN_FAILURES_PER_ACCOUNT_PER_HOUR',
];

/**
 * An app with the production sign-in limits (the e2e environment lifts them for every other file),
 * its own Redis counters (own key prefix) and the given extra environment; restored on close.
 */
export async function startAppWithRealLimits(
  tag: string,
  extra: Record<string, string> = {},
): Promise<TestApp> {
  const saved: Record<string, string | undefined> = {};
  const keys = [...REAL_LIMITS, 'QUEUE_PREFIX', ...Object.keys(extra)];
  for (const k of keys) saved[k] = process.env[k];
  for (const k of REAL_LIMITS) delete process.env[k];
  Object.assign(process.env, extra, {
    QUEUE_PREFIX: `${saved.QUEUE_PREFIX ?? 'mp-test'}-sec-${tag}-${process.pid}-${Date.now().toString(36)}`,
  });
  let t: TestApp;
  try {
    t = await startApp();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
  return t;
}
