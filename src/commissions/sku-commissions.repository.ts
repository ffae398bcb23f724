import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { ShopScope, TenantRepository } from '../common/tenancy';
import { chunkedBulkWrite } from '../database/bulk-write';
import { duplicateKeyIndexes, isDuplicateKeyError } from '../database/duplicate-key';
import { SkuCommission } from './sku-commission.schema';
import type { NewSkuRecord, SkuUpdate, StoredSku } from './sku-upload';

/** The part of a mongoose query cursor the list needs. */
export interface RowCursor<T> {
  next(): Promise<T | null>;
  close(): Promise<unknown>;
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
  constructor(@InjectModel(SkuCommission.name) model: Model<SkuCommission>) {
    super(model);
  }

  /** One read for a whole upload. */
  async findBySkus(scope: ShopScope, skus: string[]): Promise<Map<string, StoredSku>> {
    if (skus.length === 0) return new Map();
    const filter = this.scoped(scope);
    filter.sku = { $in: skus };
    const rows = await this.model
      .find(filter, { sku: 1, commissionType: 1, commissionAmount: 1, costOfGoods: 1 })
      .lean<StoredSku[]>()
      .exec();
    return new Map(rows.map((r) => [r.sku, r]));
  }

  /**
   * Inserts the records as new ones in one unordered insert; the unique (shopId, sku) index refuses
   * those the shop already has. Returns the refused SKUs. Insert first because it is the one write
   * FerretDB (dev/CI) does without scanning the collection: it cannot use an index to find a record
   * to update, so reading and updating are kept to the SKUs that already exist.
   */
  async insertNew(scope: ShopScope, records: NewSkuRecord[], now: Date): Promise<string[]> {
    if (records.length === 0) return [];
    const docs = records.map((r) => ({
      _id: new Types.ObjectId(),
      ...r,
      ...this.owner(scope),
      createdAt: now,
      updatedAt: now,
    }));
    try {
      await this.model.collection.insertMany(docs, { ordered: false });
      return [];
    } catch (err) {
      const refused = duplicateKeyIndexes(err);
      if (!refused) throw err;
      return refused.map((i) => records[i].sku);
    }
  }

  /** One bulk write for all changed records, each addressed by its id inside the scope. */
  async applyUpdates(scope: ShopScope, updates: SkuUpdate[], now: Date): Promise<void> {
    if (updates.length === 0) return;
    await chunkedBulkWrite(
      this.model,
      updates.map((u) => ({
        updateOne: {
          filter: this.scoped(scope, { _id: u._id }),
          update: { $set: { ...u.set, updatedAt: now } },
        },
      })),
    );
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
   * explicit nulls (not an upsert's $setOnInsert, whose nulls FerretDB drops); one read, one insert
   * and one bulk update however many SKUs.
   */
  async setCostOfGoods(
    scope: ShopScope,
    entries: Array<{ sku: string; costOfGoods: number }>,
  ): Promise<void> {
    if (entries.length === 0) return;
    const existing = await this.findBySkus(
      scope,
      entries.map((e) => e.sku),
    );
    const toUpdate = entries.filter((e) => existing.has(e.sku));
    const missing = entries.filter((e) => !existing.has(e.sku));
    if (missing.length > 0) {
      try {
        await this.model.insertMany(
          missing.map((e) => ({
            sku: e.sku,
            costOfGoods: e.costOfGoods,
            commissionType: null,
            commissionAmount: null,
            ...this.owner(scope),
          })),
          { ordered: false },
        );
      } catch (err) {
        if (!isDuplicateKeyError(err)) throw err;
        toUpdate.push(...missing); // created concurrently: set the cost on what is there now
      }
    }
    const ops = toUpdate.map((e) => ({
      updateOne: {
        filter: this.scoped(scope, { sku: e.sku }),
        update: { $set: { costOfGoods: e.costOfGoods } },
      },
    }));
    if (ops.length > 0) await chunkedBulkWrite(this.model, ops);
  }
}
