/** An endpoint whose every attempt failed for this long is disabled. */
export const FAILING_DISABLE_AFTER_MS = 5 * 24 * 3600 * 1000;

/** A `Retry-After` longer than this is capped (a receiver cannot park a delivery for weeks). */
const MAX_RETRY_AFTER_MS = 24 * 3600 * 1000;

/** `Retry-After` as seconds or an HTTP date → milliseconds from `now`; null when absent or garbled. */
export function retryAfterMs(header: string | undefined, now: Date): number | null {
  if (!header) return null;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Math.min(Number(trimmed) * 1000, MAX_RETRY_AFTER_MS);
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return null;
  return Math.min(Math.max(0, at - now.getTime()), MAX_RETRY_AFTER_MS);
}

export type AttemptVerdict =
  | { kind: 'succeeded' }
  | { kind: 'retry'; at: Date }
  | { kind: 'failed' }
  | { kind: 'disable'; reason: string };

/**
 * What follows one attempt. `attempt` is the 1-based number of the attempt just made; `status`
 * null when no answer came (refused, timeout, network). 2xx succeeds; 410 disables at once;
 * 429/503 wait at least their `Retry-After`; an endpoint failing for 5 days is disabled.
 */
export function afterAttempt(input: {
  attempt: number;
  status: number | null;
  retryAfter: string | undefined;
  now: Date;
  scheduleMs: number[];
  failingSince: Date | null;
}): AttemptVerdict {
  const { attempt, status, now, scheduleMs } = input;
  if (status !== null && status >= 200 && status < 300) return { kind: 'succeeded' };
  if (status === 410) return { kind: 'disable', reason: 'The endpoint answered 410 Gone' };
  if (input.failingSince && now.getTime() - input.failingSince.getTime() >= FAILING_DISABLE_AFTER_MS)
    return { kind: 'disable', reason: 'Every delivery attempt failed for 5 days' };
  if (attempt >= scheduleMs.length) return { kind: 'failed' };
  let delay = scheduleMs[attempt];
  if (status === 429 || status === 503) {
    const asked = retryAfterMs(input.retryAfter, now);
    if (asked !== null) delay = Math.max(delay, asked);
  }
  return { kind: 'retry', at: new Date(now.getTime() + delay) };
}
