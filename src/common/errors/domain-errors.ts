/** Stable machine-readable error codes of the V2 envelope (also the localisation keys). */
export type ErrorCode =
  | 'VALIDATION_ERROR'
  | 'BAD_REQUEST'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'GONE'
  | 'ADJUSTMENT_PAID'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'RATE_LIMITED'
  | 'IDEMPOTENCY_KEY_MISMATCH'
  | 'IDEMPOTENCY_IN_PROGRESS'
  | 'SERVICE_UNAVAILABLE'
  | 'INTERNAL_SERVER_ERROR';

/**
 * Errors the services throw. They carry everything both API generations need: the status, the
 * V2 code and details, and `extra` top-level fields for the v1 body (e.g. `vendorName` on 409).
 */
export class DomainError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
    readonly extra?: Record<string, unknown>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class ValidationError extends DomainError {
  constructor(message: string, details?: Record<string, unknown>) {
    super(422, 'VALIDATION_ERROR', message, details);
  }
}

export class BadRequestError extends DomainError {
  constructor(message: string) {
    super(400, 'BAD_REQUEST', message);
  }
}

export class UnauthorizedError extends DomainError {
  constructor(message = 'Missing or invalid access token') {
    super(401, 'UNAUTHORIZED', message);
  }
}

export class ForbiddenError extends DomainError {
  constructor(
    message = 'This credential is not allowed to use this endpoint',
    details?: Record<string, unknown>,
  ) {
    super(403, 'FORBIDDEN', message, details);
  }
}

export class NotFoundError extends DomainError {
  constructor(resource = 'Resource') {
    super(404, 'NOT_FOUND', `${resource} not found`);
  }
}

export class ConflictError extends DomainError {
  constructor(message: string, extra?: Record<string, unknown>) {
    super(409, 'CONFLICT', message, extra, extra);
  }
}

/** A resource that existed and is gone for good (an expired signed link): retrying will not help. */
export class GoneError extends DomainError {
  constructor(message: string) {
    super(410, 'GONE', message);
  }
}

export class AdjustmentPaidError extends DomainError {
  constructor(message = 'A PAID payout adjustment cannot be changed') {
    super(409, 'ADJUSTMENT_PAID', message);
  }
}

export class RateLimitedError extends DomainError {
  constructor(retryAfterSeconds: number, message = 'Too many attempts; try again later') {
    super(429, 'RATE_LIMITED', message, { retryAfterSeconds }, undefined, {
      'retry-after': String(retryAfterSeconds),
    });
  }
}

/** The same Idempotency-Key again, with a different request (method, path, query or body). */
export class IdempotencyKeyMismatchError extends DomainError {
  constructor() {
    super(
      422,
      'IDEMPOTENCY_KEY_MISMATCH',
      'This Idempotency-Key was already used with a different request (method, path, query or body); use a new key',
    );
  }
}

/** The same Idempotency-Key while its first request is still running. */
export class IdempotencyInProgressError extends DomainError {
  constructor(retryAfterSeconds: number) {
    super(
      409,
      'IDEMPOTENCY_IN_PROGRESS',
      'A request with this Idempotency-Key is still being processed; retry once it has finished',
      { retryAfterSeconds },
      undefined,
      { 'retry-after': String(retryAfterSeconds) },
    );
  }
}

/**
 * Not an error: the stored answer of an earlier request with the same Idempotency-Key. Thrown by
 * the idempotency interceptor so the exception filter sends it verbatim (status and body as first
 * answered, with `Idempotent-Replayed: true`) instead of the route's own status.
 */
export class ReplayedResponse extends Error {
  constructor(
    readonly status: number,
    readonly bodyText: string,
  ) {
    super('Replayed response');
    this.name = 'ReplayedResponse';
  }
}

/** Seconds a client should wait before retrying when a backing service is unreachable. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/**
 * MongoDB or Redis cannot be reached (or did not answer in time): a 503 with Retry-After, so
 * callers (and the store platform) retry instead of giving up. Logged with an errorId like any 5xx.
 */
export class ServiceUnavailableError extends DomainError {
  constructor(message = 'The service is temporarily unavailable; retry shortly') {
    super(503, 'SERVICE_UNAVAILABLE', message, undefined, undefined, {
      'retry-after': String(UNAVAILABLE_RETRY_AFTER_SECONDS),
    });
  }
}
