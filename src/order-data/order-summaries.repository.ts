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
   * cancelled order counts only there): four `count` commands side by side, each one point range of
   * `{shopId, vendorId, cancelled, fulfillmentStatus, …}` (for the cancelled ones, its prefix).
   * One `$group` over the same range was the first form: the development store took 3–4 s for it at
   * 20,000 orders (it fetches and groups every document), against counts that read index keys only.
   * MongoDB: answers each count from the index alone (COUNT_SCAN), as it would the `$group` (a covered scan).
   */
  async counts(scope: ShopScope): Promise<Record<RolledUpFulfillment | 'cancelled', number>> {
    const open = (fulfillmentStatus: RolledUpFulfillment) =>
      this.countWhere(scope, { vendorId: null, cancelled: false, fulfillmentStatus });
    const [unfulfilled, partial, fulfilled, cancelled] = await Promise.all([
      open('unfulfilled'),
      open('partial'),
      open('fulfilled'),
      this.countWhere(scope, { vendorId: null, cancelled: true }),
    ]);
    return { unfulfilled, partial, fulfilled, cancelled };
  }
}
