import { BullModule } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { SkuCommission, SkuCommissionSchema } from '../commissions/sku-commission.schema';
import { OrdersDataModule } from '../orders/orders-data.module';
import { processorsEnabled, Queues } from '../queues/queues';
import { ShopsModule } from '../shops/shops.module';
import { Vendor, VendorSchema } from '../vendors/vendor.schema';
import { LineItem, LineItemSchema } from './line-item.schema';
import { LineItemPricing } from './line-item-pricing';
import { LineItemsRepository } from './line-items.repository';
import { LineItemsService } from './line-items.service';
import { LineItemsV1Controller } from './line-items.v1.controller';
import { OrderSummaryRefresher } from './order-summary.refresher';
import { PricingInputsRepository } from './pricing-inputs.repository';
import { RecalculationProcessor } from './recalculation.processor';

@Module({
  imports: [
    MongooseModule.forFeature([
      { name: LineItem.name, schema: LineItemSchema },
      { name: Vendor.name, schema: VendorSchema },
      { name: SkuCommission.name, schema: SkuCommissionSchema },
    ]),
    BullModule.registerQueue({ name: Queues.Recalculation }),
    OrdersDataModule,
    ShopsModule,
  ],
  controllers: [LineItemsV1Controller],
  providers: [
    LineItemsRepository,
    PricingInputsRepository,
    LineItemPricing,
    OrderSummaryRefresher,
    LineItemsService,
    ...(processorsEnabled() ? [RecalculationProcessor] : []),
  ],
  exports: [LineItemsService, PricingInputsRepository, OrderSummaryRefresher],
})
export class LineItemsModule {}
