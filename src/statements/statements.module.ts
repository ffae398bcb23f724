import { Module } from '@nestjs/common';
import { AdjustmentsModule } from '../adjustments/adjustments.module';
import { LineItemsModule } from '../line-items/line-items.module';
import { PayoutsModule } from '../payouts/payouts.module';
import { ShopsModule } from '../shops/shops.module';
import { TransfersModule } from '../transfers/transfers.module';
import { StatementsService } from './statements.service';
import { StatementsV1Controller } from './statements.v1.controller';
import { StatementsV2Controller } from './statements.v2.controller';

/**
 * Statements (STYLE: line-items → payouts → statements): what a batch settled, as JSON and CSV.
 * Reads batches, rows, adjustments and the batch's transfer through their own features' repositories; owns no collection.
 */
@Module({
  imports: [AdjustmentsModule, LineItemsModule, PayoutsModule, ShopsModule, TransfersModule],
  controllers: [StatementsV1Controller, StatementsV2Controller],
  providers: [StatementsService],
})
export class StatementsModule {}
