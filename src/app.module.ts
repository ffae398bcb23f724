import { DynamicModule, Global, Module } from '@nestjs/common';
import { AdjustmentsModule } from './adjustments/adjustments.module';
import { AuditModule } from './audit/audit.module';
import { AuthModule } from './auth/auth.module';
import { CommissionsModule } from './commissions/commissions.module';
import { CommonModule } from './common/common.module';
import { ConfigModule } from './config/config.module';
import { appConfig } from './config/configuration';
import { ProcessRole, ProcessRoleInfo, queueProcessorsFor } from './config/process-role';
import { DatabaseModule } from './database/database.module';
import { DocumentPdfModule } from './documents/pdf/document-pdf.module';
import { EventsModule } from './events/events.module';
import { FulfillmentsModule } from './fulfillments/fulfillments.module';
import { HealthModule } from './health/health.module';
import { IdempotencyModule } from './idempotency/idempotency.module';
import { IngestionModule } from './ingestion/ingestion.module';
import { JobsModule } from './jobs/jobs.module';
import { LineItemsModule } from './line-items/line-items.module';
import { RuleImpactModule } from './line-items/rule-impact.module';
import { MerchantKeysModule } from './merchant-keys/merchant-keys.module';
import { VendorApiKeysModule } from './vendor-keys/vendor-api-keys.module';
import { OpsModule } from './ops/ops.module';
import { OrdersModule } from './orders/orders.module';
import { PayoutScheduleModule } from './payout-schedule/payout-schedule.module';
import { PayoutsModule } from './payouts/payouts.module';
import { DashboardsModule } from './dashboards/dashboards.module';
import { DocumentsModule } from './documents/documents.module';
import { StatementsModule } from './statements/statements.module';
import { ReportsModule } from './reports/reports.module';
import { ProcessorsModule } from './processors.module';
import { ProductsModule } from './products/products.module';
import { QueuesModule } from './queues/queues.module';
import { RedisModule } from './redis/redis.module';
import { RateLimitsModule } from './common/rate-limits/rate-limits.module';
import { ShopsModule } from './shops/shops.module';
import { TaxProfilesModule } from './tax-profiles/tax-profiles.module';
import { TransfersModule } from './transfers/transfers.module';
import { UsersModule } from './users/users.module';
import { UserVendorsModule } from './vendors/user-vendors.module';
import { VendorsModule } from './vendors/vendors.module';

/** Infrastructure shared by the HTTP app, the worker and the CLI. */
export const CORE_MODULES = [
  ConfigModule,
  CommonModule,
  DatabaseModule,
  RedisModule,
  QueuesModule,
  RateLimitsModule,
];

/** Feature modules, in the order of the layout in DESIGN §2. */
export const FEATURE_MODULES = [
  AuditModule,
  IdempotencyModule,
  AuthModule,
  ShopsModule,
  MerchantKeysModule,
  VendorApiKeysModule,
  VendorsModule,
  UserVendorsModule,
  TaxProfilesModule,
  UsersModule,
  CommissionsModule,
  LineItemsModule,
  RuleImpactModule,
  ProductsModule,
  OrdersModule,
  IngestionModule,
  FulfillmentsModule,
  PayoutsModule,
  PayoutScheduleModule,
  DashboardsModule,
  StatementsModule,
  DocumentsModule,
  ReportsModule,
  DocumentPdfModule,
  AdjustmentsModule,
  TransfersModule,
  JobsModule,
  EventsModule,
  HealthModule,
];

@Global()
@Module({})
class ProcessRoleModule {
  static of(info: ProcessRoleInfo): DynamicModule {
    return {
      module: ProcessRoleModule,
      providers: [{ provide: ProcessRoleInfo, useValue: info }],
      exports: [ProcessRoleInfo],
    };
  }
}

@Module({})
export class AppModule {
  /**
   * The application of one process role — the one place that decides what a process runs, called
   * by its entry point at bootstrap (not while modules are imported): every role gets the core and
   * feature modules; processors and sweepers only where they run (`queueProcessorsFor`); the ops
   * listener (metrics, health) in the API and the worker. Reads the validated environment: an
   * invalid one throws EnvValidationError here, which the entry point prints as one line.
   */
  static forRole(role: ProcessRole): DynamicModule {
    const processors = queueProcessorsFor(role, appConfig().queueProcessors);
    return {
      module: AppModule,
      imports: [
        ProcessRoleModule.of({ role, processors }),
        ...CORE_MODULES,
        ...FEATURE_MODULES,
        ...(role === 'cli' ? [] : [OpsModule]),
        ...(processors ? [ProcessorsModule] : []),
      ],
    };
  }
}
