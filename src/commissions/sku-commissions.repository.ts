import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { ModelOutbox, outboxOnInsert, withOutbox } from '../audit/audit-outbox';
import type { AuditRecord, AuditStamp } from '../audit/audit-record';
import { ShopScope } from '../common/tenancy';
import { TenantRepository } from '../database/tenant-repository';
import { chunkedBulkWrite } from '../database/bulk-write';
import { duplicateKeyIndexes, isDuplicateKeyError } from '../common/errors/duplicate-key';
import type { UnionPart } from '../database/read-together';
import { SkuCommission } from './sku-commission.schema';
import type { NewSkuRecord, SkuUpdate, StoredSku } from './sku-upload';

/** What pricing reads of a SKU record (StoredSku). */
const STORED_SKU = { sku: 1, commissionType: 1, commissionAmount: 1, costOfGoods: 1 } as const;

/** The part of a mongoose query cursor the list needs. */
export interface RowCursor<T> {
  next(): Promise<T | null>;
  close(): Promise<unknown>;
}

/** A change to one SKU record, for its audit event (`before` null: the record is new). */
export interface SkuChange {
  _id: Types.ObjectId;
  sku: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown>;
}

/**
 * How a write gets its audit events: the write's stamp, and the event of each record it changes
 * (built by the caller; null when nothing audited changes). Each event enters its record's outbox
 * in the same write.
 */
export interface SkuAudit {
  stamp: AuditStamp;
  eventFor(change: SkuChange): AuditRecord | null;
}

/** The events of the records a write reached (for AuditTrail.commit). */
export interface SkuWriteEvents {
  events: AuditRecord[];
  /** `all`: every write matched; `check`: some did not (the outbox tells which landed). */
  applied: 'all' | 'check';
}

export type SkuCommissionRow = Pick<
  SkuCommission,
  'sku' | 'costOfGoods' | 'commissionType' | 'commissionAmount'
>;

/**
 * The only repository of the SKU commission records: uploads and lists (commissions), the pricing
 * of line items and the cost of goods a line item update writes (line-items).
 */
@Injectable()
export class SkuCommissionsRepository extends TenantRepository<SkuCommission> {
  /** The audit outbox of SKU records (AuditTrail.commit). */
  readonly outbox: ModelOutbox;

  constructor(@InjectModel(SkuCommission.name) model: Model<SkuCommission>) {
    super(model);
    this.outbox = new ModelOutbox(model);
  }

  /** One read for a whole upload. */
  async findBySkus(scope: ShopScope, skus: string[]): Promise<Map<string, StoredSku>> {
    if (skus.length === 0) return new Map();
    const filter = this.scoped(scope);
    filter.sku = { $in: skus };
    const rows = await this.model.find(filter, STORED_SKU).lean<StoredSku[]>().exec();
    return new Map(rows.map((r) => [r.sku, r]));
  }

  /** The same records as `findBySkus`, as a part of a combined read (null: none wanted). */
  skusPart(tag: string, scope: ShopScope, skus: string[]): UnionPart | null {
    return skus.length === 0 ? null : this.readPart(tag, scope, { sku: { $in: skus } }, STORED_SKU);
  }

  /**
   * Inserts the records as new ones in one unordered insert; the unique (shopId, sku) index refuses
   * those the shop already has. Returns the refused SKUs. Insert first: it was the one write FerretDB
   * did without scanning the collection (it could not use an index to find a record to update), so
   * reading and updating are kept to the SKUs that already exist. FerretDB is no longer supported;
   * the shape stays, as changing it would change the commands SecantusDB receives.
   * MongoDB: an insert refused by the unique index and an upsert cost about the same; harmless there.
   */
  async insertNew(
    scope: ShopScope,
    records: NewSkuRecord[],
    now: Date,
    audit?: SkuAudit | null,
  ): Promise<{ refused: string[]; events: AuditRecord[] }> {
    if (records.length === 0) return { refused: [], events: [] };
    const docs = records.map((r) => {
      const _id = new Types.ObjectId();
      const event = audit?.eventFor({ _id, sku: r.sku, before: null, after: { ...r } }) ?? null;
      return {
        _id,
        ...r,
        ...(audit && event ? outboxOnInsert(audit.stamp, event) : {}),
        ...this.owner(scope),
        createdAt: now,
        updatedAt: now,
        event,
      };
    });
    const eventsOf = (skip: Set<number>) =>
      docs.flatMap((d, i) => (d.event && !skip.has(i) ? [d.event] : []));
    try {
      await this.model.collection.insertMany(
        docs.map(({ event: _event, ...doc }) => doc),
        { ordered: false },
      );
      return { refused: [], events: eventsOf(new Set()) };
    } catch (err) {
      const refused = duplicateKeyIndexes(err);
      if (!refused) throw err;
      return { refused: refused.map((i) => records[i].sku), events: eventsOf(new Set(refused)) };
    }
  }

  /** One bulk write for all changed records, each addressed by its id inside the scope. */
  async applyUpdates(
    scope: ShopScope,
    updates: Array<SkuUpdate & { sku?: string; before?: Record<string, unknown> }>,
    now: Date,
    audit?: SkuAudit | null,
  ): Promise<SkuWriteEvents> {
    if (updates.length === 0) return { events: [], applied: 'all' };
    const events: AuditRecord[] = [];
    const ops = updates.map((u) => {
      const event =
        audit?.eventFor({
          _id: u._id,
          sku: u.sku ?? '',
          before: u.before ?? {},
          after: { ...(u.before ?? {}), ...u.set },
        }) ?? null;
      if (event) events.push(event);
      return {
        updateOne: {
          filter: this.scoped(scope, { _id: u._id }),
          update: withOutbox({ $set: { ...u.set, updatedAt: now } }, audit?.stamp ?? null, event),
        },
      };
    });
    const { matchedCount } = await chunkedBulkWrite(this.model, ops);
    return { events, applied: matchedCount === ops.length ? 'all' : 'check' };
  }

  /**
   * Every record of the shop, one batch in memory at a time (the list can hold 50,000+ SKUs). The
   * driver's cursor, not mongoose's: mongoose's QueryCursor held far more than one batch (~95 MB of
   * RSS growth for 50,000 SKUs against ~6 MB). The filter is the same scoped one.
   */
  cursor(scope: ShopScope): RowCursor<SkuCommissionRow> {
    return this.model.collection.find<SkuCommissionRow>(this.scoped(scope), {
      projection: { _id: 0, sku: 1, costOfGoods: 1, commissionType: 1, commissionAmount: 1 },
      batchSize: 1000,
    });
  }

  /**
   * Sets the per-unit cost of goods of each SKU (a line item's `costOfItem` written by hand, spec
   * §4.2 rule 3). A record created here holds only the cost: commissionType / commissionAmount are
   * null, so it never overrides the vendor's rate (DESIGN §6). Missing records are inserted with
   * explicit nulls (not an upsert's $setOnInsert, whose nulls FerretDB dropped: no longer a supported
   * store, the shape kept for SecantusDB's sake); one read, one insert and one bulk update however many SKUs.
   * MongoDB: keeps a $setOnInsert null as well; the read-insert-update costs it two more round trips.
   */
  async setCostOfGoods(
    scope: ShopScope,
    entries: Array<{ sku: string; costOfGoods: number }>,
    audit?: SkuAudit | null,
  ): Promise<SkuWriteEvents> {
    const out: SkuWriteEvents = { events: [], applied: 'all' };
    if (entries.length === 0) return out;
    let existing = await this.findBySkus(
      scope,
      entries.map((e) => e.sku),
    );
    let toUpdate = entries.filter((e) => existing.has(e.sku));
    const missing = entries.filter((e) => !existing.has(e.sku));
    if (missing.length > 0) {
      const docs = missing.map((e) => {
        const _id = new Types.ObjectId();
        const values = {
          sku: e.sku,
          costOfGoods: e.costOfGoods,
          commissionType: null,
          commissionAmount: null,
        };
        const event = audit?.eventFor({ _id, sku: e.sku, before: null, after: values }) ?? null;
        if (event) out.events.push(event);
        return {
          _id,
          ...values,
          ...(audit && event ? outboxOnInsert(audit.stamp, event) : {}),
          ...this.owner(scope),
        };
      });
      try {
        await this.model.insertMany(docs, { ordered: false });
      } catch (err) {
        if (!isDuplicateKeyError(err)) throw err;
        // Created concurrently: set the cost on what is there now (read again for ids and values).
        out.applied = 'check';
        const now = await this.findBySkus(
          scope,
          missing.map((e) => e.sku),
        );
        existing = new Map([...existing, ...now]);
        toUpdate = [...toUpdate, ...missing.filter((e) => now.has(e.sku))];
      }
    }
    const ops = toUpdate.map((e) => {
      const current = existing.get(e.sku)!;
      const event =
        audit?.eventFor({
          _id: current._id,
          sku: e.sku,
          before: { costOfGoods: current.costOfGoods },
          after: { costOfGoods: e.costOfGoods },
        }) ?? null;
      if (event) out.events.push(event);
      return {
        updateOne: {
          filter: this.scoped(scope, { _id: current._id }),
          update: withOutbox({ $set: { costOfGoods: e.costOfGoods } }, audit?.stamp ?? null, event),
        },
      };
    });
    if (ops.length > 0 && (await chunkedBulkWrite(this.model, ops)).matchedCount < ops.length)
      out.applied = 'check';
    return out;
  }
}
