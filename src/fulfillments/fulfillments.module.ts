import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { LineItem, LineItemSchema } from '../line-items/line-item.schema';
import { LineItemsModule } from '../line-items/line-items.module';
import { Shop, ShopSchema } from '../shops/shop.schema';
import { FulfillmentLineItemsRepository } from './fulfillment-line-items.repository';
import { FulfillmentsService } from './fulfillments.service';
import { FulfillmentsV1Controller } from './fulfillments.v1.controller';
import { LocalStorePlatform } from './platform/local-store-platform';
import { ShopifyStorePlatform } from './platform/shopify-store-platform';
import { StorePlatforms } from './platform/store-platforms';
import { TokenCipher } from './platform/token-cipher';
import { ShopPlatformRepository } from './shop-platform.repository';
import { ShopPlatformService } from './shop-platform.service';
import { ShopPlatformV1Controller } from './shop-platform.v1.controller';

@Module({
  imports: [
    LineItemsModule,
    MongooseModule.forFeature([
      { name: LineItem.name, schema: LineItemSchema },
      { name: Shop.name, schema: ShopSchema },
    ]),
  ],
  controllers: [FulfillmentsV1Controller, ShopPlatformV1Controller],
  providers: [
    FulfillmentLineItemsRepository,
    FulfillmentsService,
    LocalStorePlatform,
    ShopifyStorePlatform,
    StorePlatforms,
    TokenCipher,
    ShopPlatformRepository,
    ShopPlatformService,
  ],
  exports: [StorePlatforms],
})
export class FulfillmentsModule {}
