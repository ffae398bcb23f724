import { Types } from 'mongoose';
import type { VendorBalancesRepository } from '../../src/balances/vendor-balances.repository';
import { quarterKey } from '../../src/common/dates/quarter';
import type { ShopScope } from '../../src/common/tenancy';
import type { VendorTally } from '../../src/line-items/vendor-tally.service';
import type {
  SellerTaxYearsRepository,
  StoredYear,
  YearWrite,
} from '../../src/reports/seller-tax-years.repository';
import type { TaxRow } from './seller-tax-rows.fake';

/** seller_tax_years in memory, keyed (shop, year, vendor) as the unique index. */
export class FakeSellerTaxYears implements Pick<SellerTaxYearsRepository, 'year' | 'write' | 'yearSpan'> {
  readonly docs = new Map<string, StoredYear & { shopId: string; year: number }>();
  writes = 0;

  async year(scope: ShopScope, year: number): Promise<StoredYear[]> {
    return [...this.docs.values()]
      .filter((d) => d.shopId === scope.shopId && d.year === year)
      .sort((a, b) => String(a.vendorId).localeCompare(String(b.vendorId)))
      .map((d) => ({ vendorId: d.vendorId, quarters: { ...d.quarters } }));
  }

  async write(scope: ShopScope, year: number, writes: YearWrite[]): Promise<void> {
    this.writes++;
    for (const w of writes) {
      const k = `${scope.shopId}:${year}:${String(w.vendorId)}`;
      const doc = this.docs.get(k) ?? { shopId: scope.shopId, year, vendorId: w.vendorId, quarters: {} };
      for (const [q, f] of w.quarters) doc.quarters[`${q}` as '1'] = { ...f };
      this.docs.set(k, doc);
    }
  }

  async yearSpan(scope: ShopScope): Promise<{ first: number; last: number } | null> {
    const years = [...this.docs.values()].filter((d) => d.shopId === scope.shopId).map((d) => d.year);
    return years.length ? { first: Math.min(...years), last: Math.max(...years) } : null;
  }
}

/**
 * The tally's quarter marks on vendor_balances, as the tally leaves them: a (vendor, quarter) is
 * marked while its rows differ from what the last cleared refresh read. Here a quarter's "change
 * count" is a fingerprint of its rows, so adding or changing a row marks it, as a tally step would.
 */
export class FakeTaxMarks implements Pick<VendorBalancesRepository, 'taxDirt' | 'clearTaxDirt'> {
  /** vendor:quarter → the count a refresh cleared. */
  readonly cleared = new Map<string, number>();
  readonly clears: Array<{ vendorId: string; quarter: string; count: number }> = [];

  constructor(private readonly rows: () => TaxRow[]) {}

  async taxDirt(scope: ShopScope) {
    const counts = new Map<string, Map<string, number>>();
    for (const r of this.rows().filter((x) => String(x.shopId) === scope.shopId && x.vendorId)) {
      const v = String(r.vendorId);
      const q = quarterKey(r.orderCreatedAt);
      const m = counts.get(v) ?? new Map<string, number>();
      m.set(q, (m.get(q) ?? 0) + fingerprint(r));
      counts.set(v, m);
    }
    return [...counts]
      .map(([v, m]) => ({
        vendorId: new Types.ObjectId(v),
        taxDirt: Object.fromEntries([...m].filter(([q, n]) => this.cleared.get(`${v}:${q}`) !== n)),
      }))
      .filter((d) => Object.keys(d.taxDirt).length > 0);
  }

  async clearTaxDirt(
    _scope: ShopScope,
    done: Array<{ vendorId: Types.ObjectId; counts: Record<string, number> }>,
  ): Promise<void> {
    for (const d of done) {
      for (const [quarter, count] of Object.entries(d.counts)) {
        this.clears.push({ vendorId: String(d.vendorId), quarter, count });
        this.cleared.set(`${String(d.vendorId)}:${quarter}`, count);
      }
    }
  }
}

/** A number that changes when a row's payable state or figures change (the fake's change count). */
function fingerprint(r: TaxRow): number {
  return 1 + (r.inPayouts ? 7 : 0) + Math.round(r.salesAfterDiscount * 100) * 13 + r.orderId * 31;
}

/** The tally as the report waits for it: nothing pending in a unit test. */
export const idleTally: Pick<VendorTally, 'idleShop'> = { idleShop: async () => undefined };
