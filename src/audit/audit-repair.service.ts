import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Types } from 'mongoose';
import { Clock } from '../common/clock/clock';
import { auditConfig, AuditConfig } from '../config/configuration';
import type { AuditRecord } from './audit-record';
import { AuditRelays } from './audit-relays';

/** A document whose outbox still holds events (its request died, or a later write raced it). */
export interface PendingOutbox {
  collection: string;
  _id: Types.ObjectId;
  /** Null for the shops collection (the document is the shop). */
  shopId: Types.ObjectId | null;
  key: string | null;
  count: number;
  records: AuditRecord[];
}

/** A deletion announced by a request that did not finish it. */
export interface StaleDeletion {
  _id: Types.ObjectId;
  shopId: Types.ObjectId;
  collectionName: string;
  record: AuditRecord;
}

/** What the repair needs of the store (the port: SystemAuditRepository; a typed fake in unit tests). */
export abstract class AuditRepairStore {
  /** Documents of every audited collection whose outbox got its last entry before `before`. */
  abstract pendingOutboxes(before: Date, limit: number): Promise<PendingOutbox[]>;
  /** Appends events; ones already stored (same `_id`) are skipped. */
  abstract storeEvents(records: AuditRecord[]): Promise<void>;
  /** Empties the outbox if it is still exactly as read (same last key, same count); whether it did. */
  abstract clearOutbox(doc: PendingOutbox): Promise<boolean>;
  abstract staleDeletions(before: Date, limit: number): Promise<StaleDeletion[]>;
  abstract resourceExists(deletion: StaleDeletion): Promise<boolean>;
  abstract dropDeletion(deletion: StaleDeletion): Promise<void>;
}

export interface RepairReport {
  /** Events copied from outboxes (some may have been stored already). */
  relayed: number;
  /** Outboxes emptied. */
  cleared: number;
  /** Deletions that happened and got their event. */
  deletionsConfirmed: number;
  /** Deletions that never happened (the resource is still there): dropped, no event. */
  deletionsDropped: number;
}

const BATCH = 500;
const MAX_BATCHES = 20;

/**
 * The repair job of the audit trail (repeatable, and once at every processor start). Anything a
 * request left half-done after the grace period is finished here, in the safe order:
 *  - an outbox entry is first stored as an event (idempotently: its `_id` is fixed), and only then
 *    is the outbox emptied, by an update that matches only while the document holds exactly what
 *    was read — so an entry added meanwhile is never lost;
 *  - a pending deletion becomes its event when the resource is gone, and is dropped without an
 *    event when the resource is still there (the delete never happened).
 */
@Injectable()
export class AuditRepairService {
  private readonly logger = new Logger('AuditRepair');

  constructor(
    private readonly store: AuditRepairStore,
    private readonly clock: Clock,
    @Inject(auditConfig.KEY) private readonly cfg: AuditConfig,
    private readonly relays: AuditRelays = new AuditRelays(),
  ) {}

  async repair(): Promise<RepairReport> {
    const report: RepairReport = { relayed: 0, cleared: 0, deletionsConfirmed: 0, deletionsDropped: 0 };
    const before = new Date(this.clock.now().getTime() - this.cfg.repairAfterMs);
    for (let i = 0; i < MAX_BATCHES; i++) {
      const docs = await this.store.pendingOutboxes(before, BATCH);
      const records = docs.flatMap((d) => d.records);
      await this.store.storeEvents(records);
      await this.relays.relayed(records);
      report.relayed += records.length;
      for (const doc of docs) if (await this.store.clearOutbox(doc)) report.cleared++;
      if (docs.length < BATCH) break;
    }
    for (let i = 0; i < MAX_BATCHES; i++) {
      const deletions = await this.store.staleDeletions(before, BATCH);
      for (const d of deletions) {
        if (await this.store.resourceExists(d)) report.deletionsDropped++;
        else {
          await this.store.storeEvents([d.record]);
          await this.relays.relayed([d.record]);
          report.deletionsConfirmed++;
        }
        await this.store.dropDeletion(d);
      }
      if (deletions.length < BATCH) break;
    }
    if (report.cleared + report.deletionsConfirmed + report.deletionsDropped > 0)
      this.logger.warn(report, 'Audit trail repaired: events a request left in outboxes or pending');
    return report;
  }
}
