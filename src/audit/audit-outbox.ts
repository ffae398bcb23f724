import { Schema as MongooseSchema, Types } from 'mongoose';
import type { Model, Schema } from 'mongoose';
import type { ShopScope } from '../common/tenancy';
import type { AuditRecord, AuditStamp } from './audit-record';

/**
 * The transactional outbox of the audit trail, kept inside each audited document. An audited write
 * changes the document and, in the same single-document update, stores its event under
 * `auditOutbox.<write key>`, names itself in `auditPendingKey`, counts the entry in `auditPending`
 * and dates it in `auditPendingAt` — all or nothing, without a transaction. The event is then
 * copied to `audit_events` (by the request, or by the repair job after a crash) under its own
 * `_id`, so a copy made twice is stored once, and the outbox is emptied only by an update that
 * proves it holds nothing else (see `ModelOutbox.settle`).
 */
export interface AuditOutboxFields {
  /** Pending events by write key. */
  auditOutbox?: Record<string, AuditRecord>;
  /** Entries added since the outbox was last emptied (= entries in it). */
  auditPending?: number;
  /** The key of the last audited write. */
  auditPendingKey?: string;
  /** When the last entry was added; the repair job's index. */
  auditPendingAt?: Date;
}

export function auditOutboxPlugin(schema: Schema): void {
  schema.add({
    auditOutbox: { type: MongooseSchema.Types.Mixed, default: undefined },
    auditPending: { type: Number, default: undefined },
    auditPendingKey: { type: String, default: undefined },
    auditPendingAt: { type: Date, default: undefined },
  });
  // The repair job's cross-shop scan for entries a request left behind (a system query).
  schema.index({ auditPendingAt: 1 });
}

/** The outbox fields of a new document created by an audited write. */
export function outboxOnInsert(stamp: AuditStamp, record: AuditRecord): Required<AuditOutboxFields> {
  return {
    auditOutbox: { [stamp.key]: record },
    auditPending: 1,
    auditPendingKey: stamp.key,
    auditPendingAt: stamp.at,
  };
}

/** An update (`$set` + `$inc`) with the write's outbox entry added; unchanged without one. */
export function withOutbox<U extends { $set?: Record<string, unknown>; $inc?: Record<string, number> }>(
  update: U,
  stamp: AuditStamp | null,
  record: AuditRecord | null | undefined,
): U {
  if (!stamp || !record) return update;
  return {
    ...update,
    $set: {
      ...(update.$set ?? {}),
      [`auditOutbox.${stamp.key}`]: record,
      auditPendingKey: stamp.key,
      auditPendingAt: stamp.at,
    },
    $inc: { ...(update.$inc ?? {}), auditPending: 1 },
  };
}

/** What the audit trail asks of an audited collection after a write. */
export interface AuditOutbox {
  /** Which of these documents carry `key` as their last audited write (the write reached them). */
  stamped(scope: ShopScope, ids: Types.ObjectId[], key: string): Promise<Types.ObjectId[]>;
  /**
   * Empties the outbox of each document whose last write is `key` and which holds that one entry
   * only: its event is stored by then. Any other document keeps its entries for the repair job.
   */
  settle(scope: ShopScope, ids: Types.ObjectId[], key: string): Promise<void>;
}

/** Unsets every outbox field (the document's outbox is empty afterwards). */
export const CLEARED_OUTBOX = {
  $unset: { auditOutbox: '', auditPending: '', auditPendingKey: '', auditPendingAt: '' },
} as const;

/**
 * The outbox of a tenant collection (documents with `shopId`), or of the shops collection (the
 * document is the shop). Relay writes leave `updatedAt` alone: they are bookkeeping, not changes.
 */
export class ModelOutbox implements AuditOutbox {
  constructor(
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    private readonly model: Model<any>,
    private readonly tenantField: 'shopId' | '_id' = 'shopId',
  ) {}

  async stamped(scope: ShopScope, ids: Types.ObjectId[], key: string): Promise<Types.ObjectId[]> {
    const where = this.where(scope, ids);
    if (!where) return [];
    const rows = await this.model
      .find({ ...where, auditPendingKey: key }, { _id: 1 })
      .lean<Array<{ _id: Types.ObjectId }>>()
      .exec();
    return rows.map((r) => r._id);
  }

  async settle(scope: ShopScope, ids: Types.ObjectId[], key: string): Promise<void> {
    const where = this.where(scope, ids);
    if (!where) return;
    await this.model
      .updateMany({ ...where, auditPendingKey: key, auditPending: 1 }, CLEARED_OUTBOX, { timestamps: false })
      .exec();
  }

  private where(scope: ShopScope, ids: Types.ObjectId[]): Record<string, unknown> | null {
    if (this.tenantField === '_id') {
      // the shops collection: only the scope's own shop
      return ids.some((id) => String(id) === scope.shopId) ? { _id: new Types.ObjectId(scope.shopId) } : null;
    }
    if (ids.length === 0) return null;
    return {
      shopId: new Types.ObjectId(scope.shopId),
      _id: ids.length === 1 ? ids[0] : { $in: ids },
    };
  }
}
