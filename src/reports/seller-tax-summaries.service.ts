import { Injectable } from '@nestjs/common';
import { Types } from 'mongoose';
import { VendorBalancesRepository } from '../balances/vendor-balances.repository';
import { parseQuarterKey } from '../common/dates/quarter';
import type { ShopScope } from '../common/tenancy';
import {
  type SellerTaxRefundGroup,
  SellerTaxRowsRepository,
  type SellerTaxSaleGroup,
} from '../line-items/seller-tax-rows.repository';
import { VendorTally } from '../line-items/vendor-tally.service';
import { NO_CENTS, type QuarterCents, quarterCents, quarterRanges } from './seller-tax-figures';
import { SellerTaxQuartersRepository, type StoredQuarter } from './seller-tax-quarters.repository';

/** Vendors per recompute read (`vendorId: {$in}`): keeps each command's key list small. */
const VENDORS_PER_READ = 500;

/** A quarter mark a refresh recomputed: cleared if no tally step bumped it meanwhile. */
interface DoneMark {
  vendorId: Types.ObjectId;
  quarter: string;
  count: number;
}

/**
 * The seller tax report's figures per (vendor, quarter), kept in `seller_tax_quarters` (DESIGN §14;
 * ADR 0056). Every line-item write that can change a figure marks its row for the tally, whose step
 * marks the row's quarter on the vendor's balance document in its own write (`taxDirt`); a refresh
 * recomputes the marked quarters from the rows — absolute figures, so a refresh run twice, or two at
 * once, write the same — and then removes each mark unless a step bumped it since it was read. A
 * crash anywhere leaves the mark, and the next refresh finishes the work. The report refreshes the
 * year it shows first, so it answers what the rows say once the tally has counted them.
 */
@Injectable()
export class SellerTaxSummaries {
  constructor(
    private readonly rows: SellerTaxRowsRepository,
    private readonly balances: VendorBalancesRepository,
    private readonly quarters: SellerTaxQuartersRepository,
    private readonly tally: VendorTally,
  ) {}

  /**
   * Each vendor with a payable row dated in `year`: its four quarters in cents. Lets this process's
   * pending tally runs of the shop finish and refreshes the year's marked quarters first.
   */
  async year(scope: ShopScope, year: number): Promise<Map<string, QuarterCents[]>> {
    await this.tally.idleShop(scope);
    await this.refresh(scope, year);
    const byVendor = new Map<string, QuarterCents[]>();
    for (const q of await this.quarters.year(scope, year)) {
      if (!q.hasRows) continue;
      const id = String(q.vendorId);
      const quarters = byVendor.get(id) ?? [NO_CENTS, NO_CENTS, NO_CENTS, NO_CENTS];
      quarters[q.quarter - 1] = figuresOf(q);
      byVendor.set(id, quarters);
    }
    return byVendor;
  }

  /** Recomputes the shop's marked quarters of `year` from the rows; how many (vendor, quarter) it wrote. */
  async refresh(scope: ShopScope, year: number): Promise<number> {
    const marks = new Map<number, DoneMark[]>();
    for (const { vendorId, taxDirt } of await this.balances.taxDirt(scope)) {
      for (const [key, count] of Object.entries(taxDirt)) {
        const q = parseQuarterKey(key);
        if (q?.year !== year) continue;
        marks.set(q.quarter, [...(marks.get(q.quarter) ?? []), { vendorId, quarter: key, count }]);
      }
    }
    if (marks.size === 0) return 0;
    const ranges = quarterRanges(year);
    const recomputed = await Promise.all(
      [...marks].map(([quarter, done]) => this.recompute(scope, year, ranges[quarter - 1], done)),
    );
    const stored = recomputed.flat();
    await this.quarters.write(scope, stored);
    await this.balances.clearTaxDirt(scope, [...marks.values()].flat());
    return stored.length;
  }

  /** The vendors' quarter straight from the rows, for every vendor asked for. */
  private async recompute(
    scope: ShopScope,
    year: number,
    range: { quarter: number; from: Date; to: Date },
    marks: Array<{ vendorId: Types.ObjectId }>,
  ): Promise<StoredQuarter[]> {
    const out: StoredQuarter[] = [];
    for (let i = 0; i < marks.length; i += VENDORS_PER_READ) {
      const vendorIds = marks.slice(i, i + VENDORS_PER_READ).map((m) => m.vendorId);
      const sums = await this.rows.sumsIn(scope, range.from, range.to, vendorIds);
      out.push(...quartersOf(year, range.quarter, vendorIds, sums));
    }
    return out;
  }
}

/**
 * The stored form of the store's per-vendor sums of one quarter, for each of `vendorIds` (zeros and
 * `hasRows: false` for a vendor with no payable row: its stored figures must fall to nothing too).
 */
export function quartersOf(
  year: number,
  quarter: number,
  vendorIds: Types.ObjectId[],
  sums: { sales: SellerTaxSaleGroup[]; refunds: SellerTaxRefundGroup[] },
): StoredQuarter[] {
  const saleOf = new Map(sums.sales.map((g) => [String(g.vendorId), g]));
  const refundOf = new Map(sums.refunds.map((g) => [String(g.vendorId), g]));
  return vendorIds.map((vendorId) => {
    const sale = saleOf.get(String(vendorId));
    const refund = refundOf.get(String(vendorId));
    return { vendorId, year, quarter, hasRows: Boolean(sale || refund), ...quarterCents(sale, refund) };
  });
}

function figuresOf(q: StoredQuarter): QuarterCents {
  return {
    sales: q.sales,
    refunds: q.refunds,
    commissions: q.commissions,
    fees: q.fees,
    taxes: q.taxes,
    numberOfOrders: q.numberOfOrders,
  };
}
