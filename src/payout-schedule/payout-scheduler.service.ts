import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '../common/clock/clock';
import { shopScope } from '../common/tenancy';
import { PayoutSchedulesRepository, type ShopPayoutSchedule } from '../shops/payout-schedules.repository';
import { payoutScheduleFrom } from '../shops/payout-schedule.schema';
import { dayStartOf, dueDatesAfter, firstDueFrom } from './due-dates';
import { PayoutRunRunner } from './payout-run.runner';
import { PayoutRunsRepository } from './payout-runs.repository';
import { SystemPayoutRunsRepository } from './system-payout-runs.repository';

const SHOPS_PER_TICK = 200;
const RUNS_PER_TICK = 50;

/**
 * The scheduler's tick (DESIGN §15; the repeatable job, and tests): (1) every shop whose
 * `nextDueAt` has come gets the run of its due date (created once: unique per shop and due date)
 * and its `nextDueAt` moved past it (compare-and-set); a shop whose next due date is still ahead
 * gets `nextDueAt` set to it. Due dates the service was down for are each run, one per tick.
 * (2) every pending run, and every running run whose lease lapsed (its process died), is claimed
 * and worked (PayoutRunRunner). Any number of processes may tick at once: the upsert, the
 * compare-and-set and the lease make each step happen once.
 */
@Injectable()
export class PayoutScheduler {
  private readonly logger = new Logger('PayoutScheduler');

  constructor(
    private readonly schedules: PayoutSchedulesRepository,
    private readonly runs: PayoutRunsRepository,
    private readonly system: SystemPayoutRunsRepository,
    private readonly runner: PayoutRunRunner,
    private readonly clock: Clock,
  ) {}

  async tickNow(settleWaitMs?: number): Promise<{ opened: number; worked: number }> {
    const now = this.clock.now();
    let opened = 0;
    for (const shop of await this.schedules.due(now, SHOPS_PER_TICK)) {
      try {
        if (await this.openDue(shop, now)) opened++;
      } catch (err) {
        this.logger.warn({ shopId: String(shop._id), err: (err as Error)?.message }, 'Could not open a run');
      }
    }
    let worked = 0;
    for (const run of await this.system.workable(this.clock.now(), RUNS_PER_TICK)) {
      try {
        if (await this.runner.work(shopScope(String(run.shopId)), run._id, settleWaitMs)) worked++;
      } catch (err) {
        this.logger.warn({ runId: String(run._id), err: (err as Error)?.message }, 'Payout run failed');
      }
    }
    return { opened, worked };
  }

  /** The shop's next due dates (the CLI), after now. */
  async nextDueDates(shopId: string, count: number): Promise<string[]> {
    const shop = await this.schedules.of(shopId);
    return dueDatesAfter(payoutScheduleFrom(shop?.payoutSchedule), this.clock.now(), count);
  }

  /** True when it made (or found) the run of a due date that has come. */
  private async openDue(shop: ShopPayoutSchedule, now: Date): Promise<boolean> {
    const stored = shop.payoutSchedule!;
    const from = stored.nextDueAt!;
    const schedule = payoutScheduleFrom(stored);
    const due = firstDueFrom(schedule, from);
    if (!due) {
      await this.schedules.advance(shop._id, from, null);
      return false;
    }
    const dueAt = dayStartOf(due);
    if (dueAt > now) {
      await this.schedules.advance(shop._id, from, dueAt);
      return false;
    }
    await this.runs.findOrCreate(shopScope(String(shop._id)), due, {
      frequency: schedule.frequency,
      holdDays: schedule.holdDays,
      minimumPayout: schedule.minimumPayout,
      requireCompleteTaxProfile: shop.settings?.requireCompleteTaxProfile ?? false,
    });
    await this.schedules.advance(shop._id, from, new Date(dueAt.getTime() + 1));
    return true;
  }
}
