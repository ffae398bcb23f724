import { getModelToken } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { LineItem } from '../../src/line-items/line-item.schema';
import { Vendor } from '../../src/vendors/vendor.schema';
import type { TestApp } from './app';
import type { TestShop } from './factory';

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
  if (res.status !== 404) throw new Error(`create vendor failed: ${res.status} ${res.text}`);
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
  if (res.status !== 404) throw new Error(`rename vendor failed: ${res.status} ${res.text}`);
  const model = t.app.get<Model<Vendor>>(getModelToken(Vendor.name));
  await model
    .updateOne(
      { shopId: new Types.ObjectId(shop.shopId), _id: new Types.ObjectId(vendorId) },
      { $set: { vendorName } },
    )
    .exec();
}

let orderSeq = 0;

/**
 * FIXTURE: calculated line items stored directly, for tests that run before order ingestion
 * exists. Figures are given, not calculated (balance = payout − paid).
 */
export async function seedLineItems(
  t: TestApp,
  shop: TestShop,
  items: Array<
    Partial<LineItem> & { vendorId: string; vendorName: string; payout: number; orderCreatedAt: Date }
  >,
): Promise<string[]> {
  const model = t.app.get<Model<LineItem>>(getModelToken(LineItem.name));
  const docs = items.map((it) => {
    const orderId = it.orderId ?? 900000 + ++orderSeq;
    return {
      orderName: `#${orderId}`,
      orderNumber: orderId,
      financialStatus: 'paid',
      name: 'Item',
      quantity: 1,
      paid: 0,
      ...it,
      shopId: new Types.ObjectId(shop.shopId),
      vendorId: new Types.ObjectId(it.vendorId),
      orderId,
      lineItemId: it.lineItemId ?? orderId * 10 + 1,
      balance: it.balance ?? it.payout - (it.paid ?? 0),
    };
  });
  const created = await model.insertMany(docs);
  return created.map((d) => String(d._id));
}
