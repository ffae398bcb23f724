import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { AdjustmentsModule } from '../adjustments/adjustments.module';
import { LineItemsModule } from '../line-items/line-items.module';
import { VendorsModule } from '../vendors/vendors.module';
import { PayoutBatch, PayoutBatchSchema } from './payout-batch.schema';
import { PayoutBatchesRepository } from './payout-batches.repository';
import { jobsConfig, JobsConfig } from '../config/configuration';
import { DEFAULT_PAYOUT_ENGINE_OPTIONS, PayoutEngineOptions } from './payout-engine.options';
import { PayoutBatchRunner } from './payout-batch-runner';
import { PayoutEngine } from './payout-engine.service';
import { PayoutsService } from './payouts.service';
import { SystemPayoutBatchesRepository } from './system-payout-batches.repository';
import { PayoutsV1Controller } from './payouts.v1.controller';
import { PayoutsV2Controller } from './payouts.v2.controller';
import { RowSumsVendorBalances, VendorBalances } from './vendor-balance';
import { VendorMoneyService } from './vendor-money.service';
import { VendorReportService } from './vendor-report.service';
import { VendorReportV1Controller } from './vendor-report.v1.controller';

/**
 * Payout rows and batches. Line items, adjustments and vendors are read (and marked paid) through
 * their own features' repositories; payout batches are this feature's collection.
 */
@Module({
  imports: [
    AdjustmentsModule,
    LineItemsModule,
    VendorsModule,
    MongooseModule.forFeature([{ name: PayoutBatch.name, schema: PayoutBatchSchema }]),
  ],
  controllers: [PayoutsV1Controller, PayoutsV2Controller, VendorReportV1Controller],
  providers: [
    PayoutBatchesRepository,
    PayoutEngine,
    PayoutBatchRunner,
    PayoutsService,
    VendorReportService,
    SystemPayoutBatchesRepository,
    VendorMoneyService,
    // SEAM: bind money-core's maintained balance service here (see vendor-balance.ts).
    { provide: VendorBalances, useClass: RowSumsVendorBalances },
    {
      provide: PayoutEngineOptions,
      inject: [jobsConfig.KEY],
      useFactory: (jobs: JobsConfig): PayoutEngineOptions => ({
        ...DEFAULT_PAYOUT_ENGINE_OPTIONS,
        leaseMs: jobs.payoutLeaseMs,
      }),
    },
  ],
  exports: [PayoutEngine, SystemPayoutBatchesRepository, PayoutBatchesRepository],
})
export class PayoutsModule {}
