import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { VendorsModule } from '../vendors/vendors.module';
import {
  PayoutAdjustment,
  PayoutAdjustmentSchema,
  PayoutAdjustmentSequence,
  PayoutAdjustmentSequenceSchema,
} from './payout-adjustment.schema';
import { PayoutAdjustmentsRepository } from './payout-adjustments.repository';
import { PayoutAdjustmentsService } from './payout-adjustments.service';
import { PayoutAdjustmentsV2Controller } from './payout-adjustments.v2.controller';

@Module({
  imports: [
    MongooseModule.forFeature([
      { name: PayoutAdjustment.name, schema: PayoutAdjustmentSchema },
      { name: PayoutAdjustmentSequence.name, schema: PayoutAdjustmentSequenceSchema },
    ]),
    VendorsModule,
  ],
  controllers: [PayoutAdjustmentsV2Controller],
  providers: [PayoutAdjustmentsRepository, PayoutAdjustmentsService],
  exports: [PayoutAdjustmentsRepository, PayoutAdjustmentsService],
})
export class AdjustmentsModule {}
