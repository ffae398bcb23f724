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
import type { StoredQuarterFigures } from './seller-tax-year.schema';
import { SellerTaxYearsRepository, type YearWrite } from './seller-tax-years.repository';

/** Vendors per recompute read (`vendorId: {$in}`): keeps each command's key list small. */
const VENDORS_PER_READ = 500;

/** A vendor's marks of one year as read (quarter key → count), and the quarters (1–4) they name. */
interface VendorMarks {
  vendorId: Types.ObjectId;
  counts: Record<string, number>;
  quarters: number[];
}

/**
 * The seller tax report's figures per vendor and quarter, kept in `seller_tax_years` (DESIGN §14;
 * ADR 0057). Every line-item write that can change a figure marks its row for the tally, whose step
 * marks the row's quarter on the vendor's balance document in its own write (`taxDirt`); a refresh
 * recomputes the marked quarters from the rows — absolute figures, so a refresh run twice, or two at
 * once, write the same — and then removes a vendor's marks unless a step bumped one since it was read.
 * A crash anywhere leaves the marks, and the next refresh finishes the work. The report refreshes the
 * year it shows first, so it answers what the rows say once the tally has counted them.
 */
@Injectable()
export class SellerTaxSummaries {
  constructor(
    private readonly rows: SellerTaxRowsRepository,
    private readonly balances: VendorBalancesRepository,
    private readonly years: SellerTaxYearsRepository,
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
    for (const y of await this.years.year(scope, year)) {
      const quarters = ([1, 2, 3, 4] as const).map((q) => y.quarters[`${q}`]);
      if (!quarters.some((q) => q?.hasRows)) continue;
      byVendor.set(
        String(y.vendorId),
        quarters.map((q) => (q?.hasRows ? figuresOf(q) : NO_CENTS)),
      );
    }
    return byVendor;
  }

  /** Every year the shop has a payable row or a stored year in, ascending. */
  async yearsOf(scope: ShopScope): Promise<number[]> {
    const [rowSpan, storedSpan] = await Promise.all([this.rows.dateSpan(scope), this.years.yearSpan(scope)]);
    const bounds = [
      ...(rowSpan ? [rowSpan.first.getUTCFullYear(), rowSpan.last.getUTCFullYear()] : []),
      ...(storedSpan ? [storedSpan.first, storedSpan.last] : []),
    ];
    const out: number[] = [];
    if (bounds.length > 0) for (let y = Math.min(...bounds); y <= Math.max(...bounds); y++) out.push(y);
    return out;
  }

  /**
   * Recomputes every quarter of the shop, through the marks (`reports:seller-tax-rebuild`: the
   * backfill after an upgrade, whose rows were counted before the tally marked quarters): each
   * vendor with payable rows in a quarter, or a stored figure for it, gets a mark as a tally step
   * would give it, then each year is refreshed — so a tally step running meanwhile keeps its own
   * protocol. Returns the years and how many vendor-years were rewritten.
   */
  async rebuild(scope: ShopScope): Promise<{ years: number[]; refreshed: number }> {
    const years = await this.yearsOf(scope);
    let refreshed = 0;
    for (const year of years) {
      const stored = await this.years.year(scope, year);
      for (const range of quarterRanges(year)) {
        const sums = await this.rows.sumsIn(scope, range.from, range.to);
        const vendors = new Map(
          [...sums.sales, ...sums.refunds].map((g) => [String(g.vendorId), g.vendorId]),
        );
        for (const y of stored)
          if (y.quarters[`${range.quarter}` as '1']) vendors.set(String(y.vendorId), y.vendorId);
        await this.balances.markTaxQuarter(scope, [...vendors.values()], `${year}Q${range.quarter}`);
      }
      refreshed += await this.refresh(scope, year);
    }
    return { years, refreshed };
  }

  /** Recomputes the shop's marked quarters of `year` from the rows; how many vendors it rewrote. */
  async refresh(scope: ShopScope, year: number): Promise<number> {
    const marked: VendorMarks[] = [];
    for (const { vendorId, taxDirt } of await this.balances.taxDirt(scope)) {
      const counts: Record<string, number> = {};
      const quarters: number[] = [];
      for (const [key, count] of Object.entries(taxDirt)) {
        const q = parseQuarterKey(key);
        if (q?.year !== year) continue;
        counts[key] = count;
        quarters.push(q.quarter);
      }
      if (quarters.length > 0) marked.push({ vendorId, counts, quarters });
    }
    if (marked.length === 0) return 0;
    const writes = new Map<string, YearWrite>(
      marked.map((m) => [String(m.vendorId), { vendorId: m.vendorId, quarters: new Map() }]),
    );
    await Promise.all(
      quarterRanges(year).map(async (range) => {
        const vendorIds = marked.filter((m) => m.quarters.includes(range.quarter)).map((m) => m.vendorId);
        for (let i = 0; i < vendorIds.length; i += VENDORS_PER_READ) {
          const some = vendorIds.slice(i, i + VENDORS_PER_READ);
          const sums = await this.rows.sumsIn(scope, range.from, range.to, some);
          for (const [vendorId, figures] of quartersOf(some, sums))
            writes.get(vendorId)!.quarters.set(range.quarter, figures);
        }
      }),
    );
    await this.years.write(scope, year, [...writes.values()]);
    await this.balances.clearTaxDirt(scope, marked);
    return marked.length;
  }
}

/**
 * The stored form of the store's per-vendor sums of one quarter, for each of `vendorIds` (zeros and
 * `hasRows: false` for a vendor with no payable row: its stored figures must fall to nothing too).
 */
export function quartersOf(
  vendorIds: Types.ObjectId[],
  sums: { sales: SellerTaxSaleGroup[]; refunds: SellerTaxRefundGroup[] },
): Map<string, StoredQuarterFigures> {
  const saleOf = new Map(sums.sales.map((g) => [String(g.vendorId), g]));
  const refundOf = new Map(sums.refunds.map((g) => [String(g.vendorId), g]));
  return new Map(
    vendorIds.map((vendorId) => {
      const sale = saleOf.get(String(vendorId));
      const refund = refundOf.get(String(vendorId));
      return [String(vendorId), { hasRows: Boolean(sale || refund), ...quarterCents(sale, refund) }];
    }),
  );
}

function figuresOf(q: StoredQuarterFigures): QuarterCents {
  return {
    sales: q.sales,
    refunds: q.refunds,
    commissions: q.commissions,
    fees: q.fees,
    taxes: q.taxes,
    numberOfOrders: q.numberOfOrders,
  };
}
