import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { OrderSummary, OrderSummarySchema } from './order-summary.schema';
import { OrderSummariesRepository } from './order-summaries.repository';
import { Order, OrderSchema } from './order.schema';
import { OrdersRepository } from './orders.repository';

/**
 * Persistence of raw orders and order summaries, shared by ingestion and the line items feature
 * (which refreshes summaries on every line item change) without depending on the orders API.
 */
@Module({
  imports: [
    MongooseModule.forFeature([
      { name: Order.name, schema: OrderSchema },
      { name: OrderSummary.name, schema: OrderSummarySchema },
    ]),
  ],
  providers: [OrdersRepository, OrderSummariesRepository],
  exports: [OrdersRepository, OrderSummariesRepository],
})
export class OrdersDataModule {}
