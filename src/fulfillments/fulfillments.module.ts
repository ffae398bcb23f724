import { Module } from '@nestjs/common';
import { LineItemsModule } from '../line-items/line-items.module';
import { ShopsModule } from '../shops/shops.module';
import { FulfillmentsService } from './fulfillments.service';
import { FulfillmentsV1Controller } from './fulfillments.v1.controller';
import { LocalStorePlatform } from './platform/local-store-platform';
import { ShopifyStorePlatform } from './platform/shopify-store-platform';
import { StorePlatforms } from './platform/store-platforms';
import { TokenCipher } from './platform/token-cipher';
import { ShopPlatformService } from './shop-platform.service';
import { ShopPlatformV1Controller } from './shop-platform.v1.controller';

/** Fulfillments: line items through FulfillmentRowsRepository, the shop's platform settings through ShopsRepository. */
@Module({
  imports: [LineItemsModule, ShopsModule],
  controllers: [FulfillmentsV1Controller, ShopPlatformV1Controller],
  providers: [
    FulfillmentsService,
    LocalStorePlatform,
    ShopifyStorePlatform,
    StorePlatforms,
    TokenCipher,
    ShopPlatformService,
  ],
  exports: [StorePlatforms],
})
export class FulfillmentsModule {}
