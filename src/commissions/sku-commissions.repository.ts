import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { ShopScope, TenantRepository } from '../common/tenancy';
import { SkuCommission } from './sku-commission.schema';
import type { SkuWritePlan, StoredSku } from './sku-upload';

/** The part of a mongoose query cursor the list needs. */
export interface RowCursor<T> {
  next(): Promise<T | null>;
  close(): Promise<unknown>;
}

export type SkuCommissionRow = Pick<
  SkuCommission,
  'sku' | 'costOfGoods' | 'commissionType' | 'commissionAmount'
>;

@Injectable()
export class SkuCommissionsRepository extends TenantRepository<SkuCommission> {
  constructor(@InjectModel(SkuCommission.name) model: Model<SkuCommission>) {
    super(model);
  }

  /** One read for a whole upload. `shopId` first: FerretDB tests the filter's keys in order. */
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
   * Writes an upload in one bulkWrite (inserts, then updates; unordered). Returns the SKUs whose
   * insert lost a race with a concurrent upload of the same SKU (duplicate key), for the caller to
   * apply as updates.
   *
   * Updates address each record by exactly `{_id}` — ids this repository just read inside the
   * scope — and as `updateMany`: on FerretDB (dev/CI) that is the only filter narrowed in SQL, and an
   * `updateOne` keeps its read open until the whole command ends, so ~100 of them in one command
   * exhaust its connection pool and deadlock the database. On MongoDB both forms are the same write.
   */
  async write(scope: ShopScope, plan: Pick<SkuWritePlan, 'inserts' | 'updates'>): Promise<string[]> {
    const ops = [
      ...plan.inserts.map((doc) => ({ insertOne: { document: { ...doc, ...this.owner(scope) } } })),
      ...plan.updates.map((u) => ({ updateMany: { filter: { _id: u._id }, update: { $set: u.set } } })),
    ];
    if (ops.length === 0) return [];
    try {
      await this.model.bulkWrite(ops as Parameters<Model<SkuCommission>['bulkWrite']>[0], { ordered: false });
      return [];
    } catch (err) {
      const writeErrors = (
        err as { writeErrors?: Array<{ index: number; code?: number; err?: { code?: number } }> }
      ).writeErrors;
      if (!writeErrors?.length) throw err;
      const lost: string[] = [];
      for (const we of writeErrors) {
        const code = we.code ?? we.err?.code;
        if (code !== 11000 || we.index >= plan.inserts.length) throw err;
        lost.push(plan.inserts[we.index].sku);
      }
      return lost;
    }
  }

  /** Every record of the shop, one batch in memory at a time (the list can hold 50,000+ SKUs). */
  cursor(scope: ShopScope): RowCursor<SkuCommissionRow> {
    return this.model
      .find(this.scoped(scope), { _id: 0, sku: 1, costOfGoods: 1, commissionType: 1, commissionAmount: 1 })
      .lean<SkuCommissionRow[]>()
      .batchSize(1000)
      .cursor() as unknown as RowCursor<SkuCommissionRow>;
  }
}
