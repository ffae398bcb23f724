import { startApp, TestApp } from '../support/app';
import { createMerchantKey, createShop, TestMerchantKey, TestShop } from '../support/factory';

const LIMITS = {
  RATE_LIMIT_SHOP_PER_MINUTE: '6',
  RATE_LIMIT_MERCHANT_PER_MINUTE: '4',
  RATE_LIMIT_VENDOR_PER_MINUTE: '4',
  RATE_LIMIT_SIGN_IN_PER_ADDRESS: '14',
};

/**
 * Rate limits per credential (issue 9), with limits lowered by environment for this file's own app
 * and counters of its own (its own key prefix in Redis), restored afterwards.
 */
describe('rate limits (e2e)', () => {
  let t: TestApp;
  let shop: TestShop;
  let second: TestShop;
  let mk: TestMerchantKey;
  const saved: Record<string, string | undefined> = {};

  beforeAll(async () => {
    for (const k of [...Object.keys(LIMITS), 'QUEUE_PREFIX']) saved[k] = process.env[k];
    Object.assign(process.env, LIMITS, {
      QUEUE_PREFIX: `${saved.QUEUE_PREFIX ?? 'mp-test'}-rl-${process.pid}`,
    });
    t = await startApp();
    shop = await createShop(t, 'rl');
    second = await createShop(t, 'rl-second');
    mk = await createMerchantKey(t, second); // costs one of `second`'s shop-token requests
  });

  afterAll(async () => {
    await t.close();
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });

  it('every authenticated answer carries RateLimit-*; past the limit → 429 with Retry-After ({error} on v1)', async () => {
    const seen: Array<[number, string | null]> = [];
    for (let i = 0; i < 6; i++) {
      const res = await t.api.get('/v1/shop/settings', { token: shop.token });
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-limit')).toBe('6');
      expect(Number(res.headers.get('ratelimit-reset'))).toBeGreaterThanOrEqual(1);
      expect(Number(res.headers.get('ratelimit-reset'))).toBeLessThanOrEqual(60);
      seen.push([res.status, res.headers.get('ratelimit-remaining')]);
    }
    expect(seen.map(([, r]) => r)).toEqual(['5', '4', '3', '2', '1', '0']);
    const refused = await t.api.get('/v1/vendors', { token: shop.token });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: expect.stringContaining('Rate limit') });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    console.log(
      `[rate-limits] shop token: 6 × 200 (remaining ${seen.map(([, r]) => r).join(',')}), then 429 Retry-After ${retryAfter}`,
    );
  });

  it('the limit is per credential: another shop, and a merchant key, count on their own (V2: RATE_LIMITED)', async () => {
    const ok = await t.api.get('/v1/shop/settings', { token: second.token });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('ratelimit-remaining')).toBe('4'); // one request went to creating the key
    for (let i = 0; i < 4; i++) {
      const res = await t.api.get('/v2/vendors?first=1', { token: mk.token });
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-limit')).toBe('4');
    }
    const refused = await t.api.get('/v2/vendors?first=1', { token: mk.token });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ success: false, error: { code: 'RATE_LIMITED' } });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });

  it('sign-in failures count per shop domain and address: that address waits, the owner does not (issue 18)', async () => {
    const domain = `rl-signin-${process.pid}.myshopify.com`;
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await t.api.post('/v1/authenticate', { apiKey: 'shpk_wrong', shopDomain: domain });
      statuses.push(res.status);
      if (res.status === 429) {
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        expect(res.body).toEqual({ error: expect.any(String) });
      }
    }
    // 5 failures per 15 minutes for this shop domain from this address, then its wait
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    // a vendor sign-in at that shop is another account: not held by the shop-key failures
    const v2 = await t.api.post('/v2/vendor/authenticate', {
      shopDomain: domain,
      email: 'a@b.c',
      password: 'x',
    });
    expect(v2.status).toBe(401);
    // another shop is not affected
    const fine = await t.api.post('/v1/authenticate', { apiKey: shop.apiKey, shopDomain: shop.shopDomain });
    expect(fine.status).toBe(200);
    expect(fine.headers.get('ratelimit-limit')).toBeTruthy();
  });

  it('sign-in is limited per client address across shops', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 20 && !statuses.includes(429); i++) {
      const res = await t.api.post('/v1/authenticate', {
        apiKey: 'shpk_wrong',
        shopDomain: `rl-${i}-${process.pid}.myshopify.com`,
      });
      statuses.push(res.status);
      if (res.status === 429) expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    // 14 attempts a minute from this address: the ones before this test, then these
    expect(statuses[statuses.length - 1]).toBe(429);
    expect(statuses.slice(0, -1).every((s) => s === 401)).toBe(true);
  });
});
