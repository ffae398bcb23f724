import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { ModelOutbox, withOutbox } from '../audit/audit-outbox';
import type { AuditStamp } from '../audit/audit-record';
import { ShopScope, shopScope } from '../common/tenancy';
import { TenantRepository } from '../database/tenant-repository';
import { chunkedBulkWrite } from '../database/bulk-write';
import { anyOf } from '../database/query-filters';
import { dropSupersededIndexes } from '../database/superseded-indexes';
import { LineItem } from './line-item.schema';
import { touchesTally } from './vendor-tally';
import { GuardedSet } from './line-item-views';
import { groupGuardedSets } from './line-item-queries';

/**
 * Indexes the schema no longer declares, dropped at start: `autoIndex` creates new indexes but never
 * drops old ones. The pre-refund unique (shop, order, line) would refuse every refund row; the
 * tally's indexes gained `_id` (its reads are in a total order), and the old ones would only cost
 * every write; so do the payable rows' (read in a total order too).
 */
const SUPERSEDED_INDEXES = [
  'shopId_1_orderId_1_lineItemId_1',
  'shopId_1_vendorId_1_tallyDirt_1',
  'shopId_1_tally.v_1_tallyDirt_1',
  'shopId_1_inPayouts_1_batchId_1_vendorId_1_orderCreatedAt_1_balance_1',
];

/**
 * An order's rows in the unique index's order: no two rows compare equal (a refund row shares its
 * sale's line), so the development store returns them without trying every index over the whole
 * collection (database/store-ranges.ts, "a total order").
 * MongoDB: reads this order off the same unique index; the full sort key costs it nothing.
 */
const ORDER_ROWS = { orderId: 1, lineItemId: 1, type: 1, refundId: 1, refundLineItemId: 1 } as const;

/**
 * The figures of line items: ingestion (sale and refund rows), updates and recalculation write
 * them; orders, events and refunds read an order's rows. The same collection has one repository
 * per other consumer, each with the view it needs (line-item-views.ts): the payout engine alone
 * sets paid / frozen / batchId (PayoutRowsRepository), fulfillments claim and record fulfillments
 * (FulfillmentRowsRepository), the tally counts changed rows (LineItemTallyRepository).
 */
@Injectable()
export class LineItemsRepository extends TenantRepository<LineItem> implements OnApplicationBootstrap {
  protected override readonly vendorField = 'vendorId';
  /** The audit outbox of line items (hand-written figures; AuditTrail.commit). */
  readonly outbox: ModelOutbox;

  constructor(@InjectModel(LineItem.name) model: Model<LineItem>) {
    super(model);
    this.outbox = new ModelOutbox(model);
  }

  async onApplicationBootstrap(): Promise<void> {
    await dropSupersededIndexes(this.model, SUPERSEDED_INDEXES);
  }

  // ---- reads --------------------------------------------------------------------------------

  findForOrders(scope: ShopScope, orderIds: number[]): Promise<LineItem[]> {
    if (orderIds.length === 0) return Promise.resolve([]);
    const filter = orderIds.length === 1 ? { orderId: orderIds[0] } : { orderId: { $in: orderIds } };
    return this.model.find(this.scoped(scope, filter)).sort(ORDER_ROWS).lean<LineItem[]>().exec();
  }

  /**
   * One order's rows the caller may see (sale and refund rows, in the unique index's order): every
   * row for a shop scope, the vendor's own for a vendor scope. The order's rows are read by
   * (shopId, orderId) and the vendor's kept here: an order has few rows, and a vendor-led index only
   * for this read would cost every line item write.
   * MongoDB: reads the order's rows off the unique index's (shopId, orderId) range, as for a shop.
   */
  async findOrderRows(scope: ShopScope, orderId: number): Promise<LineItem[]> {
    const rows = await this.model
      .find(this.scoped(shopScope(scope.shopId), { orderId }))
      .sort(ORDER_ROWS)
      .lean<LineItem[]>()
      .exec();
    return scope.vendorId
      ? rows.filter((r) => r.vendorId != null && String(r.vendorId) === scope.vendorId)
      : rows;
  }

  /**
   * The line items with these (orderId, lineItemId) pairs; one query however many pairs: the rows
   * of their orders (an order has few), filtered here. An `$in` on the line too would be the same
   * index range for MongoDB, but the development store does not seek on a second `$in` and scans
   * the shop (19.5 ms against 0.5 ms at 6,700 rows; database/store-ranges.ts).
   * MongoDB: would seek the pairs exactly; reading the orders' few other rows too costs it little.
   */
  async findByPairs(
    scope: ShopScope,
    pairs: Array<{ orderId: number; lineItemId: number }>,
  ): Promise<LineItem[]> {
    if (pairs.length === 0) return [];
    const orderIds = [...new Set(pairs.map((p) => p.orderId))];
    const wanted = new Set(pairs.map((p) => `${p.orderId}:${p.lineItemId}`));
    const rows = await this.model
      .find(
        this.scoped(scope, orderIds.length === 1 ? { orderId: orderIds[0] } : { orderId: { $in: orderIds } }),
      )
      .sort(ORDER_ROWS)
      .lean<LineItem[]>()
      .exec();
    // Updates address sale rows; a refund row of the same line keeps the figures it was cut with.
    return rows.filter((r) => r.type !== 'refund' && wanted.has(`${r.orderId}:${r.lineItemId}`));
  }

  /**
   * One page of a SKU's rows in (orderCreatedAt, _id) order after a cursor (keyset paging on the
   * `{shopId, sku, orderCreatedAt, _id}` index): the by-SKU update reads a bounded number at a time.
   * Refund rows of the SKU come back too (the cursor must pass them); callers update sale rows only.
   */
  findBySkuPage(
    scope: ShopScope,
    sku: string,
    after: { orderCreatedAt: Date; _id: Types.ObjectId } | null,
    limit: number,
  ): Promise<LineItem[]> {
    const cursor = after
      ? anyOf([
          { orderCreatedAt: { $gt: after.orderCreatedAt } },
          { orderCreatedAt: after.orderCreatedAt, _id: { $gt: after._id } },
        ])
      : {};
    return this.model
      .find(this.scoped(scope, { sku, ...cursor }))
      .sort({ orderCreatedAt: 1, _id: 1 })
      .limit(limit)
      .lean<LineItem[]>()
      .exec();
  }

  /**
   * A page of the unpaid, unfrozen rows of these products in `_id` order after a cursor (index
   * shopId, productId, payoutStatus, frozen, _id): what a commission rule can still change (the
   * rule dry-run, a product's type arriving). Refund rows come back too: callers keep sale rows.
   */
  findUnpaidOfProducts(
    scope: ShopScope,
    productIds: string[],
    after: Types.ObjectId | null,
    limit: number,
  ): Promise<LineItem[]> {
    if (productIds.length === 0) return Promise.resolve([]);
    const filter: Record<string, unknown> = {
      productId: productIds.length === 1 ? productIds[0] : { $in: productIds },
      payoutStatus: 'unpaid',
      frozen: false,
    };
    if (after) filter._id = { $gt: after };
    return this.model
      .find(this.scoped(scope, filter))
      .sort({ _id: 1 })
      .limit(limit)
      .lean<LineItem[]>()
      .exec();
  }

  /** How many sale rows carry this SKU (refund rows are counted apart and left out). */
  async countBySku(scope: ShopScope, sku: string): Promise<number> {
    const byType = await this.model
      .aggregate<{ _id: string | null; n: number }>([
        { $match: this.scoped(scope, { sku }) },
        { $group: { _id: '$type', n: { $sum: 1 } } },
      ])
      .exec();
    return byType.filter((t) => t._id !== 'refund').reduce((sum, t) => sum + t.n, 0);
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

  // ---- figures: ingestion, updates, recalculation -------------------------------------------

  /** New line items of one order in one write. Returns false when any of them already existed. */
  insertNew(scope: ShopScope, docs: Array<Partial<LineItem>>): Promise<boolean> {
    return this.insertUnlessExists(scope, docs.map(markedForTally));
  }

  /**
   * Applies many guarded sets in one bulk write. Identical (guard, set) pairs are merged into one
   * `updateMany` over their ids, so writing the same fields to many line items costs one operation;
   * a write with an audit event is its own statement (its event goes to its line's outbox).
   * Returns how many line items matched their guard.
   */
  async applyGuardedSets(
    scope: ShopScope,
    writes: GuardedSet[],
    stamp: AuditStamp | null = null,
  ): Promise<number> {
    if (writes.length === 0) return 0;
    const ops: Parameters<Model<LineItem>['bulkWrite']>[0] = groupGuardedSets(writes, stamp !== null).map(
      (g) =>
        g.ids.length === 1
          ? {
              updateOne: {
                filter: this.scoped(scope, { ...g.guard, _id: g.ids[0] }),
                update: withOutbox(tallied({ $set: g.set }), stamp, g.event),
              },
            }
          : {
              updateMany: {
                filter: this.scoped(scope, { ...g.guard, _id: { $in: g.ids } }),
                update: tallied({ $set: g.set }),
              },
            },
    );
    return (await chunkedBulkWrite(this.model, ops)).matchedCount;
  }

  /**
   * Refund rows, each once: the unique index (order, line, type, refund id, refund line item id)
   * refuses a row another payload already brought. Returns how many were new.
   */
  async insertRefundRows(scope: ShopScope, docs: Array<Partial<LineItem>>): Promise<number> {
    return this.insertRows(scope, docs.map(markedForTally));
  }
}

/** A new row is marked for the tally when it has a vendor (a row without one counts nowhere). */
function markedForTally<D extends Partial<LineItem>>(doc: D): D & { tallyDirt: number } {
  return { ...doc, tallyDirt: doc.vendorId ? 1 : 0 };
}

/** An update that may change what a row contributes also marks the row for the tally. */
function tallied(update: { $set: Record<string, unknown> }): {
  $set: Record<string, unknown>;
  $inc?: Record<string, number>;
} {
  return touchesTally(update.$set) ? { ...update, $inc: { tallyDirt: 1 } } : update;
}
