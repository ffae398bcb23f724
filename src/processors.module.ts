import { Module } from '@nestjs/common';
import { AuditMaintenanceProcessor } from './audit/audit-maintenance.processor';
import { BalancesModule } from './balances/balances.module';
import { DocumentsModule } from './documents/documents.module';
import { DocumentsMaintenanceProcessor, DocumentsProcessor } from './documents/documents.processor';
import { EventsModule } from './events/events.module';
import { EventsMaintenanceProcessor, EventsProcessor } from './events/events.processor';
import { IdempotencyMaintenanceProcessor } from './idempotency/idempotency-maintenance.processor';
import { IngestionModule } from './ingestion/ingestion.module';
import { InboxMaintenanceProcessor } from './ingestion/inbox-maintenance.processor';
import { IngestionProcessor } from './ingestion/ingestion.processor';
import { JobsMaintenanceProcessor } from './jobs/jobs-maintenance.processor';
import { JobsModule } from './jobs/jobs.module';
import { LineItemsModule } from './line-items/line-items.module';
import { RecalculationProcessor } from './line-items/recalculation.processor';
import { PayoutMaintenanceProcessor } from './payouts/payout-maintenance.processor';
import { PayoutScheduleModule } from './payout-schedule/payout-schedule.module';
import { PayoutScheduleProcessor } from './payout-schedule/payout-schedule.processor';
import { PayoutsModule } from './payouts/payouts.module';
import { PayoutsProcessor } from './payouts/payouts.processor';
import { ReportsModule } from './reports/reports.module';
import { SellerTaxMaintenanceProcessor } from './reports/seller-tax.processor';
import { TransferMaintenanceProcessor, TransfersProcessor } from './transfers/transfers.processor';
import { TransfersModule } from './transfers/transfers.module';

/**
 * Every queue processor and sweeper (each class lives in its feature folder and calls that
 * feature's services). Included by `AppModule.forRole` only in a process that runs processors:
 * the worker, the API unless QUEUE_PROCESSORS=false, the CLI only with QUEUE_PROCESSORS=true.
 */
@Module({
  imports: [
    IngestionModule,
    LineItemsModule,
    PayoutsModule,
    PayoutScheduleModule,
    TransfersModule,
    JobsModule,
    EventsModule,
    DocumentsModule,
    ReportsModule,
    BalancesModule,
  ],
  providers: [
    IngestionProcessor,
    InboxMaintenanceProcessor,
    RecalculationProcessor,
    PayoutsProcessor,
    PayoutMaintenanceProcessor,
    PayoutScheduleProcessor,
    TransfersProcessor,
    TransferMaintenanceProcessor,
    JobsMaintenanceProcessor,
    AuditMaintenanceProcessor,
    IdempotencyMaintenanceProcessor,
    EventsProcessor,
    EventsMaintenanceProcessor,
    DocumentsProcessor,
    DocumentsMaintenanceProcessor,
    SellerTaxMaintenanceProcessor,
  ],
})
export class ProcessorsModule {}
