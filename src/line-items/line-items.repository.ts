import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { ShopScope, TenantRepository } from '../common/tenancy';
import { chunkedBulkWrite } from '../database/bulk-write';
import { LineItem } from './line-item.schema';

/**
 * Operations per bulk write command for `updateMany` statements. Unlike a matched `updateOne`, an
 * `updateMany` runs its query to the end, so FerretDB releases its connection after each statement
 * (see database/bulk-write.ts); larger chunks are safe and save round trips.
 */
export const BULK_CHUNK = 200;

/** One conditional write: `set` applies to the line item only while `guard` still holds. */
export interface GuardedSet {
  id: Types.ObjectId;
  guard: Record<string, unknown>;
  set: Record<string, unknown>;
}

@Injectable()
export class LineItemsRepository extends TenantRepository<LineItem> {
  protected override readonly vendorField = 'vendorId';

  constructor(@InjectModel(LineItem.name) model: Model<LineItem>) {
    super(model);
  }

  findForOrders(scope: ShopScope, orderIds: number[]): Promise<LineItem[]> {
    if (orderIds.length === 0) return Promise.resolve([]);
    const filter = orderIds.length === 1 ? { orderId: orderIds[0] } : { orderId: { $in: orderIds } };
    return this.model
      .find(this.scoped(scope, filter))
      .sort({ orderId: 1, lineItemId: 1 })
      .lean<LineItem[]>()
      .exec();
  }

  /** The line items with these (orderId, lineItemId) pairs; one query however many pairs. */
  async findByPairs(
    scope: ShopScope,
    pairs: Array<{ orderId: number; lineItemId: number }>,
  ): Promise<LineItem[]> {
    if (pairs.length === 0) return [];
    const orderIds = [...new Set(pairs.map((p) => p.orderId))];
    const lineItemIds = [...new Set(pairs.map((p) => p.lineItemId))];
    const wanted = new Set(pairs.map((p) => `${p.orderId}:${p.lineItemId}`));
    const rows = await this.model
      .find(this.scoped(scope, { orderId: { $in: orderIds }, lineItemId: { $in: lineItemIds } }))
      .lean<LineItem[]>()
      .exec();
    return rows.filter((r) => wanted.has(`${r.orderId}:${r.lineItemId}`));
  }

  /** Every line item of the shop with this SKU, oldest order first. */
  findBySku(scope: ShopScope, sku: string): Promise<LineItem[]> {
    return this.model
      .find(this.scoped(scope, { sku }))
      .sort({ orderCreatedAt: 1, _id: 1 })
      .lean<LineItem[]>()
      .exec();
  }

  findByIds(scope: ShopScope, ids: Types.ObjectId[]): Promise<LineItem[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.model
      .find(this.scoped(scope, { _id: { $in: ids } }))
      .lean<LineItem[]>()
      .exec();
  }

  /** Frozen flags of these line items (to report which ones a lost race left untouched). */
  async frozenIds(scope: ShopScope, ids: Types.ObjectId[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.model
      .find(this.scoped(scope, { _id: { $in: ids }, frozen: true }), { _id: 1 })
      .lean<Array<{ _id: Types.ObjectId }>>()
      .exec();
    return new Set(rows.map((r) => String(r._id)));
  }

  /** New line items of one order in one write. Returns false when any of them already existed. */
  async insertNew(scope: ShopScope, docs: Array<Partial<LineItem>>): Promise<boolean> {
    if (docs.length === 0) return true;
    try {
      await this.model.insertMany(
        docs.map((d) => ({ ...d, ...this.owner(scope) })),
        { ordered: false },
      );
      return true;
    } catch (err) {
      if (isDuplicateKey(err)) return false;
      throw err;
    }
  }

  /**
   * Applies many guarded sets in one bulk write. Identical (guard, set) pairs are merged into one
   * `updateMany` over their ids, so writing the same fields to many line items costs one operation.
   * Returns how many line items matched their guard.
   */
  async applyGuardedSets(scope: ShopScope, writes: GuardedSet[]): Promise<number> {
    if (writes.length === 0) return 0;
    const groups = new Map<
      string,
      { guard: Record<string, unknown>; set: Record<string, unknown>; ids: Types.ObjectId[] }
    >();
    for (const w of writes) {
      const key = JSON.stringify([w.guard, w.set]);
      const g = groups.get(key);
      if (g) g.ids.push(w.id);
      else groups.set(key, { guard: w.guard, set: w.set, ids: [w.id] });
    }
    // Always updateMany (one document when the filter names one _id): FerretDB keeps a connection
    // open per matched updateOne until the whole command ends and deadlocks past 100 of them.
    const ops: Parameters<Model<LineItem>['bulkWrite']>[0] = [...groups.values()].map((g) => ({
      updateMany: {
        filter: this.scoped(scope, { ...g.guard, _id: g.ids.length === 1 ? g.ids[0] : { $in: g.ids } }),
        update: { $set: g.set },
      },
    }));
    return (await chunkedBulkWrite(this.model, ops, BULK_CHUNK)).matchedCount;
  }

  /** Order-level facts on every line item of an order (frozen ones too: they are not figures). */
  async setOrderContext(scope: ShopScope, orderId: number, set: Record<string, unknown>): Promise<void> {
    await this.model.updateMany(this.scoped(scope, { orderId }), { $set: set }).exec();
  }
}

export function isDuplicateKey(err: unknown): boolean {
  const e = err as { code?: number; writeErrors?: Array<{ code?: number; err?: { code?: number } }> };
  if (e?.code === 11000) return true;
  return !!e?.writeErrors?.some((w) => w.code === 11000 || w.err?.code === 11000);
}
