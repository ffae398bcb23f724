import { Module } from '@nestjs/common';
import { SalesFiguresRepository } from './sales-figures.repository';
import { EventSinkModule } from '../event-port/event-sink';
import { MongooseModule } from '@nestjs/mongoose';
import { CommissionsModule } from '../commissions/commissions.module';
import { JobsModule } from '../jobs/jobs.module';
import { ProductsModule } from '../products/products.module';
import { OrdersDataModule } from '../order-data/orders-data.module';
import { ShopsModule } from '../shops/shops.module';
import { VendorsModule } from '../vendors/vendors.module';
import { LineItem, LineItemSchema } from './line-item.schema';
import { LineItemEventMarkers } from './line-item-event-markers.repository';
import { LineItemEventsFinisher } from './line-item-events.finisher';
import { LineItemPricing } from './line-item-pricing';
import { PricingInputsRepository } from './pricing-inputs.repository';
import { LineItemUpdatesService } from './line-item-updates.service';
import { LineItemsRepository } from './line-items.repository';
import { PayoutRowsRepository } from './payout-rows.repository';
import { FulfillmentChangesRepository } from './fulfillment-changes.repository';
import { FulfillmentReadsRepository } from './fulfillment-reads.repository';
import { FulfillmentRowsRepository } from './fulfillment-rows.repository';
import { LineItemTallyRepository } from './line-item-tally.repository';
import { LineItemsV1Controller } from './line-items.v1.controller';
import { CommissionExplainService } from './commission-explain.service';
import { ProductRepricing } from './product-repricing';
import { RuleDryRun } from './rule-dry-run.service';
import { CommissionExplainV1Controller } from './commission-explain.v1.controller';
import { OrderIngestionService } from './order-ingestion.service';
import { OrderSummaryRefresher } from './order-summary.refresher';
import { PlatformFulfillmentsService } from './platform-fulfillments.service';
import { RecalculationEventsFinisher } from './recalculation-events';
import { RecalculationService } from './recalculation.service';
import { SkuUpdateRunner } from './sku-update.runner';
import { VendorTally } from './vendor-tally.service';
import { SystemLineItemsRepository } from './system-line-items.repository';
import { SellerTaxRowsRepository } from './seller-tax-rows.repository';
import { BalancesModule } from '../balances/balances.module';

/**
 * Calculated line items: one use-case service per write path (order ingestion, platform
 * fulfillments, the update endpoint, recalculation), one pricing path, and the repositories of the
 * collection, one per consumer: the figures, the payout rows (payouts, statements), the
 * fulfillment rows (fulfillments) and the tally's rows.
 */
@Module({
  imports: [
    MongooseModule.forFeature([{ name: LineItem.name, schema: LineItemSchema }]),
    OrdersDataModule,
    ShopsModule,
    VendorsModule,
    CommissionsModule,
    ProductsModule,
    JobsModule,
    EventSinkModule,
    BalancesModule,
  ],
  controllers: [LineItemsV1Controller, CommissionExplainV1Controller],
  providers: [
    SalesFiguresRepository,
    LineItemsRepository,
    PayoutRowsRepository,
    FulfillmentRowsRepository,
    FulfillmentChangesRepository,
    FulfillmentReadsRepository,
    LineItemTallyRepository,
    LineItemEventMarkers,
    LineItemEventsFinisher,
    LineItemPricing,
    CommissionExplainService,
    RuleDryRun,
    ProductRepricing,
    PricingInputsRepository,
    OrderSummaryRefresher,
    OrderIngestionService,
    PlatformFulfillmentsService,
    LineItemUpdatesService,
    RecalculationService,
    RecalculationEventsFinisher,
    SkuUpdateRunner,
    VendorTally,
    SystemLineItemsRepository,
    SellerTaxRowsRepository,
  ],
  exports: [
    SellerTaxRowsRepository,
    SalesFiguresRepository,
    LineItemsRepository,
    PayoutRowsRepository,
    FulfillmentRowsRepository,
    FulfillmentChangesRepository,
    FulfillmentReadsRepository,
    LineItemTallyRepository,
    LineItemEventMarkers,
    OrderSummaryRefresher,
    OrderIngestionService,
    PlatformFulfillmentsService,
    RecalculationService,
    SkuUpdateRunner,
    VendorTally,
    SystemLineItemsRepository,
    RuleDryRun,
    ProductRepricing,
  ],
})
export class LineItemsModule {}
