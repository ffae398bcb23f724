import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { AdjustmentsModule } from '../adjustments/adjustments.module';
import { LineItemsModule } from '../line-items/line-items.module';
import { VendorsModule } from '../vendors/vendors.module';
import { TransfersModule } from '../transfers/transfers.module';
import { PayoutBatch, PayoutBatchSchema } from './payout-batch.schema';
import { RefundsModule } from '../refunds/refunds.module';
import { PayoutReconcileService } from './payout-reconcile.service';
import { VendorBalanceService } from './vendor-balance.service';
import { VendorBalanceV1Controller } from './vendor-balance.v1.controller';
import { BalancesModule } from '../balances/balances.module';
import { PayoutBatchesRepository } from './payout-batches.repository';
import { jobsConfig, JobsConfig } from '../config/configuration';
import { DEFAULT_PAYOUT_ENGINE_OPTIONS, PayoutEngineOptions } from './payout-engine.options';
import { PayoutBatchRunner } from './payout-batch-runner';
import { PayoutEngine } from './payout-engine.service';
import { PayoutsService } from './payouts.service';
import { SystemPayoutBatchesRepository } from './system-payout-batches.repository';
import { PayoutsV1Controller } from './payouts.v1.controller';
import { PayoutsV2Controller } from './payouts.v2.controller';
import { VendorMoneyService } from './vendor-money.service';
import { VendorPayoutsService } from './vendor-payouts.service';
import { VendorPayoutsV2Controller } from './vendor-payouts.v2.controller';
import { VendorReportService } from './vendor-report.service';
import { VendorReportV1Controller } from './vendor-report.v1.controller';
import { EventSinkModule } from '../event-port/event-sink';
import { BalanceWatch } from './balance-watch';
import { PayoutEvents } from './payout-events';

/**
 * Payout rows and batches. Line items, adjustments and vendors are read (and marked paid) through
 * their own features' repositories; payout batches are this feature's collection.
 */
@Module({
  imports: [
    AdjustmentsModule,
    LineItemsModule,
    VendorsModule,
    RefundsModule,
    // The engine hands each paid batch to the transfers service (no cycle: transfers reads no batches).
    TransfersModule,
    EventSinkModule,
    MongooseModule.forFeature([{ name: PayoutBatch.name, schema: PayoutBatchSchema }]),
    BalancesModule,
  ],
  controllers: [
    PayoutsV1Controller,
    PayoutsV2Controller,
    VendorPayoutsV2Controller,
    VendorReportV1Controller,
    VendorBalanceV1Controller,
  ],
  providers: [
    PayoutEvents,
    BalanceWatch,
    PayoutBatchesRepository,
    PayoutEngine,
    PayoutBatchRunner,
    PayoutsService,
    VendorReportService,
    SystemPayoutBatchesRepository,
    VendorBalanceService,
    PayoutReconcileService,
    VendorMoneyService,
    VendorPayoutsService,
    {
      provide: PayoutEngineOptions,
      inject: [jobsConfig.KEY],
      useFactory: (jobs: JobsConfig): PayoutEngineOptions => ({
        ...DEFAULT_PAYOUT_ENGINE_OPTIONS,
        leaseMs: jobs.payoutLeaseMs,
      }),
    },
  ],
  exports: [
    PayoutEngine,
    SystemPayoutBatchesRepository,
    PayoutBatchesRepository,
    VendorBalanceService,
    PayoutReconcileService,
  ],
})
export class PayoutsModule {}
