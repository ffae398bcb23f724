import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { isDuplicateKeyError } from '../common/errors/duplicate-key';
import type { ShopScope } from '../common/tenancy';
import { chunkedBulkWrite } from '../database/bulk-write';
import { TenantRepository } from '../database/tenant-repository';
import type { QuarterCents } from './seller-tax-figures';
import { SellerTaxQuarter } from './seller-tax-quarter.schema';

/** A vendor's quarter as stored: the key and its figures in cents. */
export interface StoredQuarter extends QuarterCents {
  vendorId: Types.ObjectId;
  year: number;
  quarter: number;
  hasRows: boolean;
}

const FIGURES = {
  sales: 1,
  refunds: 1,
  commissions: 1,
  fees: 1,
  taxes: 1,
  numberOfOrders: 1,
  hasRows: 1,
} as const;

/** The only repository of `seller_tax_quarters` (seller-tax-quarter.schema.ts). */
@Injectable()
export class SellerTaxQuartersRepository extends TenantRepository<SellerTaxQuarter> {
  protected override readonly vendorField = 'vendorId';

  constructor(@InjectModel(SellerTaxQuarter.name) model: Model<SellerTaxQuarter>) {
    super(model);
  }

  /** The shop's quarters of a year, every vendor's, in (vendor, quarter) order: one index range. */
  year(scope: ShopScope, year: number): Promise<StoredQuarter[]> {
    return this.model
      .find(this.scoped(scope, { year }), { _id: 0, vendorId: 1, year: 1, quarter: 1, ...FIGURES })
      .sort({ year: 1, vendorId: 1, quarter: 1 })
      .lean<StoredQuarter[]>()
      .exec();
  }

  /**
   * Writes recomputed quarters (upserts on the unique key; a quarter with no payable row is stored
   * as zeros, so a figure that fell to nothing is overwritten too). Last writer wins: a refresh that
   * lands after a fresher one leaves its quarter marked by the step that made the difference.
   */
  async write(scope: ShopScope, quarters: StoredQuarter[]): Promise<void> {
    if (quarters.length === 0) return;
    try {
      await this.upsert(scope, quarters);
    } catch (err) {
      // Two refreshes created the same new quarter at once: the document exists now, write again.
      if (!isDuplicateKeyError(err)) throw err;
      await this.upsert(scope, quarters);
    }
  }

  private async upsert(scope: ShopScope, quarters: StoredQuarter[]): Promise<void> {
    await chunkedBulkWrite(
      this.model,
      quarters.map((q) => ({
        updateOne: {
          filter: this.scoped(scope, { year: q.year, vendorId: q.vendorId, quarter: q.quarter }),
          update: {
            $set: {
              sales: q.sales,
              refunds: q.refunds,
              commissions: q.commissions,
              fees: q.fees,
              taxes: q.taxes,
              numberOfOrders: q.numberOfOrders,
              hasRows: q.hasRows,
            },
          },
          upsert: true,
        },
      })) as Parameters<Model<SellerTaxQuarter>['bulkWrite']>[0],
    );
  }

  /** The first and last year the shop has quarters stored for, or null. */
  async yearSpan(scope: ShopScope): Promise<{ first: number; last: number } | null> {
    const edge = (dir: 1 | -1) =>
      this.model
        .findOne(this.scoped(scope), { _id: 0, year: 1 })
        .sort({ year: dir, vendorId: dir, quarter: dir })
        .lean<{ year: number }>()
        .exec();
    const [first, last] = await Promise.all([edge(1), edge(-1)]);
    return first && last ? { first: first.year, last: last.year } : null;
  }
}
