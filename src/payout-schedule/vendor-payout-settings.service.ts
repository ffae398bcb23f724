import { Injectable } from '@nestjs/common';
import { AuditTrail } from '../audit/audit-trail.service';
import { NotFoundError } from '../common/errors';
import type { ShopScope } from '../common/tenancy';
import { PayoutSchedulesRepository } from '../shops/payout-schedules.repository';
import { payoutScheduleFrom } from '../shops/payout-schedule.schema';
import type { Vendor, VendorPayoutSettings } from '../vendors/vendor.schema';
import { VendorsRepository } from '../vendors/vendors.repository';
import type { SetVendorPayoutSettingsDto, VendorPayoutSettingsDto } from './dto/payout-settings.dto';
import { vendorTerms } from './vendor-gate';

/**
 * A vendor's payout settings (DESIGN §15): set by the shop (v1, V2 with a merchant token too),
 * audited in the same write; read by the shop and by the vendor itself (its own only).
 */
@Injectable()
export class VendorPayoutSettingsService {
  constructor(
    private readonly vendors: VendorsRepository,
    private readonly schedules: PayoutSchedulesRepository,
    private readonly audit: AuditTrail,
  ) {}

  async get(scope: ShopScope, vendorId: string): Promise<VendorPayoutSettingsDto> {
    const vendor = await this.vendors.findById(scope, vendorId);
    if (!vendor) throw new NotFoundError('Vendor');
    return this.view(scope, vendor);
  }

  /** A vendor token's own settings. */
  own(scope: ShopScope): Promise<VendorPayoutSettingsDto> {
    if (!scope.vendorId) throw new NotFoundError('Vendor');
    return this.get(scope, scope.vendorId);
  }

  async set(
    scope: ShopScope,
    vendorId: string,
    body: SetVendorPayoutSettingsDto,
  ): Promise<VendorPayoutSettingsDto> {
    const vendor = await this.vendors.findById(scope, vendorId);
    if (!vendor) throw new NotFoundError('Vendor');
    const next: VendorPayoutSettings = {
      paused: body.paused,
      holdDays: body.holdDays ?? null,
      minimumPayout: body.minimumPayout ?? null,
    };
    const stamp = this.audit.begin();
    const event = this.audit.changed(
      scope,
      stamp,
      'vendor.payout_settings.update',
      { type: 'vendor', id: vendor._id },
      { payoutSettings: stored(vendor.payoutSettings) },
      { payoutSettings: next },
    );
    const saved = await this.vendors.setPayoutSettings(scope, vendor._id, next, stamp, event);
    if (!saved) throw new NotFoundError('Vendor');
    await this.audit.commit(scope, this.vendors.outbox, stamp, [event], [vendor._id]);
    return this.view(scope, saved);
  }

  private async view(scope: ShopScope, vendor: Vendor): Promise<VendorPayoutSettingsDto> {
    const shop = await this.schedules.of(scope.shopId);
    const own = stored(vendor.payoutSettings);
    const terms = vendorTerms(payoutScheduleFrom(shop?.payoutSchedule), own);
    return {
      vendorId: String(vendor._id),
      ...own,
      effectiveHoldDays: terms.holdDays,
      effectiveMinimumPayout: terms.minimumPayout,
    };
  }
}

function stored(s: Partial<VendorPayoutSettings> | null | undefined): VendorPayoutSettings {
  return {
    paused: s?.paused ?? false,
    holdDays: s?.holdDays ?? null,
    minimumPayout: s?.minimumPayout ?? null,
  };
}
