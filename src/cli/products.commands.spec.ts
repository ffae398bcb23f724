import type { INestApplicationContext } from '@nestjs/common';
import { Types } from 'mongoose';
import { CommissionRuleReadsRepository } from '../commissions/commission-rule-reads.repository';
import type { ShopScope } from '../common/tenancy';
import { ProductRepricing } from '../line-items/product-repricing';
import { SystemProductsRepository, TypeKeyBatch } from '../products/system-products.repository';
import { productsCommands } from './products.commands';

const command = productsCommands.find((c) => c.name === 'products:type-keys')!;
const SHOP_A = new Types.ObjectId().toHexString();
const SHOP_B = new Types.ObjectId().toHexString();

/** Batches handed out in order; the `after` each call received. */
function fakes(batches: TypeKeyBatch[]) {
  const afters: Array<Types.ObjectId | null> = [];
  const repriced: string[] = [];
  const asked: Array<[string, string[]]> = [];
  const products = {
    backfillTypeKeys: (after: Types.ObjectId | null) => {
      afters.push(after);
      return Promise.resolve(batches.shift()!);
    },
  };
  const rules = {
    typeKeysWithRules: (scope: ShopScope, keys: string[]) => {
      asked.push([scope.shopId, keys]);
      return Promise.resolve(scope.shopId === SHOP_A ? keys.filter((k) => k === 'lamps') : []);
    },
  };
  const repricing = {
    typeChanged: (scope: ShopScope, productId: string) => {
      repriced.push(`${scope.shopId}:${productId}`);
      return Promise.resolve(productId === 'no-lines' ? null : `job-${productId}`);
    },
  };
  const byType = new Map<unknown, unknown>([
    [SystemProductsRepository, products],
    [CommissionRuleReadsRepository, rules],
    [ProductRepricing, repricing],
  ]);
  const app = { get: (type: unknown) => byType.get(type) } as unknown as INestApplicationContext;
  return { app, afters, repriced, asked };
}

describe('products:type-keys', () => {
  it('pages by the last _id until a short batch, sums the counts, reprices only ruled types', async () => {
    const last1 = new Types.ObjectId();
    const f = fakes([
      {
        scanned: 500,
        lastId: last1,
        updated: 3,
        keyed: [
          { shopId: SHOP_A, productId: 'p1', productTypeKey: 'lamps' },
          { shopId: SHOP_A, productId: 'p2', productTypeKey: 'mugs' },
          { shopId: SHOP_A, productId: 'p3', productTypeKey: null },
        ],
      },
      {
        scanned: 12,
        lastId: null,
        updated: 2,
        keyed: [
          { shopId: SHOP_B, productId: 'p4', productTypeKey: 'lamps' },
          { shopId: SHOP_A, productId: 'no-lines', productTypeKey: 'lamps' },
        ],
      },
    ]);
    const out = await command.run(f.app, {});
    expect(out).toEqual({ scanned: 512, updated: 5, recalculationJobs: 1 });
    expect(f.afters).toEqual([null, last1]);
    // SHOP_B has no rule for "lamps": its product is keyed but not repriced; null types are never asked.
    expect(f.repriced).toEqual([`${SHOP_A}:p1`, `${SHOP_A}:no-lines`]);
    expect(f.asked).toEqual([
      [SHOP_A, ['lamps', 'mugs']],
      [SHOP_B, ['lamps']],
      [SHOP_A, ['lamps']],
    ]);
  });

  it('an empty collection: one read, all zero', async () => {
    const f = fakes([{ scanned: 0, lastId: null, updated: 0, keyed: [] }]);
    expect(await command.run(f.app, {})).toEqual({ scanned: 0, updated: 0, recalculationJobs: 0 });
    expect(f.afters).toEqual([null]);
    expect(f.asked).toEqual([]);
  });
});
