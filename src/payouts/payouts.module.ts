import { BullModule } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { AdjustmentsModule } from '../adjustments/adjustments.module';
import { LineItem, LineItemSchema } from '../line-items/line-item.schema';
import { LineItemsModule } from '../line-items/line-items.module';
import { processorsEnabled, Queues } from '../queues/queues';
import { PayoutBatch, PayoutBatchSchema } from './payout-batch.schema';
import { PayoutBatchesRepository } from './payout-batches.repository';
import { PayoutEngine } from './payout-engine.service';
import {
  DEFAULT_PAYOUT_ENGINE_OPTIONS,
  NoPayoutFailures,
  PayoutEngineOptions,
  PayoutFailureHook,
} from './payout-failure-hook';
import { PayoutLineItemsRepository } from './payout-line-items.repository';
import { PayoutsProcessor } from './payouts.processor';
import { PayoutsService } from './payouts.service';
import { PayoutsV1Controller } from './payouts.v1.controller';

@Module({
  imports: [
    AdjustmentsModule,
    LineItemsModule,
    BullModule.registerQueue({ name: Queues.Payouts }),
    MongooseModule.forFeature([
      { name: PayoutBatch.name, schema: PayoutBatchSchema },
      { name: LineItem.name, schema: LineItemSchema },
    ]),
  ],
  controllers: [PayoutsV1Controller],
  providers: [
    PayoutBatchesRepository,
    PayoutLineItemsRepository,
    PayoutEngine,
    PayoutsService,
    { provide: PayoutFailureHook, useClass: NoPayoutFailures },
    { provide: PayoutEngineOptions, useValue: DEFAULT_PAYOUT_ENGINE_OPTIONS },
    ...(processorsEnabled() ? [PayoutsProcessor] : []),
  ],
  exports: [PayoutEngine],
})
export class PayoutsModule {}
