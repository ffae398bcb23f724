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
