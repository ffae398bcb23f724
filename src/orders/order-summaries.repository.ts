import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import type { CursorRows, CursorWindow } from '../common/pagination';
import { ShopScope, TenantRepository } from '../common/tenancy';
import { chunkedBulkWrite, UPDATE_MANY_CHUNK } from '../database/bulk-write';
import { orderObjectId, vendorOrderSummaryId } from './order-ids';
import { OrderSummary } from './order-summary.schema';

export type OrderSummaryWrite = Omit<OrderSummary, 'shopId' | 'createdAt' | 'updatedAt'>;

/**
 * Materialised order totals. Lists read a page of these documents (index
 * `{shopId, vendorId, orderCreatedAt, _id}`); a shop-scoped caller reads the shop-level rows
 * (vendorId null), a vendor-scoped caller only its own vendor's rows.
 */
@Injectable()
export class OrderSummariesRepository extends TenantRepository<OrderSummary> {
  protected override readonly vendorField = 'vendorId';

  constructor(@InjectModel(OrderSummary.name) model: Model<OrderSummary>) {
    super(model);
  }

  /** The summaries of a brand-new order in one write; false when any already existed. */
  insertNew(scope: ShopScope, docs: OrderSummaryWrite[]): Promise<boolean> {
    return this.insertUnlessExists(scope, docs);
  }

  /**
   * Writes the summaries of these orders (one bulk write). With `prune` (a line item changed vendor),
   * also removes vendor summaries of these orders that no line item backs any more.
   */
  async replaceForOrders(
    scope: ShopScope,
    orderIds: number[],
    docs: OrderSummaryWrite[],
    prune: boolean,
  ): Promise<void> {
    await this.upsertMany(scope, docs);
    if (prune && orderIds.length > 0) {
      const keep = docs.filter((d) => d.vendorId).map((d) => d._id);
      await this.model
        .deleteMany(
          this.scoped(scope, {
            orderId: orderIds.length === 1 ? orderIds[0] : { $in: orderIds },
            vendorId: { $ne: null },
            _id: { $nin: keep },
          }),
        )
        .exec();
    }
  }

  /** Creates or replaces these summaries (bulk writes of up to UPDATE_MANY_CHUNK operations). */
  async upsertMany(scope: ShopScope, docs: OrderSummaryWrite[]): Promise<void> {
    // A summary's _id is derived from its shop id (order-ids.ts), so `{_id}` alone can only address
    // this shop's document; leaving shopId out of the filter lets FerretDB fetch it by _id instead of
    // scanning the collection (it pushes down nothing else). updateMany: see applyGuardedSets.
    const owner = this.owner(scope);
    const ops: Parameters<Model<OrderSummary>['bulkWrite']>[0] = docs.map((d) => {
      const { _id, ...rest } = d;
      const expected = d.vendorId
        ? vendorOrderSummaryId(scope.shopId, d.orderId, String(d.vendorId))
        : orderObjectId(scope.shopId, d.orderId);
      if (!expected.equals(_id)) throw new Error(`summary id ${String(_id)} is not derived from this shop`);
      return { updateMany: { filter: { _id }, update: { $set: { ...rest, ...owner } }, upsert: true } };
    });
    await chunkedBulkWrite(this.model, ops, UPDATE_MANY_CHUNK);
  }

  /** Every summary (shop-level and per vendor) of these orders. */
  findForOrders(scope: ShopScope, orderIds: number[]): Promise<OrderSummary[]> {
    if (orderIds.length === 0) return Promise.resolve([]);
    return this.model
      .find(this.scoped(scope, { orderId: orderIds.length === 1 ? orderIds[0] : { $in: orderIds } }))
      .lean<OrderSummary[]>()
      .exec();
  }

  deleteByIds(scope: ShopScope, ids: Types.ObjectId[]): Promise<unknown> {
    if (ids.length === 0) return Promise.resolve();
    return this.model.deleteMany(this.scoped(scope, { _id: { $in: ids } })).exec();
  }

  /** One cursor window of the caller's list (shop-level rows, or the vendor's own for vendor scopes). */
  page(scope: ShopScope, window: CursorWindow): Promise<CursorRows<OrderSummary>> {
    // vendorId null: the shop-level rows; scoped() replaces it with the caller's vendor for vendor scopes.
    return this.cursorPage(scope, { vendorId: null }, window, { timeField: 'orderCreatedAt' });
  }
}
