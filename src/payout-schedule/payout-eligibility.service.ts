import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock/clock';
import { dayEnd, dayOf } from '../common/dates/day-range';
import { NotFoundError } from '../common/errors';
import type { ShopScope } from '../common/tenancy';
import { type NextPayout, NextPayoutPort } from '../payouts/next-payout.port';
import { PayoutEstimator } from '../payouts/payout-estimate';
import { PayoutSchedulesRepository } from '../shops/payout-schedules.repository';
import { payoutScheduleFrom } from '../shops/payout-schedule.schema';
import { VendorsRepository } from '../vendors/vendors.repository';
import { cutoffDay, dayStartOf, dueDatesFrom } from './due-dates';
import type { EligibilityReason, PayoutEligibilityDto } from './dto/payout-eligibility.dto';
import { PayoutRunsRepository } from './payout-runs.repository';
import { VendorPayoutGate, vendorTerms } from './vendor-gate';

/**
 * "Why is this vendor not paid, and when will it be?" (DESIGN §15). The next due date whose run has
 * not completed; the vendor's cut-off for it (the due date less its hold); the net a batch would
 * take up to that cut-off from the rows known now (the payout engine's own netting read,
 * PayoutEstimator); and every reason that run would pay nothing. Also the vendor summary's
 * `nextPayout` (NextPayoutPort).
 */
@Injectable()
export class PayoutEligibilityService extends NextPayoutPort {
  constructor(
    private readonly schedules: PayoutSchedulesRepository,
    private readonly vendors: VendorsRepository,
    private readonly runs: PayoutRunsRepository,
    private readonly gate: VendorPayoutGate,
    private readonly estimator: PayoutEstimator,
    private readonly clock: Clock,
  ) {
    super();
  }

  async eligibility(scope: ShopScope, vendorId: string): Promise<PayoutEligibilityDto> {
    const [shop, vendor] = await Promise.all([
      this.schedules.of(scope.shopId),
      this.vendors.findById(scope, vendorId),
    ]);
    if (!shop || !vendor) throw new NotFoundError('Vendor');
    const schedule = payoutScheduleFrom(shop.payoutSchedule);
    const terms = vendorTerms(schedule, vendor.payoutSettings);
    const date = await this.nextDueDate(scope, schedule);
    const periodEnd = date ? cutoffDay(date, terms.holdDays) : dayOf(this.clock.now());
    const [gated, net] = await Promise.all([
      this.gate.reasons(scope, vendor, shop.settings?.requireCompleteTaxProfile ?? false),
      this.estimator.net(scope, vendor._id, dayEnd(periodEnd)!),
    ]);
    const reasons: EligibilityReason[] = [...gated];
    if (net < 0) reasons.push('negative_balance');
    if (net > 0 && net < terms.minimumPayout) reasons.push('below_minimum');
    const order = [
      'paused',
      'below_minimum',
      'negative_balance',
      'no_payout_method',
      'tax_profile_incomplete',
    ];
    reasons.sort((a, b) => order.indexOf(a) - order.indexOf(b));
    return {
      vendorId: String(vendor._id),
      eligible: reasons.length === 0,
      reasons,
      nextPayout: date
        ? { date, estimatedAmount: reasons.length === 0 && net > 0 ? net : 0, net, periodEnd }
        : null,
    };
  }

  /** The vendor summary's `nextPayout`: null when the shop pays by hand or the vendor is paused. */
  async forVendor(scope: ShopScope, vendorId: string): Promise<NextPayout | null> {
    const e = await this.eligibility(scope, vendorId);
    if (!e.nextPayout || e.reasons.includes('paused')) return null;
    return { estimatedDate: e.nextPayout.date, estimatedAmount: e.nextPayout.estimatedAmount };
  }

  /** Today when today is a due date whose run has not completed, else the next one; null for manual. */
  private async nextDueDate(
    scope: ShopScope,
    schedule: ReturnType<typeof payoutScheduleFrom>,
  ): Promise<string | null> {
    const today = dayStartOf(dayOf(this.clock.now()));
    const [first, second] = dueDatesFrom(schedule, today, 2);
    if (!first || first !== dayOf(today)) return first ?? null;
    const run = await this.runs.ofDueDate(scope, first);
    return run?.state === 'completed' ? (second ?? null) : first;
  }
}
