import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { AnyBulkWriteOperation, Model, Types } from 'mongoose';
import { CursorWindow, cursorQuery } from '../common/pagination';
import { ShopScope, TenantRepository } from '../common/tenancy';
import { BULK_CHUNK, isDuplicateKey } from '../line-items/line-items.repository';
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
  async insertNew(scope: ShopScope, docs: OrderSummaryWrite[]): Promise<boolean> {
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
   * Writes the summaries of these orders (one bulk write). With `prune` (a line item changed vendor),
   * also removes vendor summaries of these orders that no line item backs any more.
   */
  async replaceForOrders(
    scope: ShopScope,
    orderIds: number[],
    docs: OrderSummaryWrite[],
    prune: boolean,
  ): Promise<void> {
    // updateMany on a unique _id: see LineItemsRepository.applyGuardedSets (FerretDB and updateOne).
    const ops: AnyBulkWriteOperation<OrderSummary>[] = docs.map((d) => {
      const { _id, ...rest } = d;
      return { updateMany: { filter: this.scoped(scope, { _id }), update: { $set: rest }, upsert: true } };
    });
    for (let i = 0; i < ops.length; i += BULK_CHUNK) {
      await this.model.bulkWrite(ops.slice(i, i + BULK_CHUNK), { ordered: false });
    }
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

  /** Shop-level summaries of these orders (their notes and customer are not on line items). */
  findShopLevel(scope: ShopScope, orderRefs: Types.ObjectId[]): Promise<OrderSummary[]> {
    if (orderRefs.length === 0) return Promise.resolve([]);
    return this.model
      .find(this.scoped(scope, { _id: { $in: orderRefs }, vendorId: null }), { notes: 1, customer: 1 })
      .lean<OrderSummary[]>()
      .exec();
  }

  /**
   * One cursor window of the caller's list: `size + 1` rows in scan order, whether rows exist on
   * the other side of the boundary, and the list's total.
   */
  async page(
    scope: ShopScope,
    window: CursorWindow,
  ): Promise<{ rows: OrderSummary[]; hasMoreBehind: boolean; totalCount: number }> {
    const { sort, seek, behind } = cursorQuery(window, 'orderCreatedAt');
    const list = { vendorId: null }; // replaced by the caller's vendor for vendor scopes
    const [rows, behindRow, totalCount] = await Promise.all([
      this.model
        .find(this.scoped(scope, { ...list, ...seek }))
        .sort(sort)
        .limit(window.size + 1)
        .lean<OrderSummary[]>()
        .exec(),
      behind
        ? this.model
            .findOne(this.scoped(scope, { ...list, ...behind }), { _id: 1 })
            .lean()
            .exec()
        : Promise.resolve(null),
      this.model.countDocuments(this.scoped(scope, list)).exec(),
    ]);
    return { rows, hasMoreBehind: !!behindRow, totalCount };
  }
}
