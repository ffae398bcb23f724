import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { VendorScopeGuard } from '../common/auth/auth.guards';
import type { Principal } from '../common/auth/principal';
import { REQUIRED_SCOPE, type VendorScope } from '../common/auth/scopes';
import { ForbiddenError } from '../common/errors';
import { VendorPayoutsV2Controller } from '../payouts/vendor-payouts.v2.controller';
import { ProductsV2Controller } from '../products/products.v2.controller';
import { DashboardsController } from './dashboards.controller';

// Until vendor API keys land (a token holding some scopes only), the scope of each route of this
// branch is proven here: the metadata the guard reads, and the guard's answer to a vendor token
// without the scope, with it, and to a token of another kind.

type Handler = (...args: never[]) => unknown;
const routes: Array<[string, Handler, VendorScope | undefined]> = [
  ['GET /products, /v2/products', ProductsV2Controller.prototype.vendorList, 'products:read'],
  ['GET /v2/products (shop or vendor)', ProductsV2Controller.prototype.list, 'products:read'],
  ['GET /products/counts', ProductsV2Controller.prototype.counts, 'products:read'],
  ['GET /products/{id}', ProductsV2Controller.prototype.vendorGet, 'products:read'],
  ['GET /v2/products/{id}', ProductsV2Controller.prototype.get, 'products:read'],
  ['GET /payouts/summary', VendorPayoutsV2Controller.prototype.summary, 'payouts:read'],
  ['GET /payouts/transactions', VendorPayoutsV2Controller.prototype.transactions, 'payouts:read'],
  ['GET /dashboard (no scope needed)', DashboardsController.prototype.vendor, undefined],
];

function context(handler: Handler, user: Principal): ExecutionContext {
  return {
    getHandler: () => handler,
    getClass: () => Object,
    switchToHttp: () => ({ getRequest: () => ({ user }) }),
  } as unknown as ExecutionContext;
}

const vendor = (permissions?: VendorScope[]): Principal => ({
  kind: 'vendor',
  shopId: 's',
  shopDomain: 'd',
  vendorId: 'v',
  permissions,
});

describe('vendor surface scopes (products, payouts, dashboard)', () => {
  const guard = new VendorScopeGuard(new Reflector());

  it.each(routes)('%s requires %s', (_name, handler, scope) => {
    expect(Reflect.getMetadata(REQUIRED_SCOPE, handler)).toBe(scope);
  });

  it.each(routes.filter(([, , s]) => s))(
    '%s: a vendor token without %s → 403 Insufficient scope',
    (_n, handler, scope) => {
      const others = (
        ['orders:read', 'fulfillments:read', 'products:read', 'payouts:read'] as VendorScope[]
      ).filter((s) => s !== scope);
      expect(() => guard.canActivate(context(handler, vendor(others)))).toThrow(ForbiddenError);
      expect(() => guard.canActivate(context(handler, vendor(others)))).toThrow('Insufficient scope');
      expect(guard.canActivate(context(handler, vendor([scope!])))).toBe(true);
      expect(guard.canActivate(context(handler, vendor(undefined)))).toBe(true);
      expect(guard.canActivate(context(handler, { kind: 'shop', shopId: 's', shopDomain: 'd' }))).toBe(true);
    },
  );

  it('the dashboard admits a vendor token with no scope at all', () => {
    expect(guard.canActivate(context(DashboardsController.prototype.vendor, vendor([])))).toBe(true);
  });
});
