import { BullModule } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { AdjustmentsModule } from '../adjustments/adjustments.module';
import { LineItemsModule } from '../line-items/line-items.module';
import { Queues } from '../queues/jobs';
import { processorsEnabled } from '../queues/queues';
import { VendorsModule } from '../vendors/vendors.module';
import { PayoutBatch, PayoutBatchSchema } from './payout-batch.schema';
import { PayoutBatchesRepository } from './payout-batches.repository';
import { DEFAULT_PAYOUT_ENGINE_OPTIONS, PayoutEngineOptions } from './payout-engine.options';
import { PayoutEngine } from './payout-engine.service';
import { PayoutsProcessor } from './payouts.processor';
import { PayoutsService } from './payouts.service';
import { PayoutsV1Controller } from './payouts.v1.controller';

/**
 * Payout rows and batches. Line items, adjustments and vendors are read (and marked paid) through
 * their own features' repositories; payout batches are this feature's collection.
 */
@Module({
  imports: [
    AdjustmentsModule,
    LineItemsModule,
    VendorsModule,
    BullModule.registerQueue({ name: Queues.Payouts }),
    MongooseModule.forFeature([{ name: PayoutBatch.name, schema: PayoutBatchSchema }]),
  ],
  controllers: [PayoutsV1Controller],
  providers: [
    PayoutBatchesRepository,
    PayoutEngine,
    PayoutsService,
    { provide: PayoutEngineOptions, useValue: DEFAULT_PAYOUT_ENGINE_OPTIONS },
    ...(processorsEnabled() ? [PayoutsProcessor] : []),
  ],
  exports: [PayoutEngine],
})
export class PayoutsModule {}
