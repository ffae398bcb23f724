import type { ShopScope } from '../common/tenancy';

/** A vendor's next scheduled payout as GET /payouts/summary shows it. */
export interface NextPayout {
  estimatedDate: string;
  estimatedAmount: number;
}

/**
 * The port the payout schedule (src/payout-schedule, above payouts) answers the vendor summary's
 * `nextPayout` through: payouts never imports the scheduler. Absent (a process without the
 * schedule module), the summary answers null.
 */
export abstract class NextPayoutPort {
  abstract forVendor(scope: ShopScope, vendorId: string): Promise<NextPayout | null>;
}
