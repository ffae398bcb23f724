import type { Types } from 'mongoose';
import { CommissionRuleReadsRepository } from '../commissions/commission-rule-reads.repository';
import { shopScope } from '../common/tenancy';
import { ProductRepricing } from '../line-items/product-repricing';
import { KeyedProduct, SystemProductsRepository } from '../products/system-products.repository';
import { CliCommand } from './cli-command';

const BATCH = 500;

/**
 * Queues the recalculation of the unpaid lines of the keyed products whose type has a product-type
 * rule in their shop (the same one a products/update that changes the type queues); returns the jobs.
 */
async function reprice(
  rules: CommissionRuleReadsRepository,
  repricing: ProductRepricing,
  keyed: KeyedProduct[],
): Promise<number> {
  const byShop = new Map<string, KeyedProduct[]>();
  for (const p of keyed) {
    if (p.productTypeKey === null) continue;
    byShop.set(p.shopId, [...(byShop.get(p.shopId) ?? []), p]);
  }
  let jobs = 0;
  for (const [shopId, products] of byShop) {
    const scope = shopScope(shopId);
    const ruled = new Set(
      await rules.typeKeysWithRules(scope, [...new Set(products.map((p) => p.productTypeKey as string))]),
    );
    for (const p of products) {
      if (ruled.has(p.productTypeKey as string) && (await repricing.typeChanged(scope, p.productId)))
        jobs += 1;
    }
  }
  return jobs;
}

export const productsCommands: CliCommand[] = [
  {
    name: 'products:type-keys',
    description:
      'Set productTypeKey on every product stored without it (all shops, 500 at a time; re-running ' +
      'updates 0) and queue the recalculation of the unpaid lines of those whose type has a ' +
      'product-type rule: prints {scanned, updated, recalculationJobs}.',
    options: [],
    run: async (app) => {
      const products = app.get(SystemProductsRepository);
      const rules = app.get(CommissionRuleReadsRepository);
      const repricing = app.get(ProductRepricing);
      let scanned = 0;
      let updated = 0;
      let recalculationJobs = 0;
      let after: Types.ObjectId | null = null;
      do {
        const batch = await products.backfillTypeKeys(after, BATCH);
        scanned += batch.scanned;
        updated += batch.updated;
        recalculationJobs += await reprice(rules, repricing, batch.keyed);
        after = batch.lastId;
      } while (after);
      return { scanned, updated, recalculationJobs };
    },
  },
];
