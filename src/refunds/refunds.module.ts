import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { LineItemsModule } from '../line-items/line-items.module';
import { ShopsModule } from '../shops/shops.module';
import { EventSinkModule } from '../event-port/event-sink';
import { RefundEvents } from './refund-events';
import { RefundMetrics } from './refund-metrics';
import { Refund, RefundSchema } from './refund.schema';
import { RefundsRepository } from './refunds.repository';
import { RefundsService } from './refunds.service';

/** Refunds (DESIGN §6): stored once per refund id, cut into refund rows in `line_items`. */
@Module({
  imports: [
    MongooseModule.forFeature([{ name: Refund.name, schema: RefundSchema }]),
    LineItemsModule,
    ShopsModule,
    EventSinkModule,
  ],
  providers: [RefundEvents, RefundsRepository, RefundsService, RefundMetrics],
  exports: [RefundsService, RefundMetrics],
})
export class RefundsModule {}
