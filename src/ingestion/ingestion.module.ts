import { BullModule } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { LineItemsModule } from '../line-items/line-items.module';
import { OrdersDataModule } from '../orders/orders-data.module';
import { ProductsModule } from '../products/products.module';
import { Queues } from '../queues/jobs';
import { processorsEnabled } from '../queues/queues';
import { ShopsModule } from '../shops/shops.module';
import { IngestionProcessor } from './ingestion.processor';
import { IngestionService } from './ingestion.service';
import { ShopifyWebhooksController } from './shopify-webhooks.controller';

@Module({
  imports: [
    BullModule.registerQueue({ name: Queues.Ingestion }),
    ShopsModule,
    LineItemsModule,
    OrdersDataModule,
    ProductsModule,
  ],
  controllers: [ShopifyWebhooksController],
  providers: [IngestionService, ...(processorsEnabled() ? [IngestionProcessor] : [])],
  exports: [IngestionService],
})
export class IngestionModule {}
