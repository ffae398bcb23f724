import { Logger } from '@nestjs/common';
import type { PlatformConfig } from '../../config/configuration';
import { FULFILLMENT_CLAIM_TTL_MS, FULFILLMENT_DEADLINE_MS } from '../fulfillments.service';
import { SHOPIFY_CALL_TIMEOUT_MS, ShopifyTransport, StorePlatformUnavailable } from './shopify-transport';

const cfg = (over: Partial<PlatformConfig> = {}): PlatformConfig => ({
  encryptionKey: undefined,
  previousEncryptionKey: undefined,
  shopifyApiBaseUrl: undefined,
  shopifyAllowedHosts: [],
  allowPrivateBaseUrl: false,
  ...over,
});
const shop = { shopId: '6740b9f1c2a4e15b3c9d0a10', domain: 'acme.myshopify.com', accessToken: 'shpat_x' };

describe('ShopifyTransport', () => {
  beforeEach(() => jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined));
  afterEach(() => jest.restoreAllMocks());

  it('by default calls https://{domain} only: public addresses, the shop’s own host', () => {
    const t = new ShopifyTransport(cfg());
    expect(t.endpoint('ACME.myshopify.com')).toBe(
      'https://acme.myshopify.com/admin/api/2025-01/graphql.json',
    );
    const p = t.policy('acme.myshopify.com', 5000);
    expect(p).toMatchObject({
      allowHttp: false,
      allowPrivate: false,
      timeoutMs: 5000,
      maxResponseBytes: 1024 * 1024,
    });
    expect(p.allowHost!('acme.myshopify.com')).toBe(true);
    expect(p.allowHost!('other.myshopify.com')).toBe(false);
  });

  it('a configured base URL: only its host; http/private only when allowed (outside production or the flag)', () => {
    const strict = new ShopifyTransport(cfg({ shopifyApiBaseUrl: 'http://127.0.0.1:8080' }));
    expect(strict.policy('acme.myshopify.com', 1)).toMatchObject({ allowHttp: false, allowPrivate: false });
    const dev = new ShopifyTransport(
      cfg({ shopifyApiBaseUrl: 'http://127.0.0.1:8080', allowPrivateBaseUrl: true }),
    );
    const p = dev.policy('acme.myshopify.com', 1);
    expect(p).toMatchObject({ allowHttp: true, allowPrivate: true });
    expect(p.allowHost!('127.0.0.1')).toBe(true);
    expect(p.allowHost!('acme.myshopify.com')).toBe(false);
    const templated = new ShopifyTransport(
      cfg({ shopifyApiBaseUrl: 'https://{shop}/proxy', allowPrivateBaseUrl: true }),
    );
    expect(templated.policy('acme.myshopify.com', 1).allowHost!('acme.myshopify.com')).toBe(true);
  });

  it('refuses a non-platform domain and a spent deadline before sending anything, with an error id', async () => {
    const t = new ShopifyTransport(cfg());
    await expect(t.graphql({ ...shop, domain: '127.0.0.1' }, 'q', {}, undefined)).rejects.toThrow(
      /^The shop domain is not a store-platform domain; nothing was sent \(errorId [0-9a-f-]{36}\)$/,
    );
    await expect(t.graphql(shop, 'q', {}, Date.now() - 1)).rejects.toBeInstanceOf(StorePlatformUnavailable);
    await expect(t.graphql(shop, 'q', {}, Date.now() - 1)).rejects.toThrow(/ran out of time/);
  });

  it('line claims outlive the longest fulfillment request (its deadline plus a last call), with margin', () => {
    // No call starts after the deadline and each is cut to what is left; the margin covers the writes.
    expect(FULFILLMENT_CLAIM_TTL_MS).toBeGreaterThanOrEqual(
      FULFILLMENT_DEADLINE_MS + SHOPIFY_CALL_TIMEOUT_MS + 30_000,
    );
  });
});
