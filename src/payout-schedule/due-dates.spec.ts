import fc from 'fast-check';
import {
  cutoffDay,
  DAY_MS,
  dueDatesAfter,
  dueDatesFrom,
  firstDueFrom,
  type PayoutCalendar,
} from './due-dates';

const at = (iso: string) => new Date(iso);
const cal = (c: Partial<PayoutCalendar>): PayoutCalendar => ({
  frequency: 'weekly',
  dayOfWeek: null,
  dayOfMonth: null,
  setAt: at('2026-11-04T10:00:00Z'), // a Wednesday
  ...c,
});

describe('payout calendar (DESIGN §15)', () => {
  // 2026-11-02 is a Monday; 2026-11-04 a Wednesday.
  it.each([
    ['weekly Friday, set Wednesday', cal({ dayOfWeek: 5 }), ['2026-11-06', '2026-11-13', '2026-11-20']],
    [
      'weekly Wednesday, set Wednesday 10:00: today is not caught up',
      cal({ dayOfWeek: 3 }),
      ['2026-11-11', '2026-11-18', '2026-11-25'],
    ],
    ['weekly Monday (ISO 1)', cal({ dayOfWeek: 1 }), ['2026-11-09', '2026-11-16', '2026-11-23']],
    ['weekly Sunday (ISO 7)', cal({ dayOfWeek: 7 }), ['2026-11-08', '2026-11-15', '2026-11-22']],
    [
      'biweekly Friday: week 0 is the week set',
      cal({ frequency: 'biweekly', dayOfWeek: 5 }),
      ['2026-11-06', '2026-11-20', '2026-12-04'],
    ],
    [
      'biweekly Monday: week 0 Monday already past → week 2',
      cal({ frequency: 'biweekly', dayOfWeek: 1 }),
      ['2026-11-16', '2026-11-30', '2026-12-14'],
    ],
    [
      'monthly 14th',
      cal({ frequency: 'monthly', dayOfMonth: 14 }),
      ['2026-11-14', '2026-12-14', '2027-01-14'],
    ],
    [
      'monthly 4th set on the 4th: next month',
      cal({ frequency: 'monthly', dayOfMonth: 4 }),
      ['2026-12-04', '2027-01-04', '2027-02-04'],
    ],
    [
      'monthly 28th across February',
      cal({ frequency: 'monthly', dayOfMonth: 28, setAt: at('2027-01-29T00:00:00Z') }),
      ['2027-02-28', '2027-03-28', '2027-04-28'],
    ],
    ['manual: none', cal({ frequency: 'manual' }), []],
  ])('%s', (_name, c, expected) => {
    expect(dueDatesAfter(c, at('2026-11-01T00:00:00Z'), 3)).toEqual(expected);
  });

  it('a due date starting exactly at `from` counts for firstDueFrom, not for dueDatesAfter', () => {
    const c = cal({ dayOfWeek: 5 });
    expect(firstDueFrom(c, at('2026-11-06T00:00:00Z'))).toBe('2026-11-06');
    expect(dueDatesAfter(c, at('2026-11-06T00:00:00Z'), 1)).toEqual(['2026-11-13']);
  });

  it('cut-off = due date − hold days', () => {
    expect(cutoffDay('2026-11-14', 0)).toBe('2026-11-14');
    expect(cutoffDay('2026-11-14', 7)).toBe('2026-11-07');
    expect(cutoffDay('2026-03-01', 1)).toBe('2026-02-28');
  });

  const calendars = fc.record({
    frequency: fc.constantFrom('weekly', 'biweekly', 'monthly') as fc.Arbitrary<PayoutCalendar['frequency']>,
    dayOfWeek: fc.integer({ min: 1, max: 7 }),
    dayOfMonth: fc.integer({ min: 1, max: 28 }),
    setAtMs: fc.integer({ min: Date.UTC(2024, 0, 1), max: Date.UTC(2030, 0, 1) }),
    afterMs: fc.integer({ min: 0, max: 400 * DAY_MS }),
  });

  it('property: due dates are increasing, after setAt and after the instant, on the right day, never skipped', () => {
    fc.assert(
      fc.property(calendars, (r) => {
        const c: PayoutCalendar = { ...r, setAt: new Date(r.setAtMs) };
        const after = new Date(r.setAtMs + r.afterMs - 200 * DAY_MS);
        const dates = dueDatesAfter(c, after, 6);
        expect(dates).toHaveLength(6);
        const floor = Math.max(after.getTime(), r.setAtMs);
        let prev = -Infinity;
        for (const d of dates) {
          const ms = Date.parse(`${d}T00:00:00Z`);
          expect(ms).toBeGreaterThan(floor);
          expect(ms).toBeGreaterThan(prev);
          const day = new Date(ms);
          if (r.frequency === 'monthly') expect(day.getUTCDate()).toBe(r.dayOfMonth);
          else expect(((day.getUTCDay() + 6) % 7) + 1).toBe(r.dayOfWeek);
          if (prev !== -Infinity) {
            const gap = (ms - prev) / DAY_MS;
            if (r.frequency === 'weekly') expect(gap).toBe(7);
            if (r.frequency === 'biweekly') expect(gap).toBe(14);
            if (r.frequency === 'monthly') expect(gap).toBeGreaterThanOrEqual(28);
            if (r.frequency === 'monthly') expect(gap).toBeLessThanOrEqual(31);
          }
          prev = ms;
        }
        // the scheduler's walk (firstDueFrom from just after each date) visits exactly these dates
        let from = after.getTime() + 1;
        for (const d of dates) {
          const next = firstDueFrom(c, new Date(from));
          expect(next).toBe(d);
          from = Date.parse(`${d}T00:00:00Z`) + 1;
        }
        // the first one is within one period of the later of setAt and the instant
        const first = Date.parse(`${dates[0]}T00:00:00Z`);
        expect(first - floor).toBeLessThanOrEqual(
          (r.frequency === 'monthly' ? 31 : r.frequency === 'biweekly' ? 21 : 7) * DAY_MS,
        );
        expect(dueDatesFrom(c, new Date(first), 1)).toEqual([dates[0]]);
      }),
      { numRuns: 500, seed: 33 },
    );
  });
});
