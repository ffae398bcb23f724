import { randomUUID } from 'node:crypto';
import { HttpException } from '@nestjs/common';
import { DomainError, ErrorCode, ServiceUnavailableError } from './domain-errors';
import { isServiceUnavailable } from './unavailable';
import { isDuplicateKeyError } from './duplicate-key';

export type ApiGeneration = 'v1' | 'v2';

export interface ErrorResponse {
  status: number;
  body: Record<string, unknown>;
  headers: Record<string, string>;
  /** Set for 5xx: the correlation id that is logged together with the cause. */
  errorId?: string;
  /** A backing service is unreachable (503): logged as a warning, not an error. */
  unavailable?: boolean;
}

const V2_PREFIXES = [
  '/v2/',
  '/v2?',
  '/authenticate',
  '/refresh-token',
  '/orders',
  '/payout-method',
  '/fulfillments',
  '/products',
  '/payouts',
  '/dashboard',
  '/settings',
  '/documents',
  // the vendor's own resources on the vendor surface (DESIGN §12, §14: /vendors/me/tax-profile)
  '/vendors/me/',
];

/** v1 answers `{error}`; V2 (and the unprefixed merchant/vendor routes) answer the V2 envelope. */
export function generationOf(url: string): ApiGeneration {
  const path = url || '/';
  return path === '/v2' || V2_PREFIXES.some((p) => path.startsWith(p)) ? 'v2' : 'v1';
}

/** The V2 code of an HTTP status (anything else a client caused is BAD_REQUEST); the documents' examples use it too. */
export const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  410: 'GONE',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'VALIDATION_ERROR',
  429: 'RATE_LIMITED',
  500: 'INTERNAL_SERVER_ERROR',
  503: 'SERVICE_UNAVAILABLE',
};

const FASTIFY_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'Malformed JSON body',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'A JSON body was declared but is empty',
  FST_ERR_CTP_BODY_TOO_LARGE: 'Request body is larger than 1 MB',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Unsupported Content-Type; send application/json',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'Content-Length does not match the body',
};

interface Classified {
  status: number;
  code: ErrorCode;
  message: string;
  details?: Record<string, unknown>;
  extra?: Record<string, unknown>;
  headers?: Record<string, string>;
}

function classify(err: unknown): Classified | undefined {
  if (err instanceof DomainError) {
    return {
      status: err.status,
      code: err.code,
      message: err.message,
      details: err.details,
      extra: err.extra,
      headers: err.headers,
    };
  }
  if (err instanceof HttpException) {
    const status = err.getStatus();
    if (status >= 500) return undefined;
    const res = err.getResponse();
    const raw = typeof res === 'string' ? res : (res as { message?: unknown }).message;
    const message =
      status === 404 && /^Cannot /.test(String(raw))
        ? 'Route not found'
        : Array.isArray(raw)
          ? raw.join('; ')
          : String(raw ?? err.message);
    return { status, code: CODE_BY_STATUS[status] ?? 'BAD_REQUEST', message };
  }
  const e = err as {
    name?: string;
    code?: unknown;
    statusCode?: unknown;
    kind?: string;
    path?: string;
    message?: string;
  };
  if (
    typeof e?.code === 'string' &&
    e.code.startsWith('FST_') &&
    typeof e.statusCode === 'number' &&
    e.statusCode < 500
  ) {
    return {
      status: e.statusCode,
      code: CODE_BY_STATUS[e.statusCode] ?? 'BAD_REQUEST',
      message: FASTIFY_MESSAGES[e.code] ?? 'Bad request',
    };
  }
  if (e?.name === 'CastError') return { status: 404, code: 'NOT_FOUND', message: 'Resource not found' };
  if (e?.name === 'MongoServerError' && isDuplicateKeyError(e)) {
    return { status: 409, code: 'CONFLICT', message: 'A record with the same unique value already exists' };
  }
  return undefined;
}

/** The one mapping from any thrown value to the HTTP answer, shared by the Nest filter and Fastify's error handler. */
export function toErrorResponse(err: unknown, url: string): ErrorResponse {
  const generation = generationOf(url);
  if (isServiceUnavailable(err) && !(err instanceof DomainError)) err = new ServiceUnavailableError();
  const known = classify(err);
  if (!known) {
    const errorId = randomUUID();
    const message = 'An unexpected error occurred; quote the errorId when contacting support';
    const body =
      generation === 'v1'
        ? { error: message, errorId }
        : { success: false, error: { message, code: 'INTERNAL_SERVER_ERROR', errorId } };
    return { status: 500, body, headers: {}, errorId };
  }
  // A 5xx the code chose (503) carries an errorId like any 5xx, and never details.
  const errorId = known.status >= 500 ? randomUUID() : undefined;
  const body =
    generation === 'v1'
      ? { error: known.message, ...(known.extra ?? {}), ...(errorId ? { errorId } : {}) }
      : {
          success: false,
          error: {
            message: known.message,
            code: known.code,
            ...(known.details && !errorId ? { details: known.details } : {}),
            ...(errorId ? { errorId } : {}),
          },
        };
  return {
    status: known.status,
    body,
    headers: known.headers ?? {},
    ...(errorId ? { errorId, unavailable: known.status === 503 } : {}),
  };
}
