import { getModelToken } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { LineItem } from '../../src/line-items/line-item.schema';
import type { TestApp } from './app';
import { vendorToken } from './catalog';
import type { TestShop } from './factory';
import { createVendor } from './payout-fixtures';

/** A vendor rate of 0 %: the fulfilment suites check fulfilment, not money. */
export const ZERO_RATE = { commissionType: 'percentage' as const, commissionAmount: 0 };

/** The tracking every fulfilment of the vendor fulfilment suites sends. */
export const TRACKING = {
  trackingNumber: '1Z999AA1',
  shippingCarrier: 'UPS',
  trackingUrl: 'https://ups.example/1Z999AA1',
};

/** What a fulfilment change may touch (the vendor tally job updates other fields on its own). */
export const fulfilmentOf = (l: LineItem | null) => ({
  fulfillmentStatus: l?.fulfillmentStatus,
  fulfillment: l?.fulfillment,
  fulfillmentLock: l?.fulfillmentLock,
});

/**
 * The helpers both vendor fulfilment suites (local and Shopify platform) use once the app runs: read a
 * line as stored (shop-scoped), and POST a fulfilment of some line ids with {@link TRACKING}.
 */
export function fulfilmentKit(t: TestApp) {
  const items = t.app.get<Model<LineItem>>(getModelToken(LineItem.name));
  return {
    line: (s: TestShop, id: string) =>
      items
        .findOne({ shopId: new Types.ObjectId(s.shopId), _id: new Types.ObjectId(id) })
        .lean<LineItem>()
        .exec(),
    fulfil: (
      token: string,
      lineItemIds: string[],
      path = '/fulfillments',
      headers?: Record<string, string>,
    ) => t.api.post(path, { lineItemIds, ...TRACKING }, { token, headers }),
  };
}

/** A vendor of the shop at {@link ZERO_RATE} and a vendor token for it. */
export async function vendorWithToken(t: TestApp, shop: TestShop, name: string) {
  const vendor = await createVendor(t, shop, name, ZERO_RATE);
  return { vendor, token: await vendorToken(t, shop, vendor._id) };
}
