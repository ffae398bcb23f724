import { DEFAULT_RETRY_SCHEDULE_SECONDS, parseRetrySchedule } from '../config/retry-schedule';
import { afterAttempt, FAILING_DISABLE_AFTER_MS, retryAfterMs } from './retry-schedule';

const NOW = new Date('2026-11-25T10:00:00.000Z');
const SCHEDULE = parseRetrySchedule(undefined);
const base = { status: 500, retryAfter: undefined, now: NOW, scheduleMs: SCHEDULE, failingSince: NOW };

describe('retry schedule', () => {
  it('is the Standard Webhooks schedule by default: now, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h', () => {
    expect(DEFAULT_RETRY_SCHEDULE_SECONDS).toEqual([0, 5, 300, 1800, 7200, 18000, 36000, 36000]);
    expect(SCHEDULE).toEqual([0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
    expect(parseRetrySchedule('0, 0.25,1')).toEqual([0, 250, 1000]);
    expect(() => parseRetrySchedule('0,-1')).toThrow();
  });

  it('waits the next delay of the schedule after each failure, and fails after the last attempt', () => {
    const waits = [1, 2, 3, 4, 5, 6, 7].map((attempt) => {
      const v = afterAttempt({ ...base, attempt });
      if (v.kind !== 'retry') throw new Error(v.kind);
      return v.at.getTime() - NOW.getTime();
    });
    expect(waits).toEqual(SCHEDULE.slice(1));
    expect(afterAttempt({ ...base, attempt: 8 })).toEqual({ kind: 'failed' });
    expect(afterAttempt({ ...base, attempt: 1, status: null })).toMatchObject({ kind: 'retry' });
  });

  it('any 2xx succeeds; 3xx is a failure (redirects are not followed)', () => {
    for (const status of [200, 201, 204, 299])
      expect(afterAttempt({ ...base, attempt: 1, status })).toEqual({ kind: 'succeeded' });
    expect(afterAttempt({ ...base, attempt: 1, status: 307 })).toMatchObject({ kind: 'retry' });
  });

  it('410 disables at once', () => {
    expect(afterAttempt({ ...base, attempt: 1, status: 410 })).toMatchObject({ kind: 'disable' });
  });

  it('an endpoint failing for 5 days is disabled; one failing for less is retried', () => {
    const since = new Date(NOW.getTime() - FAILING_DISABLE_AFTER_MS);
    expect(afterAttempt({ ...base, attempt: 2, failingSince: since })).toMatchObject({
      kind: 'disable',
      reason: expect.stringContaining('5 days'),
    });
    const recent = new Date(NOW.getTime() - FAILING_DISABLE_AFTER_MS + 1);
    expect(afterAttempt({ ...base, attempt: 2, failingSince: recent })).toMatchObject({ kind: 'retry' });
  });

  it('429 and 503 wait at least their Retry-After (seconds or a date), never less than the schedule', () => {
    const at = (status: number, retryAfter: string | undefined, attempt = 1) => {
      const v = afterAttempt({ ...base, attempt, status, retryAfter });
      return v.kind === 'retry' ? v.at.getTime() - NOW.getTime() : null;
    };
    expect(at(429, '120')).toBe(120_000);
    expect(at(503, new Date(NOW.getTime() + 90_000).toUTCString())).toBe(90_000);
    expect(at(429, '1', 3)).toBe(1_800_000);
    expect(at(500, '120')).toBe(5_000);
    expect(at(429, 'soon')).toBe(5_000);
    expect(retryAfterMs('999999999', NOW)).toBe(24 * 3600 * 1000);
  });
});
