import { statSync } from 'node:fs';
import { JwtService } from '@nestjs/jwt';
import { authConfig, AuthConfig, databaseConfig } from '../../src/config/configuration';
import { CommandObserver } from '../../src/database/command-observer';
import { ShopsService } from '../../src/shops/shops.service';
import { startApp, TestApp } from '../support/app';
import { vendorToken } from '../support/catalog';
import { createMerchantKey, createShop, TestShop } from '../support/factory';
import { createVendor } from '../support/payout-fixtures';

const claims = (shop: TestShop) => ({ sid: shop.shopId, dom: shop.shopDomain, kv: 0 });
const forge = (shop: TestShop, secret: string, kind = 'shop') =>
  new JwtService().sign(claims(shop), {
    secret,
    algorithm: 'HS256',
    issuer: 'marketplace-admin-api',
    audience: `marketplace:${kind}`,
    subject: shop.shopId,
    expiresIn: 3600,
  });

describe('credentials bound to their keys (e2e)', () => {
  let t: TestApp;
  let shop: TestShop;
  let observer: CommandObserver;

  beforeAll(async () => {
    // The command observer on: the credential check's database cost is measured per request.
    const db = { ...databaseConfig(), captureCommands: true };
    t = await startApp((b) => b.overrideProvider(databaseConfig.KEY).useValue(db));
    observer = t.app.get(CommandObserver);
    shop = await createShop(t, 'cred');
  });
  afterAll(() => t.close());

  describe('no built-in JWT secret', () => {
    it('without JWT_SECRET this installation uses its own generated secret, kept 0600 under the data dir', () => {
      expect(process.env.JWT_SECRET).toBeUndefined();
      const cfg = t.app.get<AuthConfig>(authConfig.KEY);
      expect(cfg.generatedSecretFile).toMatch(/jwt-secret$/);
      expect(statSync(cfg.generatedSecretFile!).mode & 0o777).toBe(0o600);
      expect(cfg.jwtSecret.length).toBeGreaterThanOrEqual(32);
    });

    it.each([
      ['the former built-in development secret', 'insecure-development-jwt-secret-do-not-use-in-production'],
      ['"secret"', 'secret'],
      ['a 64-character string', 'x'.repeat(64)],
    ])('refuses a token signed with %s (v1 and V2)', async (_name, secret) => {
      const v1 = await t.api.get('/v1/merchant-keys', { token: forge(shop, secret) });
      expect(v1.status).toBe(401);
      expect(v1.body).toEqual({ error: 'Invalid access token' });
      const v2 = await t.api.get('/v2/orders', { token: forge(shop, secret) });
      expect(v2.status).toBe(401);
      expect(v2.body).toMatchObject({ success: false, error: { code: 'UNAUTHORIZED' } });
    });

    it('accepts the same claims signed with the installation secret (the forgery is the only difference)', async () => {
      const genuine = forge(shop, t.app.get<AuthConfig>(authConfig.KEY).jwtSecret);
      expect((await t.api.get('/v1/merchant-keys', { token: genuine })).status).toBe(200);
    });
  });

  describe('shop key rotation', () => {
    it('a shop token carries its key version; after shop:rotate-key it is refused and cannot be refreshed', async () => {
      const s = await createShop(t, 'cred-rotate');
      const payload = JSON.parse(Buffer.from(s.token.split('.')[1], 'base64url').toString());
      expect(payload.kv).toBe(0);
      const refreshed = await t.api.post('/v1/refresh-token', undefined, { token: s.token });
      expect(refreshed.status).toBe(200);

      const rotated = await t.app.get(ShopsService).rotateApiKey(s.shopDomain);
      for (const token of [s.token, refreshed.body.token]) {
        const res = await t.api.get('/v1/merchant-keys', { token });
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ error: expect.stringContaining('rotated') });
        expect((await t.api.post('/v1/refresh-token', undefined, { token })).status).toBe(401);
      }
      expect(
        (await t.api.post('/v1/authenticate', { apiKey: s.apiKey, shopDomain: s.shopDomain })).status,
      ).toBe(401);
      const fresh = await t.api.post('/v1/authenticate', {
        apiKey: rotated.apiKey,
        shopDomain: s.shopDomain,
      });
      expect(fresh.status).toBe(200);
      expect(JSON.parse(Buffer.from(fresh.body.token.split('.')[1], 'base64url').toString()).kv).toBe(1);
      expect((await t.api.get('/v1/merchant-keys', { token: fresh.body.token })).status).toBe(200);
    });
  });

  describe('one database command per credential check, no cache', () => {
    const cost = async (path: string, token: string, method = 'GET') => {
      const res = await t.api.request(method, path, undefined, { token });
      return { status: res.status, cost: observer.costOf(res.headers.get('x-request-id')!) };
    };

    it('shop, merchant and vendor tokens each cost at most one lookup in the auth phase', async () => {
      const s = await createShop(t, 'cred-cost');
      const mk = await createMerchantKey(t, s);
      const vendor = await createVendor(t, s, 'Cost Vendor', {
        commissionType: 'percentage',
        commissionAmount: 5,
      });
      const vt = await vendorToken(t, s, vendor._id);
      for (const [path, token, method] of [
        ['/v1/merchant-keys', s.token, 'GET'],
        ['/v2/vendors', mk.token, 'GET'],
        ['/refresh-token', mk.token, 'POST'],
        ['/v2/orders', vt, 'GET'],
        ['/refresh-token', vt, 'POST'],
        ['/v1/refresh-token', s.token, 'POST'],
      ] as const) {
        const r = await cost(path, token, method);
        expect([200, 201]).toContain(r.status);
        expect({ path, token: r.cost.authCommands }).toEqual({ path, token: 1 });
      }
    });

    it('a revoked merchant key is refused on the very next request', async () => {
      const s = await createShop(t, 'cred-revoke');
      const mk = await createMerchantKey(t, s);
      expect((await t.api.get('/v2/vendors', { token: mk.token })).status).toBe(200);
      expect((await t.api.delete(`/v1/merchant-keys/${mk.id}`, { token: s.token })).status).toBe(200);
      expect((await t.api.get('/v2/vendors', { token: mk.token })).status).toBe(401);
    });
  });
});
