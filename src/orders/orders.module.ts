import { Module } from '@nestjs/common';
import { LineItemsModule } from '../line-items/line-items.module';
import { OrdersDataModule } from '../order-data/orders-data.module';
import { RefundsModule } from '../refunds/refunds.module';
import { OrdersService } from './orders.service';
import { OrdersV1Controller } from './orders.v1.controller';
import { OrdersV2Controller } from './orders.v2.controller';

@Module({
  imports: [OrdersDataModule, LineItemsModule, RefundsModule],
  controllers: [OrdersV1Controller, OrdersV2Controller],
  providers: [OrdersService],
})
export class OrdersModule {}
