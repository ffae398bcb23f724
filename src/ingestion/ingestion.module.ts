import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { LineItemsModule } from '../line-items/line-items.module';
import { OrdersDataModule } from '../order-data/orders-data.module';
import { ProductsModule } from '../products/products.module';
import { RefundsModule } from '../refunds/refunds.module';
import { ShopsModule } from '../shops/shops.module';
import { DeliveryRejectionsRepository } from './delivery-rejections.repository';
import { IngestionService } from './ingestion.service';
import { UnknownShopGuard } from './unknown-shop-guard';
import { ShopifyWebhooksController } from './shopify-webhooks.controller';
import { SystemDeliveriesRepository } from './system-deliveries.repository';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookDeliveriesService } from './webhook-deliveries.service';
import { WebhookDeliveriesV1Controller } from './webhook-deliveries.v1.controller';
import { WebhookDelivery, WebhookDeliverySchema } from './webhook-delivery.schema';
import { WebhookInbox } from './webhook-inbox.service';
import { WebhookProcessingService } from './webhook-processing.service';
import { WebhookTopicHandlers } from './webhook-topic-handlers';

/**
 * Store-platform webhooks: verification, the durable inbox (`webhook_deliveries`) and what a
 * delivery does to the shop's data. Its queue processors (ingestion, sweeper, retention) are
 * registered by the ProcessorsModule in the processes that run them.
 */
@Module({
  imports: [
    MongooseModule.forFeature([{ name: WebhookDelivery.name, schema: WebhookDeliverySchema }]),
    ShopsModule,
    LineItemsModule,
    OrdersDataModule,
    ProductsModule,
    RefundsModule,
  ],
  controllers: [ShopifyWebhooksController, WebhookDeliveriesV1Controller],
  providers: [
    IngestionService,
    WebhookInbox,
    WebhookProcessingService,
    WebhookDeliveriesRepository,
    SystemDeliveriesRepository,
    WebhookDeliveriesService,
    UnknownShopGuard,
    DeliveryRejectionsRepository,
    WebhookTopicHandlers,
  ],
  exports: [
    IngestionService,
    WebhookInbox,
    SystemDeliveriesRepository,
    WebhookTopicHandlers,
    // The provider webhooks (transfers/) share its negative cache of unknown shops.
    UnknownShopGuard,
  ],
})
export class IngestionModule {}
