import type { FastifyReply } from 'fastify';

/** Success statuses a handler chose at run time, by reply (read by IdempotencyInterceptor). */
const chosen = new WeakMap<object, number>();

/**
 * Answers with `status` instead of the route's `@HttpCode` (e.g. a create route's `?dryRun=true`
 * answering 200, not 201), so that an `Idempotency-Key` replay answers the same status too. Use
 * with `@Res({ passthrough: true })`.
 */
export function answerStatus(reply: FastifyReply, status: number): void {
  void reply.status(status);
  chosen.set(reply, status);
}

/** The status `answerStatus` chose for this reply, if any. */
export function chosenStatus(reply: object): number | undefined {
  return chosen.get(reply);
}
