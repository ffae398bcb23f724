import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { systemQuery } from '../database/tenant-guard.plugin';
import { MARKED } from '../database/store-ranges';
import { LineItem } from './line-item.schema';

export interface ChangedTallyRow {
  _id: Types.ObjectId;
  shopId: Types.ObjectId;
  vendorId?: Types.ObjectId | null;
  tally?: { v?: Types.ObjectId | null } | null;
  tallyDirt?: number | null;
}

/**
 * The tally sweeper's cross-shop reads and writes of line items (the only opt-out of the tenant
 * guard for them, served by `{tallyDirt}`): rows whose change was not counted into their vendor's
 * sums — a writer died before its tally ran, or the row was stored before the tally existed. Each
 * shop's rows are then counted in that shop's scope.
 */
@Injectable()
export class SystemLineItemsRepository {
  constructor(@InjectModel(LineItem.name) private readonly model: Model<LineItem>) {}

  changedTallies(limit: number): Promise<ChangedTallyRow[]> {
    return this.model
      .find({ tallyDirt: MARKED }, { shopId: 1, vendorId: 1, 'tally.v': 1, tallyDirt: 1 })
      .limit(limit)
      .setOptions(systemQuery('tally sweeper: rows changed but not counted'))
      .lean<ChangedTallyRow[]>()
      .exec();
  }

  /**
   * Rows stored before the tally existed carry no mark: they get one (as if just changed), so the
   * shop-scoped reads of marked rows (`MARKED`, a seek on this store) find them. Returns how many.
   * MongoDB: needs the marks for the same reason (`{$gte: 1}` matches no missing field); a seek there too.
   */
  async markUnmarked(limit: number): Promise<number> {
    const rows = await this.model
      .find({ tallyDirt: null }, { _id: 1 })
      .limit(limit)
      .setOptions(systemQuery('tally sweeper: rows stored before the tally'))
      .lean<Array<{ _id: Types.ObjectId }>>()
      .exec();
    if (rows.length === 0) return 0;
    await this.model
      .updateMany(
        { _id: { $in: rows.map((r) => r._id) }, tallyDirt: null },
        { $set: { tallyDirt: 1 } },
        { timestamps: false }, // bookkeeping, not a change of the line item: updatedAt stays
      )
      .setOptions(systemQuery('tally sweeper: rows stored before the tally'))
      .exec();
    return rows.length;
  }

  /**
   * Rows that count nowhere and belong to no vendor: nothing to count, so the mark is cleared (only
   * while the row is still as read: a vendor assigned meanwhile keeps it marked).
   */
  async clearUncountable(rows: ChangedTallyRow[]): Promise<void> {
    if (rows.length === 0) return;
    await this.model.bulkWrite(
      rows.map((r) => ({
        updateOne: {
          filter: {
            shopId: r.shopId,
            _id: r._id,
            vendorId: null,
            'tally.v': null,
            tallyDirt: r.tallyDirt ?? null,
          },
          update: { $set: { tallyDirt: 0 } },
          timestamps: false,
        },
      })),
      { ordered: false },
    );
  }
}
