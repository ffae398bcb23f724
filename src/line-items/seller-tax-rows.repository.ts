import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import type { ShopScope } from '../common/tenancy';
import { TenantRepository } from '../database/tenant-repository';
import { LineItem } from './line-item.schema';
import { SELLER_TAX_FIGURES } from './seller-tax-fields';

/**
 * The stored figures a seller tax report adds up (DESIGN §14), as the store summed them over one
 * vendor's payable rows of one type in one date range. Each is a sum of numbers stored on the cent
 * grid; the caller takes it to integer cents (half-up) before any further arithmetic.
 */
export interface SellerTaxFigureSums {
  salesAfterDiscount: number;
  commission: number;
  taxOnCommissions: number;
  tcs: number;
  totalGlobalDeductions: number;
  deduction: number;
}

/** A vendor's sale rows in the range: the sums and how many distinct orders they came from. */
export interface SellerTaxSaleGroup extends SellerTaxFigureSums {
  vendorId: Types.ObjectId;
  orders: number;
}

/** A vendor's refund rows in the range (negative figures). */
export interface SellerTaxRefundGroup extends SellerTaxFigureSums {
  vendorId: Types.ObjectId;
}

const FIGURES = SELLER_TAX_FIGURES;

const sumOf = (path: (f: string) => string) =>
  Object.fromEntries(FIGURES.map((f) => [f, { $sum: path(f) }])) as Record<string, { $sum: string }>;

/**
 * Sale rows: per (vendor, order) first, then per vendor — the second `$group` counts the first's
 * groups, which is the number of distinct orders (no `$addToSet`/`$size`: DESIGN §1 allows `$sum`).
 */
const SALE_PIPELINE_GROUPS = [
  { $group: { _id: { v: '$vendorId', o: '$orderId' }, ...sumOf((f) => `$${f}`) } },
  { $group: { _id: '$_id.v', orders: { $sum: 1 }, ...sumOf((f) => `$${f}`) } },
];
const REFUND_PIPELINE_GROUPS = [{ $group: { _id: '$vendorId', ...sumOf((f) => `$${f}`) } }];

/**
 * The seller tax report's reads of line_items (GET /v1/reports/seller-tax): per vendor, the sums of
 * its payable rows dated in a range. "Payable" is the payout engine's own flag `inPayouts` (DESIGN §8:
 * sale rows of orders whose money was captured, refund rows, and rows a batch already paid), so the
 * report counts exactly the rows the vendor is paid for. A row's date is `orderCreatedAt`: the order's
 * creation for a sale row, the refund's date for a refund row (line-item.schema.ts).
 *
 * Each read is served by `{shopId, inPayouts, type, orderCreatedAt, _id}` (equality, equality as point
 * ranges, then the date range); the rows are grouped in the store and only per-vendor sums come back.
 */
@Injectable()
export class SellerTaxRowsRepository extends TenantRepository<LineItem> {
  protected override readonly vendorField = 'vendorId';

  constructor(@InjectModel(LineItem.name) model: Model<LineItem>) {
    super(model);
  }

  /**
   * Per vendor, the payable sale and refund rows dated in [from, to): two aggregations side by
   * side. `type` null: a sale row stored before refund rows existed has none. With `vendorIds`, only
   * those vendors' rows (the quarters a refresh recomputes), served by
   * `{shopId, inPayouts, vendorId, type, orderCreatedAt, _id}`.
   */
  async sumsIn(
    scope: ShopScope,
    from: Date,
    to: Date,
    vendorIds?: Types.ObjectId[],
  ): Promise<{ sales: SellerTaxSaleGroup[]; refunds: SellerTaxRefundGroup[] }> {
    const dated = {
      ...(vendorIds ? { vendorId: { $in: vendorIds } } : {}),
      orderCreatedAt: { $gte: from, $lt: to },
    };
    const [sales, refunds] = await Promise.all([
      this.model
        .aggregate<SellerTaxSaleGroup & { _id: Types.ObjectId }>([
          { $match: this.scoped(scope, { inPayouts: true, type: { $in: ['sale', null] }, ...dated }) },
          ...SALE_PIPELINE_GROUPS,
        ])
        .exec(),
      this.model
        .aggregate<SellerTaxRefundGroup & { _id: Types.ObjectId }>([
          { $match: this.scoped(scope, { inPayouts: true, type: 'refund', ...dated }) },
          ...REFUND_PIPELINE_GROUPS,
        ])
        .exec(),
    ]);
    return {
      sales: sales.map(({ _id, ...g }) => ({ ...g, vendorId: _id })),
      refunds: refunds.map(({ _id, ...g }) => ({ ...g, vendorId: _id })),
    };
  }

  /** The earliest and latest date of the shop's payable rows (the reconcile's years), or null. */
  async dateSpan(scope: ShopScope): Promise<{ first: Date; last: Date } | null> {
    const edge = (dir: 1 | -1) =>
      this.model
        .findOne(this.scoped(scope, { inPayouts: true }), { _id: 0, orderCreatedAt: 1 })
        .sort({ orderCreatedAt: dir, _id: dir })
        .lean<{ orderCreatedAt: Date }>()
        .exec();
    const [first, last] = await Promise.all([edge(1), edge(-1)]);
    return first && last ? { first: first.orderCreatedAt, last: last.orderCreatedAt } : null;
  }
}
