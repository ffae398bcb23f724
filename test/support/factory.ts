import { randomBytes } from 'node:crypto';
import { ShopsService } from '../../src/shops/shops.service';
import type { TestApp } from './app';

export interface TestShop {
  shopId: string;
  shopDomain: string;
  apiKey: string;
  webhookSecret: string;
  /** A shop token for v1. */
  token: string;
}

export function uniqueDomain(prefix = 'shop'): string {
  return `${prefix}-${randomBytes(5).toString('hex')}.myshopify.com`;
}

/** Every test file makes its own shops: files run in parallel and never wipe shared data. */
export async function createShop(t: TestApp, prefix?: string): Promise<TestShop> {
  const created = await t.app.get(ShopsService).create({ domain: uniqueDomain(prefix) });
  const res = await t.api.post('/v1/authenticate', {
    apiKey: created.apiKey,
    shopDomain: created.shopDomain,
  });
  if (res.status !== 200) throw new Error(`authenticate failed: ${res.status} ${res.text}`);
  return { ...created, token: res.body.token };
}

export interface TestMerchantKey {
  id: string;
  key: string;
  token: string;
}

export async function createMerchantKey(t: TestApp, shop: TestShop): Promise<TestMerchantKey> {
  const created = await t.api.post('/v1/merchant-keys', {}, { token: shop.token });
  if (created.status !== 200) throw new Error(`merchant key failed: ${created.status} ${created.text}`);
  const auth = await t.api.post('/authenticate', { apiKey: created.body.key });
  if (auth.status !== 200) throw new Error(`merchant authenticate failed: ${auth.status} ${auth.text}`);
  return { id: created.body.id, key: created.body.key, token: auth.body.data.token };
}
