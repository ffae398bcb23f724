import { Types } from 'mongoose';
import type { ShopScope } from '../../src/common/tenancy';
import type {
  SellerTaxFigureSums,
  SellerTaxRefundGroup,
  SellerTaxRowsRepository,
  SellerTaxSaleGroup,
} from '../../src/line-items/seller-tax-rows.repository';
import { SELLER_TAX_FIGURES } from '../../src/line-items/seller-tax-fields';
import { inScope } from './fake';

/** The fields of a stored line item the seller tax report reads. */
export interface TaxRow extends SellerTaxFigureSums {
  shopId: Types.ObjectId;
  vendorId: Types.ObjectId | null;
  orderId: number;
  type: 'sale' | 'refund' | null;
  inPayouts: boolean;
  orderCreatedAt: Date;
}

const FIGURES = SELLER_TAX_FIGURES;

function sums(rows: TaxRow[]): SellerTaxFigureSums {
  // as the store adds them: doubles, in row order
  return Object.fromEntries(
    FIGURES.map((f) => [f, rows.reduce((n, r) => n + r[f], 0)]),
  ) as unknown as SellerTaxFigureSums;
}

/** line_items in memory, summed the way the two aggregations of SellerTaxRowsRepository sum them. */
export class FakeSellerTaxRows implements Pick<SellerTaxRowsRepository, 'sumsIn'> {
  readonly rows: TaxRow[] = [];
  calls = 0;

  async sumsIn(
    scope: ShopScope,
    from: Date,
    to: Date,
    vendorIds?: Types.ObjectId[],
  ): Promise<{ sales: SellerTaxSaleGroup[]; refunds: SellerTaxRefundGroup[] }> {
    this.calls++;
    const asked = vendorIds && new Set(vendorIds.map(String));
    const dated = inScope(scope, this.rows).filter(
      (r) =>
        r.inPayouts &&
        r.orderCreatedAt >= from &&
        r.orderCreatedAt < to &&
        (!asked || asked.has(String(r.vendorId))),
    );
    const byVendor = (rows: TaxRow[]) => {
      const out = new Map<string, TaxRow[]>();
      for (const r of rows) out.set(String(r.vendorId), [...(out.get(String(r.vendorId)) ?? []), r]);
      return [...out.entries()];
    };
    return {
      sales: byVendor(dated.filter((r) => r.type !== 'refund')).map(([id, rows]) => ({
        vendorId: new Types.ObjectId(id),
        orders: new Set(rows.map((r) => r.orderId)).size,
        ...sums(rows),
      })),
      refunds: byVendor(dated.filter((r) => r.type === 'refund')).map(([id, rows]) => ({
        vendorId: new Types.ObjectId(id),
        ...sums(rows),
      })),
    };
  }
}
