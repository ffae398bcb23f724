import { Module } from '@nestjs/common';
import { AdjustmentsModule } from '../adjustments/adjustments.module';
import { BalancesModule } from '../balances/balances.module';
import { LineItemsModule } from '../line-items/line-items.module';
import { ProductsModule } from '../products/products.module';
import { TransfersModule } from '../transfers/transfers.module';
import { VendorsModule } from '../vendors/vendors.module';
import { DashboardsController } from './dashboards.controller';
import { DashboardsService } from './dashboards.service';

/** Reads only: every figure comes from its feature's repository (line items, transfers, balances…). */
@Module({
  imports: [
    LineItemsModule,
    TransfersModule,
    BalancesModule,
    AdjustmentsModule,
    ProductsModule,
    VendorsModule,
  ],
  controllers: [DashboardsController],
  providers: [DashboardsService],
})
export class DashboardsModule {}
