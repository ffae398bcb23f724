import { Model, Types } from 'mongoose';
import { shopScope, type ShopScope } from '../common/tenancy';
import { FulfillmentRowsRepository } from './fulfillment-rows.repository';
import { LineItemTallyRepository } from './line-item-tally.repository';
import type { LineItem } from './line-item.schema';
import { LineItemsRepository } from './line-items.repository';
import { PayoutRowsRepository } from './payout-rows.repository';

/** A model that records the filter of each `find` and answers every query with no rows. */
function recordingModel(): { filters: Array<Record<string, unknown>>; model: Model<LineItem> } {
  const filters: Array<Record<string, unknown>> = [];
  const query: object = new Proxy(
    {},
    { get: (_, key) => (key === 'exec' ? () => Promise.resolve([]) : () => query) },
  );
  const model = {
    find: (filter: Record<string, unknown>) => {
      filters.push(filter);
      return query;
    },
  };
  return { filters, model: model as unknown as Model<LineItem> };
}

const SHOP_ID = new Types.ObjectId().toHexString();
const VENDOR_ID = new Types.ObjectId().toHexString();
const id = new Types.ObjectId();

/** One read of each repository over the line_items collection. */
const reads: Array<[string, (model: Model<LineItem>, scope: ShopScope) => Promise<unknown>]> = [
  ['LineItemsRepository', (m, scope) => new LineItemsRepository(m).findByIds(scope, [id])],
  ['PayoutRowsRepository', (m, scope) => new PayoutRowsRepository(m).heldByBatch(scope, 'batch-1')],
  ['LineItemTallyRepository', (m, scope) => new LineItemTallyRepository(m).changedForTally(scope, id, 10)],
  ['FulfillmentRowsRepository', (m, scope) => new FulfillmentRowsRepository(m).findFulfillable(scope, [id])],
];

describe('the line-items repositories (one per consumer, one collection)', () => {
  it.each(reads)('%s narrows a vendor caller to its vendor', async (_, read) => {
    const { filters, model } = recordingModel();
    await read(model, shopScope(SHOP_ID, VENDOR_ID));
    expect(filters.length).toBeGreaterThan(0);
    for (const f of filters) {
      expect(String(f.shopId)).toBe(SHOP_ID);
      expect(String(f.vendorId)).toBe(VENDOR_ID);
    }
  });

  it.each(reads)('%s leaves a shop caller every vendor of its shop', async (_, read) => {
    const { filters, model } = recordingModel();
    await read(model, shopScope(SHOP_ID));
    expect(filters.length).toBeGreaterThan(0);
    for (const f of filters) {
      expect(String(f.shopId)).toBe(SHOP_ID);
      expect(f.vendorId === undefined || String(f.vendorId) === String(id)).toBe(true);
    }
  });
});
