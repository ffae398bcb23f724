import { Global, Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { AdjustmentsModule } from '../adjustments/adjustments.module';
import { EventSinkModule } from '../event-port/event-sink';
import { LineItemsModule } from '../line-items/line-items.module';
import { NextPayoutPort } from '../payouts/next-payout.port';
import { PayoutsModule } from '../payouts/payouts.module';
import { ShopsModule } from '../shops/shops.module';
import { TaxProfilesModule } from '../tax-profiles/tax-profiles.module';
import { TransfersModule } from '../transfers/transfers.module';
import { VendorsModule } from '../vendors/vendors.module';
import { PayoutEligibilityService } from './payout-eligibility.service';
import { PayoutRun, PayoutRunSchema } from './payout-run.schema';
import { PayoutRunEvents } from './payout-run.events';
import { PayoutRunRunner } from './payout-run.runner';
import { PayoutRunsRepository } from './payout-runs.repository';
import { PayoutRunsService } from './payout-runs.service';
import { PayoutEligibilityV1Controller, PayoutRunsV1Controller } from './payout-runs.v1.controller';
import { PayoutScheduler } from './payout-scheduler.service';
import { SystemPayoutRunsRepository } from './system-payout-runs.repository';
import { VendorPayoutGate } from './vendor-gate';
import {
  OwnPayoutSettingsController,
  VendorPayoutSettingsV1Controller,
  VendorPayoutSettingsV2Controller,
} from './vendor-payout-settings.controllers';
import { VendorPayoutSettingsService } from './vendor-payout-settings.service';

/**
 * Payouts on a schedule (DESIGN §15): vendor payout settings, the runs, the scheduler that drives
 * the payout engine, and eligibility. Above payouts (it drives the engine; payouts never imports
 * it). Global only for `NextPayoutPort`, which the vendor summary in payouts reads optionally.
 */
@Global()
@Module({
  imports: [
    MongooseModule.forFeature([{ name: PayoutRun.name, schema: PayoutRunSchema }]),
    PayoutsModule,
    LineItemsModule,
    AdjustmentsModule,
    VendorsModule,
    ShopsModule,
    TaxProfilesModule,
    TransfersModule,
    EventSinkModule,
  ],
  controllers: [
    PayoutRunsV1Controller,
    PayoutEligibilityV1Controller,
    VendorPayoutSettingsV1Controller,
    VendorPayoutSettingsV2Controller,
    OwnPayoutSettingsController,
  ],
  providers: [
    PayoutRunsRepository,
    SystemPayoutRunsRepository,
    PayoutRunEvents,
    PayoutRunRunner,
    PayoutScheduler,
    PayoutRunsService,
    PayoutEligibilityService,
    VendorPayoutGate,
    VendorPayoutSettingsService,
    { provide: NextPayoutPort, useExisting: PayoutEligibilityService },
  ],
  exports: [PayoutScheduler, NextPayoutPort],
})
export class PayoutScheduleModule {}
