import { Module } from '@nestjs/common';
import { AdjustmentsModule } from './adjustments/adjustments.module';
import { AuthModule } from './auth/auth.module';
import { CommissionsModule } from './commissions/commissions.module';
import { CommonModule } from './common/common.module';
import { ConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { FulfillmentsModule } from './fulfillments/fulfillments.module';
import { HealthModule } from './health/health.module';
import { IngestionModule } from './ingestion/ingestion.module';
import { LineItemsModule } from './line-items/line-items.module';
import { MerchantKeysModule } from './merchant-keys/merchant-keys.module';
import { OrdersModule } from './orders/orders.module';
import { PayoutsModule } from './payouts/payouts.module';
import { ProductsModule } from './products/products.module';
import { QueuesModule } from './queues/queues.module';
import { RedisModule } from './redis/redis.module';
import { ShopsModule } from './shops/shops.module';
import { UsersModule } from './users/users.module';
import { UserVendorsModule } from './vendors/user-vendors.module';
import { VendorsModule } from './vendors/vendors.module';

/** Infrastructure shared by the HTTP app, the worker and the CLI. */
export const CORE_MODULES = [ConfigModule, CommonModule, DatabaseModule, RedisModule, QueuesModule];

/** Feature modules, in the order of the layout in DESIGN §2. */
export const FEATURE_MODULES = [
  AuthModule,
  ShopsModule,
  MerchantKeysModule,
  VendorsModule,
  UserVendorsModule,
  UsersModule,
  CommissionsModule,
  LineItemsModule,
  ProductsModule,
  OrdersModule,
  IngestionModule,
  FulfillmentsModule,
  PayoutsModule,
  AdjustmentsModule,
  HealthModule,
];

@Module({ imports: [...CORE_MODULES, ...FEATURE_MODULES] })
export class AppModule {}
