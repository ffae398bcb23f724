import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import type { Cursor, QueryOptions } from 'mongoose';
import type { CursorRows, CursorWindow } from '../common/pagination';
import { ShopScope } from '../common/tenancy';
import { TenantRepository } from '../database/tenant-repository';
import { payoutState, sumAmounts } from '../common/money';
import { bsonFieldReader } from '../database/bson-fields';
import { countMatching } from '../database/count';
import { LineItem } from './line-item.schema';
import {
  BatchPaidLineItem,
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
 * documents in the API would cost more than that saved (bson-fields.ts, docs/adr/0036-csv-exports-read-raw-documents.md).
 * MongoDB: would send fewer bytes for a projection; whole raw documents give the same fields.
 */
const readMoneyRow = bsonFieldReader<MoneyRowSource>(['_id', ...Object.keys(MONEY_ROW_PROJECTION)]);

/** A database cursor over money rows: a Readable in object mode (close it when abandoned). */
export type RowCursor = Cursor<MoneyRowSource, QueryOptions<LineItem>>;

/**
 * The payout engine's and the money views' line items (GET /v1/payouts, /v2/payouts, the CSV
 * exports, statements, the vendor report, reconcile): the only writer of paid / frozen / batchId
 * (claim, pay and release a batch). The figures are LineItemsRepository's; same collection.
 */
@Injectable()
export class PayoutRowsRepository extends TenantRepository<LineItem> {
  protected override readonly vendorField = 'vendorId';

  constructor(@InjectModel(LineItem.name) model: Model<LineItem>) {
    super(model);
  }

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

  /**
   * How many rows a batch settled (the filter of batchRows, counted on the same index): the
   * statement PDF numbers its pages "X of Y" from it before its first row is drawn.
   */
  countBatchRows(scope: ShopScope, batchId: string, vendorId: Types.ObjectId): Promise<number> {
    return countMatching(this.model, this.scoped(scope, { batchId, vendorId }));
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
}
