import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import type { CursorRows, CursorWindow } from '../common/pagination';
import { ShopScope } from '../common/tenancy';
import { TenantRepository } from '../database/tenant-repository';
import { chunkedBulkWrite } from '../database/bulk-write';
import { orderListWhere, type OrderListFilter } from './order-list-filter';
import { OrderSummary, type RolledUpFulfillment } from './order-summary.schema';

/** A summary to write; `notes` / `customer` absent: keep what is stored (only ingestion knows them). */
export type OrderSummaryWrite = Omit<
  OrderSummary,
  'shopId' | 'createdAt' | 'updatedAt' | 'notes' | 'customer'
> &
  Partial<Pick<OrderSummary, 'notes' | 'customer'>>;

/**
 * Materialised order totals. Lists read a page of these documents (index
 * `{shopId, vendorId, orderCreatedAt, _id}`); a shop-scoped caller reads the shop-level rows
 * (vendorId null), a vendor-scoped caller only its own vendor's rows. One per (order, vendor) and
 * one shop-level per order (vendorId null), with ids derived from those keys (order-ids.ts).
 */
@Injectable()
export class OrderSummariesRepository extends TenantRepository<OrderSummary> {
  protected override readonly vendorField = 'vendorId';

  constructor(@InjectModel(OrderSummary.name) model: Model<OrderSummary>) {
    super(model);
  }

  /** The summaries of a brand-new order in one write; false when any already existed. */
  insertNew(scope: ShopScope, docs: OrderSummaryWrite[]): Promise<boolean> {
    return this.insertUnlessExists(
      scope,
      docs.map((d) => ({ notes: null, customer: null, ...d })),
    );
  }

  /**
   * Makes these orders' summaries exactly `docs` in one bulk write: each document is upserted by
   * its id, and with `prune` the vendor summaries of these orders that `docs` no longer holds (a
   * line item changed vendor) are deleted.
   */
  async sync(scope: ShopScope, orderIds: number[], docs: OrderSummaryWrite[], prune: boolean): Promise<void> {
    const upserts = docs.map((d) => {
      const { _id, notes, customer, ...rest } = d;
      const keep = notes === undefined ? {} : { notes, customer: customer ?? null };
      return {
        updateOne: {
          filter: this.scoped(scope, { _id }),
          update: {
            $set: { ...rest, ...keep },
            ...(notes === undefined ? { $setOnInsert: { notes: null, customer: null } } : {}),
          },
          upsert: true,
        },
      };
    });
    const kept = new Map<number, Types.ObjectId[]>();
    for (const d of docs) if (d.vendorId) kept.set(d.orderId, [...(kept.get(d.orderId) ?? []), d.vendorId]);
    const deletes = prune
      ? [...new Set(orderIds)].map((orderId) => ({
          deleteMany: {
            filter: this.scoped(scope, { orderId, vendorId: { $nin: [null, ...(kept.get(orderId) ?? [])] } }),
          },
        }))
      : [];
    await chunkedBulkWrite(this.model, [...upserts, ...deletes] as Parameters<
      Model<OrderSummary>['bulkWrite']
    >[0]);
  }

  /** One cursor window of the caller's list (shop-level rows, or the vendor's own for vendor scopes). */
  page(
    scope: ShopScope,
    window: CursorWindow,
    filter: OrderListFilter = {},
  ): Promise<CursorRows<OrderSummary>> {
    // vendorId null: the shop-level rows; scoped() replaces it with the caller's vendor for vendor scopes.
    return this.cursorPage(scope, { vendorId: null, ...orderListWhere(filter) }, window, {
      timeField: 'orderCreatedAt',
    });
  }

  /**
   * The caller's summary of one order: the vendor's part (vendor scope) or the whole order (shop
   * scope); null when the vendor has no line item on it, or the order is unknown or another shop's.
   * A point read of the unique (shopId, orderId, vendorId) index.
   */
  findForOrder(scope: ShopScope, orderId: number): Promise<OrderSummary | null> {
    return this.model
      .findOne(this.scoped(scope, { orderId, vendorId: null }))
      .lean<OrderSummary>()
      .exec();
  }

  /**
   * How many of the caller's orders are unfulfilled, partly fulfilled, fulfilled or cancelled (a
   * cancelled order counts only there): one `$group` over the caller's summaries, by
   * (cancelled, fulfillmentStatus).
   * MongoDB: answers it from the keys of `{shopId, vendorId, cancelled, fulfillmentStatus, …}` alone
   * (a covered scan of the caller's range, no document fetched).
   */
  async counts(scope: ShopScope): Promise<Record<RolledUpFulfillment | 'cancelled', number>> {
    const groups = await this.model
      .aggregate<{ _id: { cancelled: boolean; status: string }; n: number }>([
        { $match: this.scoped(scope, { vendorId: null }) },
        { $group: { _id: { cancelled: '$cancelled', status: '$fulfillmentStatus' }, n: { $sum: 1 } } },
      ])
      .exec();
    const out = { unfulfilled: 0, partial: 0, fulfilled: 0, cancelled: 0 };
    for (const g of groups) {
      if (g._id.cancelled === true) out.cancelled += g.n;
      else if (g._id.status === 'fulfilled' || g._id.status === 'partial') out[g._id.status] += g.n;
      else out.unfulfilled += g.n;
    }
    return out;
  }
}
