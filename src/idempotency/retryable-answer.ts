/**
 * A handler's answer that must not be kept for its Idempotency-Key: part of the work could not be
 * done for a passing reason (the store platform was down), and nothing was changed for that part.
 * The key is released instead of stored, so a retry with the same key does the remaining work
 * (the work already done answers for itself, e.g. "already fulfilled"), as a 5xx would. The mark is
 * a symbol property: JSON never carries it to the client.
 */
export const RETRYABLE_ANSWER: unique symbol = Symbol('retryable-answer');

export function markRetryable<T extends object>(body: T): T {
  Object.defineProperty(body, RETRYABLE_ANSWER, { value: true, enumerable: false });
  return body;
}

export function isRetryable(body: unknown): boolean {
  return !!body && typeof body === 'object' && (body as Record<symbol, unknown>)[RETRYABLE_ANSWER] === true;
}
