import { Injectable } from '@nestjs/common';
import type { ShopScope } from '../common/tenancy';
import { SellerTaxRowsRepository } from '../line-items/seller-tax-rows.repository';
import { NO_CENTS, type QuarterCents, quarterRanges } from './seller-tax-figures';
import { quartersOf, SellerTaxSummaries } from './seller-tax-summaries.service';

/** A stored quarter that is not what the rows add up to. */
export interface SellerTaxDifference {
  vendorId: string;
  year: number;
  quarter: number;
  stored: QuarterCents | null;
  rows: QuarterCents | null;
}

export interface SellerTaxReconciliation {
  ok: boolean;
  years: number[];
  /** (vendor, quarter) pairs compared: those stored and those the rows have. */
  compared: number;
  differences: SellerTaxDifference[];
}

const KEYS = ['sales', 'refunds', 'commissions', 'fees', 'taxes', 'numberOfOrders'] as const;

/**
 * Proves the seller tax report's stored quarters against the rows (`payouts:reconcile`, after it has
 * let the tally count every change): each year with a payable row or a stored quarter is refreshed
 * where marked, then every vendor's quarter is summed from the rows again, in one pass per quarter,
 * and compared with what is stored, to the cent and the order count. A stored quarter with figures
 * the rows no longer have, or rows with no stored quarter, is a difference.
 */
@Injectable()
export class SellerTaxReconcile {
  constructor(
    private readonly rows: SellerTaxRowsRepository,
    private readonly summaries: SellerTaxSummaries,
  ) {}

  async reconcile(scope: ShopScope): Promise<SellerTaxReconciliation> {
    const years = await this.summaries.yearsOf(scope);
    const differences: SellerTaxDifference[] = [];
    let compared = 0;
    for (const year of years) {
      const stored = await this.summaries.year(scope, year);
      const fromRows = new Map<string, QuarterCents[]>();
      for (const range of quarterRanges(year)) {
        const sums = await this.rows.sumsIn(scope, range.from, range.to);
        const vendorIds = new Map(
          [...sums.sales, ...sums.refunds].map((g) => [String(g.vendorId), g.vendorId]),
        );
        for (const [vendorId, figures] of quartersOf([...vendorIds.values()], sums)) {
          const quarters = fromRows.get(vendorId) ?? [NO_CENTS, NO_CENTS, NO_CENTS, NO_CENTS];
          quarters[range.quarter - 1] = figures;
          fromRows.set(vendorId, quarters);
        }
      }
      for (const vendorId of new Set([...stored.keys(), ...fromRows.keys()])) {
        for (let i = 0; i < 4; i++) {
          const s = stored.get(vendorId)?.[i] ?? null;
          const r = fromRows.get(vendorId)?.[i] ?? null;
          compared++;
          if (!same(s ?? NO_CENTS, r ?? NO_CENTS))
            differences.push({ vendorId, year, quarter: i + 1, stored: s, rows: r });
        }
      }
    }
    return { ok: differences.length === 0, years, compared, differences };
  }
}

function same(a: QuarterCents, b: QuarterCents): boolean {
  return KEYS.every((k) => a[k] === b[k]);
}
