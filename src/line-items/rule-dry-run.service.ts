import { Injectable } from '@nestjs/common';
import type { Types } from 'mongoose';
import type { LadderRule } from '../common/money';
import type { ShopScope } from '../common/tenancy';
import { ProductsRepository } from '../products/products.repository';
import { LineItemPricing, reprice, withRule } from './line-item-pricing';
import { LineItemsRepository } from './line-items.repository';

/** Lines read and priced per step (one line read, one pricing read): bounded memory. */
export const DRY_RUN_PAGE = 1000;
/** Product ids per line query (a product-type rule may target many products). */
const PRODUCTS_PER_QUERY = 200;
/** How many affected lines the answer names. */
export const DRY_RUN_SAMPLE = 100;

export interface RuleDryRunResult {
  affectedLines: {
    count: number;
    /** The first DRY_RUN_SAMPLE affected lines, in (product batch, _id) order. */
    sample: Array<{ orderId: number; lineItemId: number; payoutBefore: number; payoutAfter: number }>;
  };
  /** Σ (payout with the candidate − payout without it) over the affected lines. */
  payoutDelta: number;
}

/**
 * `POST /v1/commissions/rules?dryRun=true` (DESIGN §13): what a candidate rule would change, writing
 * nothing. Finds the unpaid, unfrozen sale lines of the rule's target (its product, or every stored
 * product of its type), prices each through the one pricing path without and with the candidate (it
 * replaces the stored rule of the same id: an update's dry-run), and sums the payout difference in
 * cents. A line changes when its commission, plan, rule or payout does. Without the candidate the
 * figures are the ladder's now, which a recalculation writes: the numbers equal what recalculating
 * the lines after storing the rule changes (given they were current before).
 */
@Injectable()
export class RuleDryRun {
  constructor(
    private readonly lineItems: LineItemsRepository,
    private readonly products: ProductsRepository,
    private readonly pricing: LineItemPricing,
  ) {}

  async evaluate(scope: ShopScope, candidate: LadderRule): Promise<RuleDryRunResult> {
    const productIds =
      candidate.level === 'product'
        ? candidate.productId
          ? [candidate.productId]
          : []
        : candidate.productTypeKey
          ? await this.products.idsOfType(scope, candidate.productTypeKey)
          : [];
    const out: RuleDryRunResult = { affectedLines: { count: 0, sample: [] }, payoutDelta: 0 };
    let delta = 0n;
    for (let i = 0; i < productIds.length; i += PRODUCTS_PER_QUERY) {
      const batch = productIds.slice(i, i + PRODUCTS_PER_QUERY);
      let after: Types.ObjectId | null = null;
      for (;;) {
        const page = await this.lineItems.findUnpaidOfProducts(scope, batch, after, DRY_RUN_PAGE);
        if (page.length === 0) break;
        after = page[page.length - 1]._id;
        const sales = page.filter((l) => l.type !== 'refund' && !l.frozen && l.payoutStatus === 'unpaid');
        // A vendor-limited candidate changes nothing on another vendor's lines: the ladder ignores it there.
        const ctx = await this.pricing.load(scope, {
          vendorNames: sales.map((l) => l.vendorName),
          vendorIds: sales.map((l) => l.vendorId),
          skus: sales.map((l) => l.sku),
          productIds: sales.map((l) => l.productId),
        });
        const withCandidate = withRule(ctx, candidate);
        for (const l of sales) {
          const now = reprice(ctx, l).figures;
          const next = reprice(withCandidate, l).figures;
          const changed =
            now.commission !== next.commission ||
            now.payout !== next.payout ||
            now.commissionPlan !== next.commissionPlan ||
            now.commissionRule?.id !== next.commissionRule?.id;
          if (!changed) continue;
          out.affectedLines.count += 1;
          delta += centsOf(next.payout) - centsOf(now.payout);
          if (out.affectedLines.sample.length < DRY_RUN_SAMPLE)
            out.affectedLines.sample.push({
              orderId: l.orderId,
              lineItemId: l.lineItemId,
              payoutBefore: now.payout,
              payoutAfter: next.payout,
            });
        }
        if (page.length < DRY_RUN_PAGE) break;
      }
    }
    out.payoutDelta = Number(delta) / 100;
    return out;
  }
}

/** A stored figure (on the cent grid) in whole cents, exactly. */
function centsOf(figure: number): bigint {
  return BigInt(Math.round(figure * 100));
}
