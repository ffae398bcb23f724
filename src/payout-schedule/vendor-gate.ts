import { Injectable } from '@nestjs/common';
import type { Types } from 'mongoose';
import type { ShopScope } from '../common/tenancy';
import { TaxProfilesService } from '../tax-profiles/tax-profiles.service';
import { PayoutMethodsRepository } from '../transfers/payout-methods.repository';
import type { VendorPayoutSettings } from '../vendors/vendor.schema';
import type { SkipReason } from './payout-run.schema';

/** A shop schedule's (or a run's) hold and minimum, and the shop's tax-profile requirement. */
export interface ShopPayoutTerms {
  holdDays: number;
  minimumPayout: number;
  requireCompleteTaxProfile: boolean;
}

/** The vendor's own hold and minimum where it set them, else the shop's (DESIGN §15). */
export function vendorTerms(
  shop: Pick<ShopPayoutTerms, 'holdDays' | 'minimumPayout'>,
  own: Partial<VendorPayoutSettings> | null | undefined,
): { holdDays: number; minimumPayout: number } {
  return {
    holdDays: own?.holdDays ?? shop.holdDays,
    minimumPayout: own?.minimumPayout ?? shop.minimumPayout,
  };
}

/**
 * Why a scheduled run makes no batch for a vendor (DESIGN §15), in one place for the run and for
 * GET /v1/vendors/{id}/payout-eligibility: paused; no payout method set (the schedule pays only
 * vendors whose method the shop chose, `manual` included); its tax profile incomplete where the
 * shop requires a complete one. Manual triggers (POST /v1/payouts/batches) are not gated.
 */
@Injectable()
export class VendorPayoutGate {
  constructor(
    private readonly methods: PayoutMethodsRepository,
    private readonly taxProfiles: TaxProfilesService,
  ) {}

  async reasons(
    scope: ShopScope,
    vendor: { _id: Types.ObjectId; payoutSettings?: Partial<VendorPayoutSettings> | null },
    requireCompleteTaxProfile: boolean,
  ): Promise<SkipReason[]> {
    const [method, complete] = await Promise.all([
      this.methods.findForVendor(scope, vendor._id),
      requireCompleteTaxProfile
        ? this.taxProfiles.get(scope, String(vendor._id)).then((p) => p.completeness.complete)
        : true,
    ]);
    const out: SkipReason[] = [];
    if (vendor.payoutSettings?.paused) out.push('paused');
    if (!method) out.push('no_payout_method');
    if (!complete) out.push('tax_profile_incomplete');
    return out;
  }
}
