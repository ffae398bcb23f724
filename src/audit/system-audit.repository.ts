import { Injectable } from '@nestjs/common';
import { InjectConnection, InjectModel } from '@nestjs/mongoose';
import { Connection, Model, Types } from 'mongoose';
import { systemQuery } from '../database/tenant-guard.plugin';
import { AuditEvent, AuditIntent } from './audit-event.schema';
import { insertEvents } from './audit-events.repository';
import { AuditOutboxFields, CLEARED_OUTBOX } from './audit-outbox';
import type { AuditRecord } from './audit-record';
import { AuditRepairStore, PendingOutbox, StaleDeletion } from './audit-repair.service';

const OUTBOX_SCAN = 'audit repair: outbox entries a request left behind';
const INTENT_SCAN = 'audit repair: deletions a request left unfinished';

type OutboxDoc = AuditOutboxFields & { _id: Types.ObjectId; shopId?: Types.ObjectId };

/**
 * The repair job's cross-shop reads and writes (the audit trail's only opt-out of the tenant
 * guard): every collection whose schema carries the audit outbox, scanned by `{auditPendingAt}`,
 * and the pending deletions, scanned by `{createdAt}`. Each document found is then handled by its
 * `_id` and `shopId`.
 */
@Injectable()
export class SystemAuditRepository extends AuditRepairStore {
  constructor(
    @InjectConnection() private readonly connection: Connection,
    @InjectModel(AuditEvent.name) private readonly events: Model<AuditEvent>,
    @InjectModel(AuditIntent.name) private readonly intents: Model<AuditIntent>,
  ) {
    super();
  }

  /** Every model with the outbox (auditOutboxPlugin); the shops collection has no `shopId`. */
  private audited(): Array<{ model: Model<OutboxDoc>; tenant: boolean }> {
    return Object.values(this.connection.models)
      .filter((m) => !!m.schema.path('auditPendingAt'))
      .map((m) => ({ model: m as unknown as Model<OutboxDoc>, tenant: !!m.schema.path('shopId') }));
  }

  async pendingOutboxes(before: Date, limit: number): Promise<PendingOutbox[]> {
    const out: PendingOutbox[] = [];
    for (const { model, tenant } of this.audited()) {
      if (out.length >= limit) break;
      let query = model
        .find(
          { auditPendingAt: { $lt: before } },
          { shopId: 1, auditOutbox: 1, auditPending: 1, auditPendingKey: 1 },
        )
        .limit(limit - out.length);
      if (tenant) query = query.setOptions(systemQuery(OUTBOX_SCAN));
      for (const doc of await query.lean<OutboxDoc[]>().exec()) {
        out.push({
          collection: model.collection.collectionName,
          _id: doc._id,
          shopId: tenant ? (doc.shopId ?? null) : null,
          key: doc.auditPendingKey ?? null,
          count: doc.auditPending ?? 0,
          records: Object.values(doc.auditOutbox ?? {}),
        });
      }
    }
    return out;
  }

  storeEvents(records: AuditRecord[]): Promise<void> {
    return insertEvents(this.events, records);
  }

  async clearOutbox(doc: PendingOutbox): Promise<boolean> {
    const entry = this.audited().find((a) => a.model.collection.collectionName === doc.collection);
    if (!entry) return false;
    const filter: Record<string, unknown> = doc.shopId
      ? { shopId: doc.shopId, _id: doc._id }
      : { _id: doc._id };
    filter.auditPendingKey = doc.key;
    filter.auditPending = doc.count;
    const res = await entry.model.updateOne(filter, CLEARED_OUTBOX, { timestamps: false }).exec();
    return res.matchedCount === 1;
  }

  async staleDeletions(before: Date, limit: number): Promise<StaleDeletion[]> {
    const rows = await this.intents
      .find({ createdAt: { $lt: before } })
      .setOptions(systemQuery(INTENT_SCAN))
      .limit(limit)
      .lean<Array<AuditIntent>>()
      .exec();
    return rows.map((r) => ({
      _id: r._id,
      shopId: r.shopId,
      collectionName: r.collectionName,
      record: r.record as unknown as AuditRecord,
    }));
  }

  async resourceExists(d: StaleDeletion): Promise<boolean> {
    const found = await this.connection
      .collection(d.collectionName)
      .findOne(
        { shopId: d.shopId, _id: new Types.ObjectId(d.record.resource.id) },
        { projection: { _id: 1 } },
      );
    return found !== null;
  }

  async dropDeletion(d: StaleDeletion): Promise<void> {
    await this.intents.deleteOne({ shopId: d.shopId, _id: d._id }).exec();
  }
}
