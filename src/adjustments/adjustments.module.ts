import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { Vendor, VendorSchema } from '../vendors/vendor.schema';
import {
  PayoutAdjustment,
  PayoutAdjustmentSchema,
  PayoutAdjustmentSequence,
  PayoutAdjustmentSequenceSchema,
} from './payout-adjustment.schema';
import { PayoutAdjustmentsRepository } from './payout-adjustments.repository';
import { PayoutAdjustmentsService } from './payout-adjustments.service';
import { PayoutAdjustmentsV2Controller } from './payout-adjustments.v2.controller';
import { VendorDirectory } from './vendor-directory.repository';

@Module({
  imports: [
    MongooseModule.forFeature([
      { name: PayoutAdjustment.name, schema: PayoutAdjustmentSchema },
      { name: PayoutAdjustmentSequence.name, schema: PayoutAdjustmentSequenceSchema },
      { name: Vendor.name, schema: VendorSchema },
    ]),
  ],
  controllers: [PayoutAdjustmentsV2Controller],
  providers: [PayoutAdjustmentsRepository, PayoutAdjustmentsService, VendorDirectory],
  exports: [PayoutAdjustmentsRepository, VendorDirectory],
})
export class AdjustmentsModule {}
