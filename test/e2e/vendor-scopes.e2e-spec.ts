import { VENDOR_SCOPES, type VendorScope } from '../../src/common/auth/scopes';
import { startApp, TestApp } from '../support/app';
import { createShop, TestShop } from '../support/factory';
import { createKeysVendor, portalUserToken, vendorKeyToken } from '../support/vendor-keys';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
interface Row {
  method: Method;
  /** The OpenAPI path template (as in /docs/v2.json). */
  path: string;
  scope: VendorScope;
  body?: object;
}

const ID = '0000000000000000000000aa'; // a well-formed id nobody has: 404 past the scope check
const TRACK = { trackingNumber: 'SC-1', shippingCarrier: 'UPS', trackingUrl: 'https://ups.example/SC-1' };
const both = (method: Method, path: string, scope: VendorScope, body?: object): Row[] => [
  { method, path, scope, body },
  { method, path: `/v2${path}`, scope, body },
];

/** Every vendor-surface operation that names a scope (x-required-scope): adding a route is one row. */
const TABLE: Row[] = [
  ...both('GET', '/orders', 'orders:read'),
  ...both('GET', '/orders/counts', 'orders:read'),
  ...both('GET', '/orders/{id}', 'orders:read'),
  ...both('GET', '/orders/{id}/timeline', 'orders:read'),
  ...both('POST', '/orders/{id}/timeline', 'orders:write', { message: 'scope check' }),
  ...both('GET', '/products', 'products:read'),
  ...both('GET', '/products/counts', 'products:read'),
  ...both('GET', '/products/{id}', 'products:read'),
  ...both('GET', '/payouts/summary', 'payouts:read'),
  ...both('GET', '/payouts/transactions', 'payouts:read'),
  ...both('GET', '/payouts/settings', 'payouts:read'),
  { method: 'GET', path: '/v2/payouts', scope: 'payouts:read' },
  { method: 'GET', path: '/v2/balance', scope: 'payouts:read' },
  { method: 'GET', path: '/v2/payouts/batches/{id}/statement', scope: 'payouts:read' },
  ...both('GET', '/fulfillments', 'fulfillments:read'),
  ...both('GET', '/fulfillments/counts', 'fulfillments:read'),
  ...both('GET', '/fulfillments/stats', 'fulfillments:read'),
  ...both('GET', '/fulfillments/events/{lineItemId}', 'fulfillments:read'),
  ...both('POST', '/fulfillments', 'fulfillments:write', { lineItemIds: [ID], ...TRACK }),
  ...both('PUT', '/fulfillments/{lineItemId}', 'fulfillments:write', { trackingNumber: 'SC-2' }),
  ...both('DELETE', '/fulfillments/{lineItemId}', 'fulfillments:write'),
  ...both('POST', '/fulfillments/events/{lineItemId}', 'fulfillments:write', { status: 'in_transit' }),
  ...both('POST', '/fulfillments/events/bulk', 'fulfillments:write', {
    events: [{ lineItemId: ID, status: 'in_transit' }],
  }),
];

const key = (method: string, path: string) => `${method.toUpperCase()} ${path}`;
const concrete = (path: string) => path.replace(/\{[^}]+\}/g, ID);

/**
 * The scope table (DESIGN §12): each scoped vendor route refuses a vendor token that lacks its scope
 * (403 "Insufficient scope"), from a key and from a portal user, and lets one holding only that scope
 * past the check. The table is checked against the OpenAPI documents so it cannot go stale.
 */
describe('vendor scopes: every scoped route (e2e)', () => {
  let t: TestApp;
  let shop: TestShop;
  let vendorId: string;
  const without = new Map<VendorScope, string>(); // a key with every scope but this one
  const only = new Map<VendorScope, string>(); // a key with this scope alone
  const userWithout = new Map<VendorScope, string>(); // a portal user without this scope

  const call = (row: Row, token: string) => {
    const path = concrete(row.path);
    const m = row.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
    if (m === 'get' || m === 'delete') return t.api[m](path, { token });
    return t.api[m](path, row.body ?? {}, { token });
  };

  beforeAll(async () => {
    t = await startApp();
    shop = await createShop(t, 'vsc');
    vendorId = await createKeysVendor(t, shop);
    for (const s of VENDOR_SCOPES) {
      const rest = VENDOR_SCOPES.filter((x) => x !== s);
      without.set(s, (await vendorKeyToken(t, shop, vendorId, rest)).token);
      only.set(s, (await vendorKeyToken(t, shop, vendorId, [s])).token);
      userWithout.set(s, (await portalUserToken(t, shop, vendorId, rest)).token);
    }
  });
  afterAll(() => t.close());

  it('the table names every operation of the OpenAPI documents that carries x-required-scope, with its scope', async () => {
    const documented = new Map<string, string>();
    for (const doc of ['/docs/v1.json', '/docs/v2.json']) {
      const res = await t.api.get(doc);
      expect(res.status).toBe(200);
      for (const [path, item] of Object.entries(
        res.body.paths as Record<string, Record<string, Record<string, unknown>>>,
      )) {
        for (const [method, op] of Object.entries(item)) {
          if (op && typeof op === 'object' && typeof op['x-required-scope'] === 'string') {
            documented.set(key(method, path), op['x-required-scope'] as string);
          }
        }
      }
    }
    const tabled = new Map(TABLE.map((r) => [key(r.method, r.path), r.scope as string]));
    expect([...documented.entries()].sort()).toEqual([...tabled.entries()].sort());
  });

  it.each(TABLE.map((r) => [key(r.method, r.path), r] as const))(
    '%s: a key or portal user without the scope → 403, a key with only it → past the check',
    async (_name, row) => {
      for (const token of [without.get(row.scope)!, userWithout.get(row.scope)!]) {
        const res = await call(row, token);
        expect([row.path, res.status, res.body?.error?.message]).toEqual([
          row.path,
          403,
          'Insufficient scope',
        ]);
        expect(res.body.error.code).toBe('FORBIDDEN');
      }
      const ok = await call(row, only.get(row.scope)!);
      expect([row.path, ok.status]).not.toEqual([row.path, 403]);
      expect(ok.status).not.toBe(401);
      expect(ok.status).toBeLessThan(500);
    },
  );

  it('routes DESIGN §12 leaves unscoped let a key with no relevant scope through', async () => {
    const token = only.get('orders:read')!; // nothing about dashboards, profile or payout methods
    for (const path of ['/dashboard', '/vendors/me/tax-profile', '/payout-method']) {
      const res = await t.api.get(path, { token });
      expect([path, res.status]).not.toEqual([path, 403]);
      expect([path, res.status]).not.toEqual([path, 401]);
    }
    // the portal user's own API keys: no scope either (a key's token is refused there by design)
    const user = (await portalUserToken(t, shop, vendorId, ['orders:read'])).token;
    const keys = await t.api.get('/settings/api-keys', { token: user });
    expect(keys.status).toBe(200);
  });
});
