import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import type { Cursor, QueryOptions } from 'mongoose';
import type { CursorRows, CursorWindow } from '../common/pagination';
import { ModelOutbox, withOutbox } from '../audit/audit-outbox';
import type { AuditRecord, AuditStamp } from '../audit/audit-record';
import { ShopScope } from '../common/tenancy';
import { TenantRepository } from '../database/tenant-repository';
import { payoutState, sumAmounts } from '../common/money';
import { chunkedBulkWrite } from '../database/bulk-write';
import { bsonFieldReader } from '../database/bson-fields';
import { anyOf } from '../database/query-filters';
import { MARKED } from '../database/store-ranges';
import { dropSupersededIndexes } from '../database/superseded-indexes';
import type { TallyPendingRow } from '../balances/vendor-balance.schema';
import { LineItem, LineItemFulfillment } from './line-item.schema';
import { TALLY_EXPRESSION, type TallySource, touchesTally } from './vendor-tally';
import {
  BatchPaidLineItem,
  FULFILLABLE_PROJECTION,
  FulfillableLineItem,
  FULFILLMENT_ROW_PROJECTION,
  FulfillmentRowFilter,
  FulfillmentRowSource,
  GuardedSet,
  MONEY_ROW_PROJECTION,
  MoneyRowSource,
  PAYOUT_ROW_PROJECTION,
  PayableLineItem,
  PayoutRowFilter,
  PayoutRowSource,
  RECONCILE_PROJECTION,
  ReconcileRow,
  REPORT_ROW_PROJECTION,
  ReportRowSource,
  ReportSums,
} from './line-item-views';
import {
  fulfillmentRowsWhere,
  groupGuardedSets,
  NEWEST_ORDER_FIRST,
  NO_REPORT_SUMS,
  payable,
  payoutRowsWhere,
  REPORT_SUMS_GROUP,
  STATEMENT_ORDER,
  vendorReportWhere,
} from './line-item-queries';

/**
 * Rows per cursor batch of an export. Small on purpose: the driver keeps every document of a batch
 * it has handed out (with its parsed element table) until the batch ends, so a batch that outlives
 * two young-generation collections is promoted whole. At 500 rows that made the old generation
 * swing by ~150 MB (API RSS +190 MB) and cost a second of GC per 100,000 rows; at 100 it dies
 * young (RSS +25 MB). The csvStream read-ahead keeps the next getMore in flight.
 */
const EXPORT_BATCH_SIZE = 100;

/**
 * An exported row read from its raw document: the fields of MONEY_ROW_PROJECTION, decoded alone.
 * Exports ask the store for whole raw documents, not a projection: the development store encodes a
 * projected document field by field (most of an export's store time), and decoding whole
 * documents in the API would cost more than that saved (bson-fields.ts, README "CSV export speed").
 * MongoDB: would send fewer bytes for a projection; whole raw documents give the same fields.
 */
const readMoneyRow = bsonFieldReader<MoneyRowSource>(['_id', ...Object.keys(MONEY_ROW_PROJECTION)]);

/** A database cursor over money rows: a Readable in object mode (close it when abandoned). */
export type RowCursor = Cursor<MoneyRowSource, QueryOptions<LineItem>>;

/**
 * The only repository of the line_items collection. Ingestion, updates and recalculation write
 * figures; the payout engine alone sets paid / frozen / batchId; fulfillments claim and record
 * fulfillments. Each caller gets the view it needs (line-item-views.ts).
 */
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

@Injectable()
export class LineItemsRepository extends TenantRepository<LineItem> implements OnApplicationBootstrap {
  protected override readonly vendorField = 'vendorId';
  /** The audit outbox of line items (hand-written figures, fulfillments; AuditTrail.commit). */
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

  // ---- payouts: GET /v1/payouts and the payout engine ---------------------------------------

  /**
   * Payout rows newest first: line items of a vendor on paid orders (and any line a batch already
   * paid, whatever happened to the order since). The page and the count run side by side: a full
   * first page needs both. Without a date filter the page is first read from where the same page
   * ended last time (`newestFirst`: the development store reads a whole index range before its limit).
   * MongoDB: stops its index scan after the page anyway; the bounded read gives the same page.
   */
  async payoutRows(
    scope: ShopScope,
    filter: PayoutRowFilter,
    page: { offset: number; limit: number },
  ): Promise<{ total: number; items: PayoutRowSource[] }> {
    const matching = payoutRowsWhere(filter);
    const [items, total] = await Promise.all([
      this.newestFirst<PayoutRowSource>(this.scoped(scope, matching), NEWEST_ORDER_FIRST, page, (where) =>
        this.model
          .find(where, PAYOUT_ROW_PROJECTION)
          .sort(NEWEST_ORDER_FIRST)
          .skip(page.offset)
          .limit(page.limit)
          .lean<PayoutRowSource[]>()
          .exec(),
      ),
      this.countWhere(scope, matching),
    ]);
    return { total, items };
  }

  /**
   * Every payout row of the filter, newest first, as a database cursor (the CSV export streams it:
   * rows arrive in batches and are written as they come, never held all at once).
   */
  streamPayoutRows(scope: ShopScope, filter: PayoutRowFilter): RowCursor {
    return this.model
      .find(this.scoped(scope, payoutRowsWhere(filter)))
      .sort(NEWEST_ORDER_FIRST)
      .lean<Buffer[]>()
      .cursor({ batchSize: EXPORT_BATCH_SIZE, raw: true })
      .map(readMoneyRow);
  }

  /** One window of the caller's payout rows with every figure (GET /v2/payouts, cursor paging). */
  moneyRowsPage(
    scope: ShopScope,
    filter: PayoutRowFilter,
    window: CursorWindow,
  ): Promise<CursorRows<MoneyRowSource>> {
    return this.cursorPage<MoneyRowSource>(scope, payoutRowsWhere(filter), window, {
      timeField: 'orderCreatedAt',
      projection: MONEY_ROW_PROJECTION,
    });
  }

  /**
   * The rows a batch settled (sale and refund rows carrying its id), oldest first. `vendorId` is the
   * batch's vendor: it keeps the read on the batch index for shop and vendor callers alike.
   */
  async batchRows(scope: ShopScope, batchId: string, vendorId: Types.ObjectId): Promise<MoneyRowSource[]> {
    // raw documents decoded field by field, as exports read them (readMoneyRow)
    const docs = await this.model
      .find(this.scoped(scope, { batchId, vendorId }))
      .sort(STATEMENT_ORDER)
      .setOptions({ raw: true })
      .lean<Buffer[]>()
      .exec();
    return docs.map(readMoneyRow);
  }

  /** The same rows as a cursor, for the statement's CSV. */
  streamBatchRows(scope: ShopScope, batchId: string, vendorId: Types.ObjectId): RowCursor {
    return this.model
      .find(this.scoped(scope, { batchId, vendorId }))
      .sort(STATEMENT_ORDER)
      .lean<Buffer[]>()
      .cursor({ batchSize: EXPORT_BATCH_SIZE, raw: true })
      .map(readMoneyRow);
  }

  /**
   * GET /v1/report/{vendorId}: one page of the vendor's line items in the order-date range, newest
   * first, and the sums over the whole range (one `$match` + `$group $sum`, which also counts).
   * The other keys of the payout rows' index are sent as `$in` over every value, so that index
   * serves the report too.
   */
  async vendorReport(
    scope: ShopScope,
    vendorId: Types.ObjectId,
    orderCreatedAt: { $gte?: Date; $lte?: Date } | undefined,
    page: { offset: number; limit: number },
  ): Promise<{ items: ReportRowSource[]; sums: ReportSums }> {
    const where = this.scoped(scope, vendorReportWhere(vendorId, orderCreatedAt));
    const [items, groups] = await Promise.all([
      this.model
        .find(where, REPORT_ROW_PROJECTION)
        .sort(NEWEST_ORDER_FIRST)
        .skip(page.offset)
        .limit(page.limit)
        .lean<ReportRowSource[]>()
        .exec(),
      this.model.aggregate<ReportSums>([{ $match: where }, { $group: REPORT_SUMS_GROUP }]).exec(),
    ]);
    return { items, sums: groups[0] ?? NO_REPORT_SUMS };
  }

  /** The vendor's due rows (sale and refund) up to the cut-off (one read). */
  listPayable(scope: ShopScope, vendorId: Types.ObjectId, cutoff: Date): Promise<PayableLineItem[]> {
    return this.model
      .find(this.scoped(scope, { ...payable(cutoff), vendorId }), { paid: 1, balance: 1 })
      .sort({ orderCreatedAt: 1, balance: 1, _id: 1 })
      .lean<PayableLineItem[]>()
      .exec();
  }

  /** Vendors with at least one due row (sale or refund) up to the cut-off. */
  async vendorsWithPayable(scope: ShopScope, cutoff: Date): Promise<Types.ObjectId[]> {
    const rows = await this.model
      .aggregate<{ _id: Types.ObjectId | null }>([
        // `inPayouts` implies a vendor.
        { $match: this.scoped(scope, payable(cutoff)) },
        { $group: { _id: '$vendorId' } },
      ])
      .exec();
    return rows.map((r) => r._id).filter((id): id is Types.ObjectId => id !== null);
  }

  /**
   * Claims the rows for a batch (DESIGN §8 netting): each conditional write matches only while the
   * row is unbatched with the paid / balance that was read, and records that balance as what the
   * batch settles of it. The batch then nets what it holds: pays it all, or releases it all.
   */
  async claimForBatch(scope: ShopScope, items: PayableLineItem[], batchId: string): Promise<void> {
    await this.updateEach(scope, items, (li) => ({
      filter: { _id: li._id, batchId: null, frozen: false, paid: li.paid, balance: li.balance },
      set: { batchId, batchPaidAmount: li.balance },
    }));
  }

  /**
   * Pays the rows the batch holds and has not paid yet (each a conditional write on its claim): the
   * claimed amount is paid, the row frozen. A resumed run pays only what is left.
   */
  async payClaimed(scope: ShopScope, held: BatchPaidLineItem[], batchId: string, at: Date): Promise<void> {
    const todo = held.filter((li) => !li.frozen);
    await this.updateEach(scope, todo, (li) => {
      const paid = sumAmounts([li.paid, li.batchPaidAmount ?? 0]);
      return {
        filter: { _id: li._id, batchId, frozen: false, paid: li.paid },
        set: {
          paid,
          ...payoutState(li.payout, paid),
          frozen: true,
          inPayouts: true,
          paidAt: at,
        },
        inc: { tallyDirt: 1 },
      };
    });
  }

  /** A carried-forward batch lets go of every row it holds: they stay due for the next batch. */
  async releaseBatch(scope: ShopScope, batchId: string): Promise<void> {
    await this.model
      .updateMany(this.scoped(scope, { batchId, frozen: false }), {
        $set: { batchId: null, batchPaidAmount: null },
      })
      .exec();
  }

  /** The rows a batch holds: claimed, or paid by it (its totals are summed from these). */
  heldByBatch(scope: ShopScope, batchId: string): Promise<BatchPaidLineItem[]> {
    return this.model
      .find(this.scoped(scope, { batchId }), {
        batchPaidAmount: 1,
        orderId: 1,
        type: 1,
        frozen: 1,
        paid: 1,
        payout: 1,
      })
      .sort({ vendorId: 1, ...STATEMENT_ORDER })
      .lean<BatchPaidLineItem[]>()
      .exec();
  }

  /** Every row of a vendor with its money fields (reconcile: proves the maintained balance). */
  forReconcile(scope: ShopScope, vendorId: Types.ObjectId): Promise<ReconcileRow[]> {
    return this.model
      .find(this.scoped(scope, { vendorId }), RECONCILE_PROJECTION)
      .lean<ReconcileRow[]>()
      .exec();
  }

  /**
   * Refund rows, each once: the unique index (order, line, type, refund id, refund line item id)
   * refuses a row another payload already brought. Returns how many were new.
   */
  async insertRefundRows(scope: ShopScope, docs: Array<Partial<LineItem>>): Promise<number> {
    return this.insertRows(scope, docs.map(markedForTally));
  }

  // ---- the tally: the vendors' maintained balance sums (vendor-tally.service.ts) ----------------

  /**
   * Rows of the vendor (or counted at it) changed since their contribution was counted: only what
   * is in flight, or what a crash left (rows stored before the tally existed have no mark and are
   * counted on first look; the sweeper also marks them: SystemLineItemsRepository.markUnmarked).
   * Served by (shop, vendor, tallyDirt, _id) and (shop, tally.v, tallyDirt, _id): changed rows are few.
   */
  async changedForTally(scope: ShopScope, vendorId: Types.ObjectId, limit: number): Promise<TallySource[]> {
    const projection = { vendorId: 1, frozen: 1, inPayouts: 1, balance: 1, tally: 1, tallyDirt: 1 };
    // Three seeks in parallel, each in (mark, _id) order: a total order, so the development store
    // does not try every candidate index over the collection for the order mongod would give
    // (database/store-ranges.ts). The vendor's marked rows (`MARKED`), its rows with no mark at all
    // (stored before the tally: counted on first look, not after the sweeper's turn; such a row was
    // never counted, so it is never counted at another vendor), and the rows counted at it. One
    // `{$ne: 0}` read per side would be one command less, but this store steps over every clean row
    // of the vendor for it (19 ms against 1.75 + 1 ms at 3,000 rows; a 2,000-order seed's store
    // CPU 30 → 42 s).
    // MongoDB: seeks all three (and `{$ne: 0}` too); the split costs it two more commands, sent at once.
    const reads = [
      { vendorId, tallyDirt: MARKED },
      { vendorId, tallyDirt: null },
      { 'tally.v': vendorId, tallyDirt: MARKED },
    ].map((which) =>
      this.model
        .find(this.scoped(scope, which), projection)
        .sort({ tallyDirt: 1, _id: 1 })
        .limit(limit)
        .lean<TallySource[]>()
        .exec(),
    );
    const seen = new Set<string>();
    const rows: TallySource[] = [];
    for (const r of (await Promise.all(reads)).flat()) {
      if (seen.has(String(r._id))) continue;
      seen.add(String(r._id));
      rows.push(r);
    }
    return rows.slice(0, limit);
  }

  /**
   * Writes back what a tally step counted: each row's contribution, and its mark cleared unless the
   * row changed again since it was read (or is left marked for another vendor). A row unchanged
   * since it was read gets `tallyOf` of itself — written by one pipeline `updateMany` per mark value
   * (TALLY_EXPRESSION: this store pays ~2 ms per single-row statement); a row that changed
   * meanwhile, or one left for another vendor, gets the counted value itself. Idempotent: a run
   * that resumes a dead one's pending list writes the same values.
   * MongoDB: runs the same pipeline update per `_id`; fewer statements save it work too, same values.
   */
  async writeTallies(scope: ShopScope, rows: TallyPendingRow[]): Promise<void> {
    if (rows.length === 0) return;
    const byDirt = new Map<string, { dirt: number | null; ids: Types.ObjectId[] }>();
    for (const r of rows.filter((x) => !x.keep)) {
      const g = byDirt.get(String(r.dirt)) ?? { dirt: r.dirt, ids: [] };
      g.ids.push(r._id);
      byDirt.set(String(r.dirt), g);
    }
    const own = [...byDirt.values()].map((g) => ({
      updateMany: {
        filter: this.scoped(scope, { _id: { $in: g.ids }, tallyDirt: g.dirt }),
        update: [{ $set: { tally: TALLY_EXPRESSION, tallyDirt: 0 } }],
      },
    }));
    const explicit = (r: TallyPendingRow, filter: Record<string, unknown>) => ({
      updateOne: {
        filter: this.scoped(scope, { _id: r._id, ...filter }),
        update: { $set: { tally: r.tally } },
      },
    });
    const kept = rows.filter((r) => r.keep).map((r) => explicit(r, {}));
    const res = await chunkedBulkWrite(this.model, [...own, ...kept] as Parameters<
      Model<LineItem>['bulkWrite']
    >[0]);
    if (res.matchedCount < rows.length) {
      // Some row changed after it was read: it keeps its mark, and gets what was counted of it.
      const changed = rows.filter((r) => !r.keep).map((r) => explicit(r, { tallyDirt: { $ne: r.dirt } }));
      await chunkedBulkWrite(this.model, changed as Parameters<Model<LineItem>['bulkWrite']>[0]);
    }
  }

  // ---- fulfillments: GET and POST /v1/fulfillments ------------------------------------------

  /** Fulfillment rows, newest order first: only line items of paid orders. */
  fulfillmentRows(
    scope: ShopScope,
    filter: FulfillmentRowFilter,
    page: { offset: number; limit: number },
  ): Promise<{ total: number; items: FulfillmentRowSource[] }> {
    return this.offsetPage(
      scope,
      fulfillmentRowsWhere(filter),
      NEWEST_ORDER_FIRST,
      page,
      FULFILLMENT_ROW_PROJECTION,
    );
  }

  /** The requested lines of this shop, in one read. */
  findFulfillable(scope: ShopScope, ids: Types.ObjectId[]): Promise<FulfillableLineItem[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.model
      .find(this.scoped(scope, { _id: { $in: ids } }), FULFILLABLE_PROJECTION)
      .lean<FulfillableLineItem[]>()
      .exec();
  }

  /**
   * Claims unfulfilled lines for one fulfillment request: a line is claimed when it is unfulfilled
   * and no other request holds a live claim, so two concurrent requests never create two platform
   * fulfillments for the same line. Claims older than `staleBefore` are void.
   */
  async claimForFulfillment(
    scope: ShopScope,
    ids: Types.ObjectId[],
    lockId: string,
    now: Date,
    staleBefore: Date,
  ): Promise<void> {
    await this.updateEach(scope, ids, (_id) => ({
      filter: {
        _id,
        fulfillmentStatus: 'unfulfilled',
        ...anyOf([{ fulfillmentLock: null }, { fulfillmentLockedAt: { $lt: staleBefore } }]),
      },
      set: { fulfillmentLock: lockId, fulfillmentLockedAt: now },
    }));
  }

  /**
   * Records the platform fulfillment on the claimed lines and frees the claims; each line's audit
   * event (if any) enters its outbox in the same write. Whether every line still held the claim.
   */
  async recordFulfilled(
    scope: ShopScope,
    done: Array<{ _id: Types.ObjectId; fulfillment: LineItemFulfillment; event?: AuditRecord | null }>,
    lockId: string,
    stamp: AuditStamp | null = null,
  ): Promise<boolean> {
    if (done.length === 0) return true;
    const ops = done.map((d) => ({
      updateOne: {
        filter: this.scoped(scope, { _id: d._id, fulfillmentLock: lockId }),
        update: withOutbox(
          {
            $set: {
              fulfillmentStatus: 'fulfilled',
              fulfillment: d.fulfillment,
              fulfillmentLock: null,
              fulfillmentLockedAt: null,
            },
          },
          stamp,
          d.event,
        ),
      },
    }));
    const res = await chunkedBulkWrite(this.model, ops as Parameters<Model<LineItem>['bulkWrite']>[0]);
    return res.matchedCount === ops.length;
  }

  /** Frees this request's claims on lines that were not fulfilled. */
  async releaseClaims(scope: ShopScope, ids: Types.ObjectId[], lockId: string): Promise<void> {
    await this.updateEach(scope, ids, (_id) => ({
      filter: { _id, fulfillmentLock: lockId },
      set: { fulfillmentLock: null, fulfillmentLockedAt: null },
    }));
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
