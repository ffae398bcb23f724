import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/** How often a shop's payouts run by themselves (DESIGN §15); `manual`: only when triggered. */
export const PAYOUT_FREQUENCIES = ['manual', 'weekly', 'biweekly', 'monthly'] as const;
export type PayoutFrequency = (typeof PAYOUT_FREQUENCIES)[number];

/**
 * The shop's payout schedule (DESIGN §15), absent until first set (reads fill the defaults:
 * manual, hold 0, minimum 0). `setAt` is when the calendar (frequency and day) was last set: no
 * due date before it is ever run (a schedule set today does not catch up), and a biweekly calendar
 * counts its every-other ISO week from the week of `setAt`. `nextDueAt` is when the scheduler looks
 * at the shop next (the start of its next due date, UTC; null for manual): the scheduler's index.
 */
@Schema({ _id: false })
export class PayoutScheduleSettings {
  @Prop({ type: String, enum: PAYOUT_FREQUENCIES, default: 'manual' })
  frequency!: PayoutFrequency;
  /** ISO 8601 weekday, Monday = 1 … Sunday = 7 (weekly, biweekly). */
  @Prop({ type: Number, default: null })
  dayOfWeek!: number | null;
  /** 1–28 (monthly). */
  @Prop({ type: Number, default: null })
  dayOfMonth!: number | null;
  @Prop({ type: Number, default: 0 })
  holdDays!: number;
  @Prop({ type: Number, default: 0 })
  minimumPayout!: number;
  @Prop({ type: Date, default: null })
  setAt!: Date | null;
  @Prop({ type: Date, default: null })
  nextDueAt!: Date | null;
}
export const PayoutScheduleSettingsSchema = SchemaFactory.createForClass(PayoutScheduleSettings);

/** The schedule as the API and the scheduler read it (defaults filled). */
export interface PayoutScheduleView {
  frequency: PayoutFrequency;
  dayOfWeek: number | null;
  dayOfMonth: number | null;
  holdDays: number;
  minimumPayout: number;
  setAt: Date | null;
}

export function payoutScheduleFrom(
  stored: Partial<PayoutScheduleSettings> | null | undefined,
): PayoutScheduleView {
  const s = stored ?? {};
  return {
    frequency: s.frequency ?? 'manual',
    dayOfWeek: s.dayOfWeek ?? null,
    dayOfMonth: s.dayOfMonth ?? null,
    holdDays: s.holdDays ?? 0,
    minimumPayout: s.minimumPayout ?? 0,
    setAt: s.setAt ?? null,
  };
}
