import { getModelToken } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { TokenService } from '../../src/auth/token.service';
import { Vendor } from '../../src/vendors/vendor.schema';
import type { TestApp } from './app';
import type { TestShop } from './factory';
export { createVendor } from './payout-fixtures';

/**
 * Vendors' commissions, SKU records and vendor tokens for data-flow tests. Each helper goes through
 * the HTTP API when the vendors/commissions/users endpoints exist; the FALLBACK branches (marked)
 * write directly and exist only until those endpoints are merged.
 */

const routeMissing = (status: number, body: unknown): boolean =>
  status === 404 && JSON.stringify(body ?? '').includes('Route not found');

/** Sets a vendor's commission (PUT /v1/vendors/{id}). */
export async function setVendorCommission(
  t: TestApp,
  shop: TestShop,
  vendorId: string,
  commission: { commissionType: 'percentage' | 'flat'; commissionAmount: number },
): Promise<void> {
  const res = await t.api.put(`/v1/vendors/${vendorId}`, commission, { token: shop.token });
  if (res.status === 200) return;
  if (!routeMissing(res.status, res.body)) throw new Error(`update vendor failed: ${res.status} ${res.text}`);
  // FALLBACK until PUT /v1/vendors/{id} exists.
  await t.app
    .get<Model<Vendor>>(getModelToken(Vendor.name))
    .updateOne(
      { _id: new Types.ObjectId(vendorId), shopId: new Types.ObjectId(shop.shopId) },
      { $set: commission },
    )
    .exec();
}

export interface SkuInput {
  sku: string;
  commissionType?: 'percentage' | 'flat';
  commissionRate?: number;
  costOfGoods?: number;
}

/** Uploads SKU commission records (POST /v1/commissions/sku). */
export async function uploadSkus(t: TestApp, shop: TestShop, skus: SkuInput[]): Promise<void> {
  const res = await t.api.post('/v1/commissions/sku', { skus }, { token: shop.token });
  if (res.status === 200) {
    if (!res.body.success) throw new Error(`SKU upload had errors: ${res.text}`);
    return;
  }
  throw new Error(`SKU upload failed: ${res.status} ${res.text}`);
}

/** The shop's SKU records as GET /v1/commissions/sku shows them. */
export async function listSkus(
  t: TestApp,
  shop: TestShop,
): Promise<
  Array<{
    sku: string;
    costOfGoods: number | null;
    commissionType: string | null;
    commissionAmount: number | null;
  }>
> {
  const res = await t.api.get('/v1/commissions/sku', { token: shop.token });
  if (res.status === 200) return res.body.skus;
  throw new Error(`SKU list failed: ${res.status} ${res.text}`);
}

/**
 * A vendor token: a portal user created with POST /v1/users and signed in at
 * POST /v2/vendor/authenticate; FALLBACK (those endpoints not merged yet): a token issued directly.
 */
export async function vendorToken(t: TestApp, shop: TestShop, vendorId: string): Promise<string> {
  const email = `vendor-${vendorId}@example.com`;
  const password = 'correct-horse-battery-staple';
  const created = await t.api.post('/v1/users', { vendorId, email, password }, { token: shop.token });
  if (created.status === 200) {
    const auth = await t.api.post('/v2/vendor/authenticate', {
      shopDomain: shop.shopDomain,
      email,
      password,
    });
    if (auth.status !== 200) throw new Error(`vendor sign-in failed: ${auth.status} ${auth.text}`);
    return auth.body.data.token;
  }
  if (!routeMissing(created.status, created.body))
    throw new Error(`create user failed: ${created.status} ${created.text}`);
  return t.app.get(TokenService).issue({
    kind: 'vendor',
    shopId: shop.shopId,
    shopDomain: shop.shopDomain,
    vendorId,
    userId: new Types.ObjectId().toHexString(),
  }).token;
}
