import type { TestApp } from '../support/app';
import { createShop, TestShop } from '../support/factory';
import { fromAddress, loopback, startAppWithRealLimits } from './support';

/**
 * Issue 18, item 1: nobody can lock a shop's sign-in out. The app runs with the production limits
 * (20 attempts a minute per address; 5 failures per 15 minutes and 20 a day per account + address;
 * an account under attack after 100 failures an hour); clients are distinct loopback addresses.
 */
describe('security: sign-in limits without lockouts (e2e)', () => {
  let t: TestApp;
  let shop: TestShop;
  const PASSWORD = 'portal-pass-correct-1';
  let n = 0;

  /** Four guessers, 15 wrong attempts each: 60 within the minute, as the issue reproduced. */
  async function sixtyWrongFromFourAddresses(
    first: number,
    send: (client: ReturnType<typeof fromAddress>) => Promise<number>,
  ) {
    const statuses: number[] = [];
    const hosts = [first, first + 1, first + 2, first + 3];
    for (let round = 0; round < 15; round++) {
      for (const host of hosts) statuses.push(await send(fromAddress(t.url, loopback(host))));
    }
    expect(statuses).toHaveLength(60);
    // each guesser: 5 failures (401), then its own wait (429) — never a 5xx
    expect(statuses.filter((s) => s === 401)).toHaveLength(20);
    expect(statuses.filter((s) => s === 429)).toHaveLength(40);
  }

  async function vendorUser(s: TestShop) {
    const v = await t.api.post(
      '/v1/vendors',
      {
        vendorName: `sec signin ${n++} ${Date.now().toString(36)}`,
        commissionType: 'flat',
        commissionAmount: 1,
      },
      { token: s.token },
    );
    const email = `sec-${n++}-${Date.now().toString(36)}@example.com`;
    const u = await t.api.post(
      '/v1/users',
      { vendorId: v.body.vendor._id, email, password: PASSWORD },
      { token: s.token },
    );
    expect(u.status).toBe(200);
    return email;
  }

  beforeAll(async () => {
    t = await startAppWithRealLimits('signin');
    shop = await createShop(t, 'sec-signin');
  });
  afterAll(() => t.close());

  it('60 wrong shop keys from four addresses, then the correct key from a fifth → 200 (was 429)', async () => {
    const s = await createShop(t, 'sec-lock-shop');
    await sixtyWrongFromFourAddresses(
      2,
      async (c) =>
        (await c.post('/v1/authenticate', { apiKey: 'shpk_wrong', shopDomain: s.shopDomain })).status,
    );
    const owner = await fromAddress(t.url, loopback(6)).post('/v1/authenticate', {
      apiKey: s.apiKey,
      shopDomain: s.shopDomain,
    });
    expect(owner.status).toBe(200);
    expect(owner.body.token).toEqual(expect.any(String));
  });

  it('60 wrong vendor passwords from four addresses, then the correct one from a fifth → 200 (was 429)', async () => {
    const email = await vendorUser(shop);
    await sixtyWrongFromFourAddresses(
      82,
      async (c) =>
        (
          await c.post('/v2/vendor/authenticate', {
            shopDomain: shop.shopDomain,
            email,
            password: 'guess-1234',
          })
        ).status,
    );
    const owner = await fromAddress(t.url, loopback(7)).post('/v2/vendor/authenticate', {
      shopDomain: shop.shopDomain,
      email,
      password: PASSWORD,
    });
    expect(owner.status).toBe(200);
    expect(owner.body.data.scope).toBe('vendor');
  });

  it('60 wrong secrets for one merchant key from four addresses, then the key itself from a fifth → 200', async () => {
    const s = await createShop(t, 'sec-lock-mk');
    const created = await t.api.post('/v1/merchant-keys', {}, { token: s.token });
    const key: string = created.body.key;
    const wrong = key.slice(0, -40) + 'x'.repeat(40); // same lookup id, wrong secret
    await sixtyWrongFromFourAddresses(
      92,
      async (c) => (await c.post('/authenticate', { apiKey: wrong })).status,
    );
    const owner = await fromAddress(t.url, loopback(8)).post('/authenticate', { apiKey: key });
    expect(owner.status).toBe(200);
  });

  it('the guesser waits (429 + Retry-After) for that account only; the owner elsewhere gets in', async () => {
    const s = await createShop(t, 'sec-guesser');
    const guesser = fromAddress(t.url, loopback(10));
    const attempt = () =>
      guesser.post('/v1/authenticate', { apiKey: 'shpk_guess', shopDomain: s.shopDomain });
    for (let i = 0; i < 5; i++) expect((await attempt()).status).toBe(401);
    const refused = await attempt();
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: expect.stringContaining('Too many failed sign-in attempts') });
    const retryAfter = Number(refused.headers['retry-after']);
    // the first failure leaves the 15-minute window in just under 15 minutes
    expect(retryAfter).toBeGreaterThan(14 * 60);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    // even the right key from the guessing address waits (else the limit could be probed around)…
    const sameAddress = await guesser.post('/v1/authenticate', {
      apiKey: s.apiKey,
      shopDomain: s.shopDomain,
    });
    expect(sameAddress.status).toBe(429);
    // …while the owner from another address, and the guesser on another account, are not held
    const owner = await fromAddress(t.url, loopback(11)).post('/v1/authenticate', {
      apiKey: s.apiKey,
      shopDomain: s.shopDomain,
    });
    expect(owner.status).toBe(200);
    const otherAccount = await guesser.post('/v1/authenticate', {
      apiKey: shop.apiKey,
      shopDomain: shop.shopDomain,
    });
    expect(otherAccount.status).toBe(200);
  });

  it('a vendor guesser waits after 5 failures; another address signs in with the password', async () => {
    const email = await vendorUser(shop);
    const guesser = fromAddress(t.url, loopback(12));
    const body = { shopDomain: shop.shopDomain, email, password: 'nope-nope-1' };
    for (let i = 0; i < 5; i++)
      expect((await guesser.post('/v2/vendor/authenticate', body)).status).toBe(401);
    const refused = await guesser.post('/v2/vendor/authenticate', { ...body, password: PASSWORD });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ success: false, error: { code: 'RATE_LIMITED' } });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(14 * 60);
    const owner = await fromAddress(t.url, loopback(13)).post('/v2/vendor/authenticate', {
      ...body,
      password: PASSWORD,
    });
    expect(owner.status).toBe(200);
  });

  it('an account under attack (100 failures an hour) gives each address one failure; the owner still gets in', async () => {
    const s = await createShop(t, 'sec-attack');
    const body = { apiKey: 'shpk_wrong', shopDomain: s.shopDomain };
    // 20 addresses × 5 failures = 100
    for (let host = 20; host < 40; host++) {
      const c = fromAddress(t.url, loopback(host));
      for (let i = 0; i < 5; i++) expect((await c.post('/v1/authenticate', body)).status).toBe(401);
    }
    const fresh = fromAddress(t.url, loopback(40));
    expect((await fresh.post('/v1/authenticate', body)).status).toBe(401);
    expect((await fresh.post('/v1/authenticate', body)).status).toBe(429);
    const owner = await fromAddress(t.url, loopback(41)).post('/v1/authenticate', {
      apiKey: s.apiKey,
      shopDomain: s.shopDomain,
    });
    expect(owner.status).toBe(200);
  });

  it('every address of one IPv6 /64 is one client (injected peers: the machine may lack IPv6)', async () => {
    const s = await createShop(t, 'sec-ipv6');
    const fastify = t.app.getHttpAdapter().getInstance();
    const from = (remoteAddress: string, apiKey: string) =>
      fastify.inject({
        method: 'POST',
        url: '/v1/authenticate',
        remoteAddress,
        payload: { apiKey, shopDomain: s.shopDomain },
      });
    // five different addresses of 2001:db8:1:2::/64, one failure each
    for (const host of ['a', 'b', 'c', 'd', 'e'])
      expect((await from(`2001:db8:1:2::${host}`, 'shpk_wrong')).statusCode).toBe(401);
    const sixth = await from('2001:db8:1:2:ffff:ffff:ffff:ffff', 'shpk_wrong');
    expect(sixth.statusCode).toBe(429);
    expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(14 * 60);
    // the next /64 is another client, and the owner there gets in
    expect((await from('2001:db8:1:3::1', s.apiKey)).statusCode).toBe(200);
  });

  it('malformed bodies count for the address only, never for an account', async () => {
    const s = await createShop(t, 'sec-junk');
    const junk = fromAddress(t.url, loopback(50));
    for (let i = 0; i < 8; i++) {
      const res = await junk.post('/v1/authenticate', { shopDomain: s.shopDomain, apiKey: 42 });
      expect(res.status).toBe(422);
    }
    expect((await junk.post('/v1/authenticate', { apiKey: s.apiKey, shopDomain: s.shopDomain })).status).toBe(
      200,
    );
  });

  it('without TRUST_PROXY, X-Forwarded-For does not make a new client: 20 attempts a minute per address', async () => {
    const c = fromAddress(t.url, loopback(60));
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) {
      const res = await c.post(
        '/v1/authenticate',
        { apiKey: 'shpk_x', shopDomain: `nobody-${i}-${process.pid}.myshopify.com` },
        { 'x-forwarded-for': `203.0.113.${i + 1}` },
      );
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 20).every((st) => st === 401)).toBe(true);
    expect(statuses[20]).toBe(429);
  });
});

describe('security: TRUST_PROXY names the proxy whose X-Forwarded-For is believed (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startAppWithRealLimits('proxy', { TRUST_PROXY: '127.0.0.70' });
  });
  afterAll(() => t.close());

  it('clients behind the trusted proxy count apart; the same header from elsewhere is ignored', async () => {
    const proxy = fromAddress(t.url, loopback(70));
    const s = await createShop(t, 'sec-proxy');
    const body = { apiKey: 'shpk_wrong', shopDomain: s.shopDomain };
    // one client behind the proxy uses up its failures for the shop…
    for (let i = 0; i < 5; i++)
      expect((await proxy.post('/v1/authenticate', body, { 'x-forwarded-for': '198.51.100.7' })).status).toBe(
        401,
      );
    expect((await proxy.post('/v1/authenticate', body, { 'x-forwarded-for': '198.51.100.7' })).status).toBe(
      429,
    );
    // …another client behind the same proxy is another address
    const other = await proxy.post(
      '/v1/authenticate',
      { apiKey: s.apiKey, shopDomain: s.shopDomain },
      { 'x-forwarded-for': '198.51.100.8' },
    );
    expect(other.status).toBe(200);
    // an untrusted sender cannot borrow a fresh address by the header: its socket address counts
    const direct = fromAddress(t.url, loopback(71));
    for (let i = 0; i < 5; i++)
      expect(
        (await direct.post('/v1/authenticate', body, { 'x-forwarded-for': `198.51.100.${100 + i}` })).status,
      ).toBe(401);
    expect(
      (await direct.post('/v1/authenticate', body, { 'x-forwarded-for': '198.51.100.200' })).status,
    ).toBe(429);
  });
});
