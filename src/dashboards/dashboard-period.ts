import { dayOf, dayStart } from '../common/dates/day-range';
import { ValidationError } from '../common/errors';
import type { DateRange } from '../line-items/sales-figures.repository';

export const DASHBOARD_RANGES = ['7d', '30d', '3m', '6m', '1y'] as const;
export type DashboardRange = (typeof DASHBOARD_RANGES)[number];
/** Days in each range: whole UTC days ending today (today included). Months are 30 days, a year 365. */
export const RANGE_DAYS: Record<DashboardRange, number> = {
  '7d': 7,
  '30d': 30,
  '3m': 90,
  '6m': 180,
  '1y': 365,
};
/** The longest custom period (two years): every figure is summed over the rows of the period. */
export const MAX_CUSTOM_DAYS = 731;
const DAY_MS = 24 * 3600 * 1000;

export interface DashboardPeriods {
  /** The period the figures cover: [from, to), whole UTC days. */
  current: DateRange;
  /** With a range: the period of equal length just before `current`; null for custom dates. */
  previous: DateRange | null;
  /** The inclusive days, as the caller named them. */
  start: string;
  end: string;
  range: DashboardRange | null;
}

/**
 * `range` (or neither: 30d) → the last N whole UTC days up to and including today, compared with
 * the N days before; `dateStart` + `dateEnd` (inclusive, UTC) → that period, not compared. Both
 * forms, one date without the other, an impossible date, start after end or more than
 * MAX_CUSTOM_DAYS days → 422.
 */
export function dashboardPeriods(
  q: { range?: DashboardRange; dateStart?: string; dateEnd?: string },
  now: Date,
): DashboardPeriods {
  const custom = q.dateStart !== undefined || q.dateEnd !== undefined;
  if (custom && q.range !== undefined)
    throw invalid('Send either range or dateStart and dateEnd, not both', ['range', 'dateStart', 'dateEnd']);
  if (custom) {
    if (q.dateStart === undefined || q.dateEnd === undefined)
      throw invalid('dateStart and dateEnd go together', ['dateStart', 'dateEnd']);
    const from = dayStart(q.dateStart);
    const last = dayStart(q.dateEnd);
    if (!from) throw invalid(`dateStart "${q.dateStart}" is not a valid YYYY-MM-DD date`, ['dateStart']);
    if (!last) throw invalid(`dateEnd "${q.dateEnd}" is not a valid YYYY-MM-DD date`, ['dateEnd']);
    if (from > last) throw invalid('dateStart must be on or before dateEnd', ['dateStart', 'dateEnd']);
    const days = (last.getTime() - from.getTime()) / DAY_MS + 1;
    if (days > MAX_CUSTOM_DAYS)
      throw invalid(`A custom period covers at most ${MAX_CUSTOM_DAYS} days`, ['dateStart', 'dateEnd']);
    return {
      current: { from, to: new Date(last.getTime() + DAY_MS) },
      previous: null,
      start: q.dateStart,
      end: q.dateEnd,
      range: null,
    };
  }
  const range = q.range ?? '30d';
  const days = RANGE_DAYS[range];
  const to = new Date(dayStart(dayOf(now))!.getTime() + DAY_MS);
  const from = new Date(to.getTime() - days * DAY_MS);
  return {
    current: { from, to },
    previous: { from: new Date(from.getTime() - days * DAY_MS), to: from },
    start: dayOf(from),
    end: dayOf(new Date(to.getTime() - DAY_MS)),
    range,
  };
}

function invalid(message: string, fields: string[]): ValidationError {
  return new ValidationError(message, { fields: Object.fromEntries(fields.map((f) => [f, [message]])) });
}
