import type {
  HeaderObject,
  OpenAPIObject,
  ResponseObject,
} from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { NO_RATE_LIMIT_HEADERS } from '../common/http/openapi-keys';
import { operationsOf } from './operations';

const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });

/** Headers every answer can carry, whatever the route (app.factory.ts: CORS, request ids). */
const COMMON_HEADERS: Record<string, HeaderObject> = {
  'Access-Control-Allow-Origin': {
    description:
      'Only when CORS_ORIGINS is configured and the request’s `Origin` is allowed: that origin, or `*` ' +
      'when any origin is. Browsers refuse a cross-origin answer without it.',
    required: false,
    schema: { type: 'string', maxLength: 2048 },
  },
  'X-Request-Id': {
    description:
      "The caller's own `x-request-id` when it sent a well-formed one (1–128 of A–Z a–z 0–9 . _ : -), echoed; " +
      'otherwise our id of the request. Our id is always the one the request is logged and audited under ' +
      '(`reqId`, `requestId`), the caller’s beside it (`clientRequestId`); a malformed one is ignored',
    required: true,
    schema: { type: 'string', maxLength: 128 },
  },
};

const seconds = { type: 'integer', format: 'int32', minimum: 0, maximum: 86_400 } as const;

/** The IETF draft trio the rate-limit guards set (common/rate-limits/rate-limit.guards.ts). */
const RATE_LIMIT_HEADERS: Record<string, HeaderObject> = {
  'RateLimit-Limit': {
    description:
      'Requests allowed in the current one-minute window for this credential (or sign-in address/shop)',
    required: true,
    schema: { type: 'integer', format: 'int32', minimum: 1, maximum: 1_000_000 },
  },
  'RateLimit-Remaining': {
    description: 'Requests left in the current window',
    required: true,
    schema: { type: 'integer', format: 'int32', minimum: 0, maximum: 1_000_000 },
  },
  'RateLimit-Reset': {
    description: 'Seconds until the window resets',
    required: true,
    schema: seconds,
  },
};

const IDEMPOTENCY_HEADERS: Record<string, HeaderObject> = {
  'Idempotent-Replayed': {
    description:
      '`true` when this answer is the stored answer of an earlier request with the same Idempotency-Key',
    required: false,
    schema: { type: 'string', enum: ['true'] },
  },
};

const refs = (headers: Record<string, HeaderObject>) =>
  Object.fromEntries(Object.keys(headers).map((name) => [name, ref(name)]));

/**
 * Which answers of a rate-limited operation carry RateLimit-*: every answer once its limit was
 * counted. The count comes after the body is parsed (400, 413 have none) and, for a token, after
 * the token was verified (its 401 has none; a sign-in's 401 comes after the count).
 */
function rateLimited(status: number, signIn: boolean): boolean {
  if (status >= 500 || status === 400 || status === 413) return false;
  return status !== 401 || signIn;
}

/** A stored answer is replayed by the interceptor: after parsing and the guards, never a 5xx. */
function replayable(status: number): boolean {
  return status < 500 && ![400, 401, 403, 413, 429].includes(status);
}

/**
 * Every response of every operation documents the headers any answer carries; the answers of
 * rate-limited operations (those documenting a 429) their RateLimit-* headers; the successes of
 * operations taking an Idempotency-Key (and their stored 4xx) the replay marker.
 */
export function documentResponseHeaders(doc: OpenAPIObject): void {
  doc.components = {
    ...doc.components,
    headers: { ...doc.components?.headers, ...COMMON_HEADERS, ...RATE_LIMIT_HEADERS, ...IDEMPOTENCY_HEADERS },
  };
  for (const { op } of operationsOf(doc)) {
    // An operation whose 429 is not a credential/sign-in window (the webhook's unknown-shop
    // throttle: Retry-After only) opts out of the RateLimit-* headers (the marker stays published;
    // .spectral.yaml's rate-limit rule honours it).
    const ownLimit = (op as unknown as Record<string, unknown>)[NO_RATE_LIMIT_HEADERS] === true;
    const limited = '429' in op.responses && !ownLimit;
    const signIn = !op.security?.length;
    const idempotent = (op.parameters ?? []).some((p) => 'name' in p && p.name === 'Idempotency-Key');
    for (const [code, response] of Object.entries(op.responses) as [string, ResponseObject][]) {
      const status = Number(code);
      response.headers = {
        ...refs(COMMON_HEADERS),
        ...(limited && rateLimited(status, signIn) ? refs(RATE_LIMIT_HEADERS) : {}),
        ...(idempotent && replayable(status) ? refs(IDEMPOTENCY_HEADERS) : {}),
        ...response.headers,
      };
    }
  }
}
