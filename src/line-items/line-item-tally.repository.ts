import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { ShopScope } from '../common/tenancy';
import { TenantRepository } from '../database/tenant-repository';
import { chunkedBulkWrite } from '../database/bulk-write';
import { MARKED } from '../database/store-ranges';
import type { TallyPendingRow } from '../balances/vendor-balance.schema';
import { LineItem } from './line-item.schema';
import { TALLY_EXPRESSION, type TallySource } from './vendor-tally';

/**
 * The tally's line items (vendor-tally.service.ts: the vendors' maintained balance sums): the rows
 * changed since their contribution was counted, and what a tally step counted written back. The
 * writers that change a row mark it (LineItemsRepository, PayoutRowsRepository); same collection.
 */
@Injectable()
export class LineItemTallyRepository extends TenantRepository<LineItem> {
  protected override readonly vendorField = 'vendorId';

  constructor(@InjectModel(LineItem.name) model: Model<LineItem>) {
    super(model);
  }

  /**
   * Rows of the vendor (or counted at it) changed since their contribution was counted: only what
   * is in flight, or what a crash left (rows stored before the tally existed have no mark and are
   * counted on first look; the sweeper also marks them: SystemLineItemsRepository.markUnmarked).
   * Served by (shop, vendor, tallyDirt, _id) and (shop, tally.v, tallyDirt, _id): changed rows are few.
   */
  async changedForTally(scope: ShopScope, vendorId: Types.ObjectId, limit: number): Promise<TallySource[]> {
    const projection = {
      vendorId: 1,
      frozen: 1,
      inPayouts: 1,
      balance: 1,
      tally: 1,
      tallyDirt: 1,
      orderCreatedAt: 1,
    };
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
   * Writes back a dead run's pending list (its count landed; its write-back may have landed too):
   * each row gets what was counted of it, and keeps its mark. The mark cannot tell whether the row
   * changed since: a landed write-back set it to 0 and the next change to 1 again, the value the dead
   * run read. A row still marked is read again by the next step, which counts what changed (nothing,
   * for a row as it was counted) and clears it. One statement per row: only after a crash.
   */
  async restoreTallies(scope: ShopScope, rows: TallyPendingRow[]): Promise<void> {
    if (rows.length === 0) return;
    await chunkedBulkWrite(
      this.model,
      rows.map((r) => ({
        updateOne: {
          filter: this.scoped(scope, { _id: r._id }),
          update: { $set: { tally: r.tally } },
          timestamps: false,
        },
      })) as Parameters<Model<LineItem>['bulkWrite']>[0],
    );
  }

  /**
   * Writes back what a tally step counted: each row's contribution, and its mark cleared unless the
   * row changed again since it was read (or is left marked for another vendor). A row unchanged
   * since it was read gets `tallyOf` of itself — written by one pipeline `updateMany` per mark value
   * (TALLY_EXPRESSION: this store pays ~2 ms per single-row statement); a row that changed
   * meanwhile, or one left for another vendor, gets the counted value itself. Idempotent: a run
   * that resumes a dead one's pending list writes the same values. Bookkeeping, not a change of the
   * line item: no timestamp (`updatedAt` stays what the row's last real change set).
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
        timestamps: false,
      },
    }));
    const explicit = (r: TallyPendingRow, filter: Record<string, unknown>) => ({
      updateOne: {
        filter: this.scoped(scope, { _id: r._id, ...filter }),
        update: { $set: { tally: r.tally } },
        timestamps: false,
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
}
