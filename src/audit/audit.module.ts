import { Global, Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { AuditEvent, AuditEventSchema, AuditIntent, AuditIntentSchema } from './audit-event.schema';
import { AuditEventsRepository, AuditIntentsRepository } from './audit-events.repository';
import { AuditEventsService } from './audit-events.service';
import { AuditEventsV1Controller } from './audit-events.v1.controller';
import { AuditEventsV2Controller } from './audit-events.v2.controller';
import { AuditRelays } from './audit-relays';
import { AuditRepairService, AuditRepairStore } from './audit-repair.service';
import { AuditTrail } from './audit-trail.service';
import { SystemAuditRepository } from './system-audit.repository';

/**
 * The audit trail: every feature that writes on behalf of a credential records through AuditTrail
 * (global, so features depend on it without importing it); GET /v1 and /v2/audit-events read it;
 * the repair job (AuditMaintenanceProcessor) finishes what a dead request left.
 */
@Global()
@Module({
  imports: [
    MongooseModule.forFeature([
      { name: AuditEvent.name, schema: AuditEventSchema },
      { name: AuditIntent.name, schema: AuditIntentSchema },
    ]),
  ],
  controllers: [AuditEventsV1Controller, AuditEventsV2Controller],
  providers: [
    AuditEventsRepository,
    AuditIntentsRepository,
    AuditEventsService,
    AuditTrail,
    AuditRelays,
    AuditRepairService,
    { provide: AuditRepairStore, useClass: SystemAuditRepository },
  ],
  exports: [AuditTrail, AuditRepairService, AuditRelays],
})
export class AuditModule {}
