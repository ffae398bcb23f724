import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { FulfillmentChangesService } from './fulfillment-changes.service';
import { FulfillmentReadsService } from './fulfillment-reads.service';
import { FulfillmentReadsV2Controller } from './fulfillment-reads.v2.controller';
import { FulfillmentsV2Controller } from './fulfillments.v2.controller';
import { ShipmentEvent, ShipmentEventSchema } from './shipment-event.schema';
import { ShipmentEventsRepository } from './shipment-events.repository';
import { ShipmentEventsService } from './shipment-events.service';
import { ShipmentEventsV2Controller } from './shipment-events.v2.controller';
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
  imports: [
    LineItemsModule,
    ShopsModule,
    MongooseModule.forFeature([{ name: ShipmentEvent.name, schema: ShipmentEventSchema }]),
  ],
  controllers: [
    FulfillmentsV1Controller,
    ShopPlatformV1Controller,
    FulfillmentsV2Controller,
    FulfillmentReadsV2Controller,
    ShipmentEventsV2Controller,
  ],
  providers: [
    FulfillmentsService,
    FulfillmentChangesService,
    FulfillmentReadsService,
    ShipmentEventsService,
    ShipmentEventsRepository,
    LocalStorePlatform,
    ShopifyStorePlatform,
    StorePlatforms,
    TokenCipher,
    ShopPlatformService,
  ],
  exports: [StorePlatforms, ShipmentEventsRepository],
})
export class FulfillmentsModule {}
