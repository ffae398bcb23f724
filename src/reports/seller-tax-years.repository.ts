import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { isDuplicateKeyError } from '../common/errors/duplicate-key';
import type { ShopScope } from '../common/tenancy';
import { chunkedBulkWrite } from '../database/bulk-write';
import { TenantRepository } from '../database/tenant-repository';
import { SellerTaxYear, StoredQuarterFigures } from './seller-tax-year.schema';

/** A vendor's year as stored: quarter (1–4) → its figures. */
export interface StoredYear {
  vendorId: Types.ObjectId;
  quarters: Partial<Record<'1' | '2' | '3' | '4', StoredQuarterFigures>>;
}

/** Recomputed quarters of one vendor's year, to write. */
export interface YearWrite {
  vendorId: Types.ObjectId;
  quarters: Map<number, StoredQuarterFigures>;
}

/** The only repository of `seller_tax_years` (seller-tax-year.schema.ts). */
@Injectable()
export class SellerTaxYearsRepository extends TenantRepository<SellerTaxYear> {
  protected override readonly vendorField = 'vendorId';

  constructor(@InjectModel(SellerTaxYear.name) model: Model<SellerTaxYear>) {
    super(model);
  }

  /** The shop's vendors' year, in vendor order: one index range. */
  year(scope: ShopScope, year: number): Promise<StoredYear[]> {
    return this.model
      .find(this.scoped(scope, { year }), { _id: 0, vendorId: 1, quarters: 1 })
      .sort({ year: 1, vendorId: 1 })
      .lean<StoredYear[]>()
      .exec();
  }

  /**
   * Writes recomputed quarters: one upsert per vendor setting only its recomputed quarters (a quarter
   * with no payable row is stored as zeros, so a figure that fell to nothing is overwritten too). Last
   * writer wins: a refresh that lands after a fresher one leaves its quarter marked by the tally step
   * that made the difference.
   */
  async write(scope: ShopScope, year: number, writes: YearWrite[]): Promise<void> {
    if (writes.length === 0) return;
    try {
      await this.upsert(scope, year, writes);
    } catch (err) {
      // Two refreshes created the same new year at once: the document exists now, write again.
      if (!isDuplicateKeyError(err)) throw err;
      await this.upsert(scope, year, writes);
    }
  }

  private async upsert(scope: ShopScope, year: number, writes: YearWrite[]): Promise<void> {
    await chunkedBulkWrite(
      this.model,
      writes.map((w) => ({
        updateOne: {
          filter: this.scoped(scope, { year, vendorId: w.vendorId }),
          update: { $set: Object.fromEntries([...w.quarters].map(([q, f]) => [`quarters.${q}`, f])) },
          upsert: true,
        },
      })) as Parameters<Model<SellerTaxYear>['bulkWrite']>[0],
    );
  }

  /** The first and last year the shop has documents for, or null. */
  async yearSpan(scope: ShopScope): Promise<{ first: number; last: number } | null> {
    const edge = (dir: 1 | -1) =>
      this.model
        .findOne(this.scoped(scope), { _id: 0, year: 1 })
        .sort({ year: dir, vendorId: dir })
        .lean<{ year: number }>()
        .exec();
    const [first, last] = await Promise.all([edge(1), edge(-1)]);
    return first && last ? { first: first.year, last: last.year } : null;
  }
}
