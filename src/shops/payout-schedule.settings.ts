import { ValidationError } from '../common/errors';
import type { PayoutScheduleDto, PayoutScheduleInputDto } from './dto/payout-schedule.dto';
import { payoutScheduleFrom, type PayoutScheduleSettings } from './payout-schedule.schema';

/**
 * The stored schedule a PUT makes (DESIGN §15). The calendar (frequency and day) changed → `setAt`
 * is now (no earlier due date is run; biweekly counts from this week) and the scheduler looks at
 * the shop at its next tick (`nextDueAt` = now: it computes the first due date after `setAt`).
 * Only the hold or the minimum changed → the calendar, `setAt` and `nextDueAt` stay.
 */
export function nextPayoutSchedule(
  stored: Partial<PayoutScheduleSettings> | null | undefined,
  input: PayoutScheduleInputDto,
  now: Date,
): PayoutScheduleSettings {
  const fields: Record<string, string[]> = {};
  const weekly = input.frequency === 'weekly' || input.frequency === 'biweekly';
  if (weekly && (input.dayOfWeek === undefined || input.dayOfWeek === null))
    fields['payoutSchedule.dayOfWeek'] = [
      `payoutSchedule.dayOfWeek (1–7, Monday = 1) is required for ${input.frequency}`,
    ];
  if (input.frequency === 'monthly' && (input.dayOfMonth === undefined || input.dayOfMonth === null))
    fields['payoutSchedule.dayOfMonth'] = ['payoutSchedule.dayOfMonth (1–28) is required for monthly'];
  if (Object.keys(fields).length > 0)
    throw new ValidationError(Object.values(fields).flat().join('; '), { fields });
  const dayOfWeek = weekly ? (input.dayOfWeek ?? null) : null;
  const dayOfMonth = input.frequency === 'monthly' ? (input.dayOfMonth ?? null) : null;
  const before = payoutScheduleFrom(stored);
  const sameCalendar =
    before.setAt !== null &&
    before.frequency === input.frequency &&
    before.dayOfWeek === dayOfWeek &&
    before.dayOfMonth === dayOfMonth;
  const manual = input.frequency === 'manual';
  return {
    frequency: input.frequency,
    dayOfWeek,
    dayOfMonth,
    holdDays: input.holdDays ?? 0,
    minimumPayout: input.minimumPayout ?? 0,
    setAt: sameCalendar ? before.setAt : now,
    nextDueAt: manual ? null : sameCalendar ? (stored?.nextDueAt ?? now) : now,
  };
}

export function payoutScheduleDto(
  stored: Partial<PayoutScheduleSettings> | null | undefined,
): PayoutScheduleDto {
  const s = payoutScheduleFrom(stored);
  return {
    frequency: s.frequency,
    dayOfWeek: s.dayOfWeek,
    dayOfMonth: s.dayOfMonth,
    holdDays: s.holdDays,
    minimumPayout: s.minimumPayout,
    scheduleSetAt: s.setAt ? s.setAt.toISOString() : null,
  };
}
