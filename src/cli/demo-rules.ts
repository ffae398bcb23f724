import type { INestApplicationContext } from '@nestjs/common';
import { getModelToken } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { CommissionRule } from '../commissions/commission-rule.schema';
import { productTypeKeyOf } from '../common/money';
import type { ShopScope } from '../common/tenancy';
import { ShopsRepository } from '../shops/shops.repository';
import { CliUsageError } from './cli-command';

const MAX_RULES = 100_000;

export function parseRuleCount(flag: string, value: string | number | undefined): number {
  if (value === undefined) return 0;
  const n = typeof value === 'number' ? value : /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < 0 || n > MAX_RULES)
    throw new CliUsageError(`${flag} must be an integer from 0 to ${MAX_RULES}`);
  return n;
}

/**
 * Commission rules for the demo shop (the ladder's cost in the probe bench): `products` product
 * rules — the demo products first, one shop-wide and one limited to the first vendor each, then
 * other product ids — and `types` product-type rules, the demo types first. Stored directly (a seed
 * of the bench, like the demo's other records; the rules API validates what users send).
 */
export async function insertDemoRules(
  app: INestApplicationContext,
  scope: ShopScope,
  demo: { productIds: number[]; types: string[]; vendorId: string },
  counts: { products: number; types: number },
): Promise<void> {
  const model = app.get<Model<CommissionRule>>(getModelToken(CommissionRule.name), { strict: false });
  const shopId = new Types.ObjectId(scope.shopId);
  const docs: Array<Partial<CommissionRule>> = [];
  for (let i = 0; i < counts.products; i++) {
    const demoRule = i < demo.productIds.length * 2;
    const productId = demoRule ? demo.productIds[i >> 1] : 9_000_000_000 + i;
    docs.push({
      shopId,
      level: 'product',
      productId: String(productId),
      vendorId: demoRule && i % 2 === 1 ? new Types.ObjectId(demo.vendorId) : null,
      commissionType: i % 3 === 0 ? 'percentage_plus_flat' : 'percentage',
      commissionAmount: 5 + (i % 10),
      flatAmount: i % 3 === 0 ? 0.25 : null,
      maximum: i % 4 === 0 ? 50 : null,
    });
  }
  for (let i = 0; i < counts.types; i++) {
    const type = i < demo.types.length ? demo.types[i] : `Type ${i}`;
    docs.push({
      shopId,
      level: 'productType',
      productType: type,
      productTypeKey: productTypeKeyOf(type),
      commissionType: 'percentage',
      commissionAmount: 4 + (i % 7),
      minimum: i % 5 === 0 ? 0.5 : null,
    });
  }
  for (let i = 0; i < docs.length; i += 1000) await model.insertMany(docs.slice(i, i + 1000));
  // stored past the rules API: the shop's rules stamp moves on here (cached rules stop matching)
  await app.get(ShopsRepository, { strict: false }).rulesChanged(scope.shopId);
}
