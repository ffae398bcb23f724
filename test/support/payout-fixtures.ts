import { getModelToken } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { LineItem } from '../../src/line-items/line-item.schema';
import { Vendor } from '../../src/vendors/vendor.schema';
import type { TestApp } from './app';
import type { TestShop } from './factory';
import { platformId, sendWebhook, shopifyOrder, waitForWebhooks } from './webhooks';

/** A vendor of the shop (created through POST /v1/vendors when that endpoint exists, else stored directly). */
export async function createVendor(
  t: TestApp,
  shop: TestShop,
  vendorName: string,
  commission: { commissionType: 'percentage' | 'flat'; commissionAmount: number } = {
    commissionType: 'percentage',
    commissionAmount: 10,
  },
): Promise<{ _id: string; vendorName: string }> {
  const res = await t.api.post('/v1/vendors', { vendorName, ...commission }, { token: shop.token });
  if (res.status === 200) return { _id: res.body.vendor._id, vendorName: res.body.vendor.vendorName };
  if (res.status !== 404 || !res.text.includes('Route not found')) {
    throw new Error(`create vendor failed: ${res.status} ${res.text}`);
  }
  // FALLBACK until POST /v1/vendors exists.
  const model = t.app.get<Model<Vendor>>(getModelToken(Vendor.name));
  const doc = await model.create({
    shopId: new Types.ObjectId(shop.shopId),
    vendorName: vendorName.toLowerCase(),
    ...commission,
  });
  return { _id: String(doc._id), vendorName: doc.vendorName };
}

/** Renames a vendor (through PUT /v1/vendors/{id} when it exists). */
export async function renameVendor(
  t: TestApp,
  shop: TestShop,
  vendorId: string,
  vendorName: string,
): Promise<void> {
  const res = await t.api.put(`/v1/vendors/${vendorId}`, { vendorName }, { token: shop.token });
  if (res.status === 200) return;
  if (res.status !== 404 || !res.text.includes('Route not found')) {
    throw new Error(`rename vendor failed: ${res.status} ${res.text}`);
  }
  // FALLBACK until PUT /v1/vendors/{id} exists.
  const model = t.app.get<Model<Vendor>>(getModelToken(Vendor.name));
  await model
    .updateOne(
      { shopId: new Types.ObjectId(shop.shopId), _id: new Types.ObjectId(vendorId) },
      { $set: { vendorName } },
    )
    .exec();
}

export interface SeedLine {
  /** Vendor name as the store platform sends it (matched case-insensitively). */
  vendor: string;
  price: number;
  quantity?: number;
  title?: string;
  variantTitle?: string | null;
  sku?: string | null;
}

export interface SeedOrderInput {
  id?: number;
  createdAt: Date;
  financialStatus?: string;
  cancelled?: boolean;
  lines: SeedLine[];
}

export interface SeededOrder {
  orderId: number;
  lineItemIds: number[];
  /** Calculated line item ids, in the order of `lines`. */
  ids: string[];
}

/**
 * An order pushed through the real ingestion path: a signed `orders/create` webhook to
 * POST /webhooks/shopify, processed on the queue, then the calculated line items' ids. Use vendors
 * with a 0% commission when a test needs payout = price × quantity.
 * FALLBACK (only while ingestion is not merged: the webhook route answers 404) stores line items
 * directly with payout = price × quantity.
 */
export async function seedOrder(t: TestApp, shop: TestShop, input: SeedOrderInput): Promise<SeededOrder> {
  const orderId = input.id ?? platformId();
  const lineItemIds = input.lines.map(() => platformId());
  const payload = shopifyOrder({
    id: orderId,
    createdAt: input.createdAt,
    financialStatus: input.financialStatus ?? 'paid',
    cancelledAt: input.cancelled ? input.createdAt : null,
    lineItems: input.lines.map((l, i) => ({
      id: lineItemIds[i],
      vendor: l.vendor,
      price: l.price.toFixed(2),
      quantity: l.quantity ?? 1,
      title: l.title,
      variantTitle: l.variantTitle ?? null,
      sku: l.sku ?? null,
    })),
  });
  const model = t.app.get<Model<LineItem>>(getModelToken(LineItem.name));
  const sent = await sendWebhook(t, shop, 'orders/create', payload);
  if (sent.status === 200) {
    await waitForWebhooks(t, shop, [sent.webhookId]);
  } else if (sent.status === 404) {
    // FALLBACK until POST /webhooks/shopify exists.
    const vendors = t.app.get<Model<Vendor>>(getModelToken(Vendor.name));
    const docs = [];
    for (const [i, l] of input.lines.entries()) {
      const v = await vendors
        .findOne({ shopId: new Types.ObjectId(shop.shopId), vendorName: l.vendor.toLowerCase() })
        .lean<Vendor>()
        .exec();
      const payout = Math.round(l.price * (l.quantity ?? 1) * 100) / 100;
      docs.push({
        shopId: new Types.ObjectId(shop.shopId),
        orderId,
        lineItemId: lineItemIds[i],
        orderName: payload.name,
        orderNumber: payload.order_number,
        orderCreatedAt: input.createdAt,
        financialStatus: input.financialStatus ?? 'paid',
        cancelled: !!input.cancelled,
        shippingAddress: payload.shipping_address,
        billingAddress: payload.billing_address,
        name: payload.line_items[i].name,
        variantTitle: l.variantTitle ?? null,
        sku: l.sku ?? null,
        vendorId: v?._id ?? null,
        vendorName: l.vendor.toLowerCase(),
        price: l.price,
        quantity: l.quantity ?? 1,
        sales: payout,
        salesAfterDiscount: payout,
        payout,
        balance: payout,
      });
    }
    await model.insertMany(docs);
  } else {
    throw new Error(`orders/create webhook answered ${sent.status} ${sent.text}`);
  }
  const rows = await model
    .find({ shopId: new Types.ObjectId(shop.shopId), orderId }, { lineItemId: 1 })
    .lean<Array<{ _id: Types.ObjectId; lineItemId: number }>>()
    .exec();
  const byLine = new Map(rows.map((r) => [r.lineItemId, String(r._id)]));
  const ids = lineItemIds.map((id) => byLine.get(id));
  if (ids.some((id) => !id)) throw new Error(`order ${orderId} was not ingested into line items`);
  return { orderId, lineItemIds, ids: ids as string[] };
}
