/**
 * The payout calendar (DESIGN §15), pure: which UTC days are due dates of a schedule. A due date D
 * "comes" at D 00:00Z. A schedule never runs a due date that came before it was set (`setAt`): one
 * set today does not catch up. Weekly: every `dayOfWeek` (ISO 8601, Monday = 1). Biweekly: every
 * other `dayOfWeek`, the ISO week containing `setAt` being week 0 (so weeks 0, 2, 4 …; a day of
 * week 0 already past at `setAt` is not run, the next is two weeks later). Monthly: every
 * `dayOfMonth` (1–28, so every month has it).
 */
export interface PayoutCalendar {
  frequency: 'manual' | 'weekly' | 'biweekly' | 'monthly';
  dayOfWeek: number | null;
  dayOfMonth: number | null;
  setAt: Date | null;
}

export const DAY_MS = 24 * 3600 * 1000;
/** Longer than any gap between two due dates (a month; two weeks): the search always ends. */
const MAX_GAP_DAYS = 62;

const dayStartMs = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;
/** ISO weekday of a UTC day: Monday = 1 … Sunday = 7. */
export const isoWeekday = (ms: number) => ((new Date(ms).getUTCDay() + 6) % 7) + 1;
const mondayOf = (ms: number) => dayStartMs(ms) - (isoWeekday(ms) - 1) * DAY_MS;
export const dayString = (ms: number) => new Date(ms).toISOString().slice(0, 10);
export const dayStartOf = (day: string): Date => new Date(`${day}T00:00:00.000Z`);

/** Whether the UTC day starting at `dayMs` is a due date of the calendar (ignoring `setAt`). */
export function isDueDay(cal: PayoutCalendar, dayMs: number): boolean {
  switch (cal.frequency) {
    case 'weekly':
      return isoWeekday(dayMs) === cal.dayOfWeek;
    case 'biweekly': {
      if (isoWeekday(dayMs) !== cal.dayOfWeek || !cal.setAt) return false;
      const weeks = Math.round((mondayOf(dayMs) - mondayOf(cal.setAt.getTime())) / (7 * DAY_MS));
      return weeks >= 0 && weeks % 2 === 0;
    }
    case 'monthly':
      return new Date(dayMs).getUTCDate() === cal.dayOfMonth;
    default:
      return false;
  }
}

/**
 * The first `count` due dates (YYYY-MM-DD) whose start is at or after `from` and after `setAt`;
 * none for a manual (or incomplete) calendar.
 */
export function dueDatesFrom(cal: PayoutCalendar, from: Date, count: number): string[] {
  if (cal.frequency === 'manual' || !cal.setAt) return [];
  const floor = Math.max(from.getTime(), cal.setAt.getTime() + 1);
  let day = dayStartMs(floor);
  if (day < floor) day += DAY_MS;
  const out: string[] = [];
  for (let gap = 0; out.length < count && gap <= MAX_GAP_DAYS; day += DAY_MS) {
    if (isDueDay(cal, day)) {
      out.push(dayString(day));
      gap = 0;
    } else gap++;
  }
  return out;
}

/** The due dates strictly after an instant (the next ones to come). */
export function dueDatesAfter(cal: PayoutCalendar, after: Date, count: number): string[] {
  return dueDatesFrom(cal, new Date(after.getTime() + 1), count);
}

/** The first due date at or after `from` (after `setAt`), or null (manual). */
export function firstDueFrom(cal: PayoutCalendar, from: Date): string | null {
  return dueDatesFrom(cal, from, 1)[0] ?? null;
}

/** The run's cut-off day for a hold: the due date minus `holdDays` days (YYYY-MM-DD, inclusive). */
export function cutoffDay(dueDate: string, holdDays: number): string {
  return dayString(dayStartOf(dueDate).getTime() - holdDays * DAY_MS);
}
