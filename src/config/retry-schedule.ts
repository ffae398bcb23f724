/**
 * The Standard Webhooks retry schedule: the delay before each attempt, the first immediate.
 * Attempts = its length; after the last failure the delivery is `failed` (replay or retry by hand).
 */
export const DEFAULT_RETRY_SCHEDULE_SECONDS = [0, 5, 300, 1800, 7200, 18000, 36000, 36000];

/** `WEBHOOK_RETRY_SCHEDULE` ("0,5,300,…" seconds, fractions allowed for tests) → milliseconds. */
export function parseRetrySchedule(raw: string | undefined): number[] {
  if (!raw) return DEFAULT_RETRY_SCHEDULE_SECONDS.map((s) => s * 1000);
  const parts = raw.split(',').map((p) => Number(p.trim()));
  if (parts.length === 0 || parts.some((n) => !Number.isFinite(n) || n < 0))
    throw new Error('WEBHOOK_RETRY_SCHEDULE must be comma-separated non-negative seconds');
  return parts.map((s) => Math.round(s * 1000));
}
