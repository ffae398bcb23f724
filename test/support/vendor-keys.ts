import type { VendorScope } from '../../src/common/auth/scopes';
import type { TestApp } from './app';
import type { TestShop } from './factory';

export interface TestVendorKey {
  /** The key's id (for DELETE /v1/vendors/{vendorId}/api-keys/{id}). */
  id: string;
  /** The full `vk_live_…` key. */
  key: string;
  /** A vendor token minted from it at POST /authenticate. */
  token: string;
}

/**
 * A vendor API key of `vendorId` with exactly `scopes` (created with the shop token), and a vendor
 * token minted from it: the way to call a vendor route with (or without) a given scope.
 */
export async function vendorKeyToken(
  t: TestApp,
  shop: TestShop,
  vendorId: string,
  scopes: VendorScope[],
  name?: string,
): Promise<TestVendorKey> {
  const created = await t.api.post(
    `/v1/vendors/${vendorId}/api-keys`,
    { scopes, ...(name ? { name } : {}) },
    { token: shop.token },
  );
  if (created.status !== 201) throw new Error(`vendor key failed: ${created.status} ${created.text}`);
  const auth = await t.api.post('/authenticate', { apiKey: created.body.key });
  if (auth.status !== 200) throw new Error(`vendor key authenticate failed: ${auth.status} ${auth.text}`);
  return { id: created.body.id, key: created.body.key, token: auth.body.data.token };
}

let seq = 0;
const unique = () => `${Date.now().toString(36)}-${seq++}`;

/** A fresh vendor of the shop (flat commission 1); its id. */
export async function createKeysVendor(t: TestApp, shop: TestShop): Promise<string> {
  const v = await t.api.post(
    '/v1/vendors',
    { vendorName: `keys ${unique()}`, commissionType: 'flat', commissionAmount: 1 },
    { token: shop.token },
  );
  if (v.status !== 200) throw new Error(`vendor failed: ${v.status} ${v.text}`);
  return v.body.vendor._id;
}

/** A portal user of the vendor (POST /v2/users, with `permissions` when given) and its vendor token. */
export async function portalUserToken(
  t: TestApp,
  shop: TestShop,
  vendorId: string,
  permissions?: VendorScope[],
): Promise<{ id: string; token: string }> {
  const email = `keys-${unique()}@example.com`;
  const password = 'vendor-portal-pass';
  const u = await t.api.post(
    '/v2/users',
    { vendorId, email, password, ...(permissions ? { permissions } : {}) },
    { token: shop.token },
  );
  if (u.status !== 201) throw new Error(`user failed: ${u.status} ${u.text}`);
  const s = await t.api.post('/v2/vendor/authenticate', { shopDomain: shop.shopDomain, email, password });
  if (s.status !== 200) throw new Error(`vendor sign-in failed: ${s.status} ${s.text}`);
  return { id: u.body.data._id, token: s.body.data.token };
}
