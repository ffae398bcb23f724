import { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { VendorScopeGuard } from '../common/auth/auth.guards';
import type { Principal } from '../common/auth/principal';
import { REQUIRED_SCOPE, VENDOR_SCOPES, type VendorScope } from '../common/auth/scopes';
import { ForbiddenError } from '../common/errors';
import { OrderTimelineV2Controller } from './order-timeline.v2.controller';
import { OrderViewsV2Controller } from './order-views.v2.controller';
import { OrdersV2Controller } from './orders.v2.controller';

/** Every vendor-reachable order route names its scope, and a vendor token without it is refused. */
const ROUTES: Array<[string, object, string, VendorScope]> = [
  ['GET /v2/orders', OrdersV2Controller, 'list', 'orders:read'],
  ['GET /orders', OrdersV2Controller, 'vendorList', 'orders:read'],
  ['GET /orders/counts', OrderViewsV2Controller, 'counts', 'orders:read'],
  ['GET /orders/{id}', OrderViewsV2Controller, 'detail', 'orders:read'],
  ['GET /orders/{id}/timeline', OrderTimelineV2Controller, 'timeline', 'orders:read'],
  ['POST /orders/{id}/timeline', OrderTimelineV2Controller, 'addNote', 'orders:write'],
];

function contextFor(controller: object, method: string, user: Principal): ExecutionContext {
  const proto = (controller as { prototype: Record<string, () => unknown> }).prototype;
  return {
    getHandler: () => proto[method],
    getClass: () => controller,
    switchToHttp: () => ({ getRequest: () => ({ user }) }),
  } as unknown as ExecutionContext;
}

const vendor = (permissions?: VendorScope[]): Principal => ({
  kind: 'vendor',
  shopId: 'shop',
  shopDomain: 'shop.example',
  vendorId: 'v',
  userId: 'u',
  permissions,
});

describe('order routes: vendor scopes', () => {
  const guard = new VendorScopeGuard(new Reflector());

  it.each(ROUTES)('%s requires %4$s', (_name, controller, method, scope) => {
    const proto = (controller as { prototype: Record<string, () => unknown> }).prototype;
    expect(Reflect.getMetadata(REQUIRED_SCOPE, proto[method])).toBe(scope);
    const others = VENDOR_SCOPES.filter((s) => s !== scope);
    expect(() => guard.canActivate(contextFor(controller, method, vendor(others)))).toThrow(ForbiddenError);
    expect(() => guard.canActivate(contextFor(controller, method, vendor(others)))).toThrow(
      'Insufficient scope',
    );
    expect(guard.canActivate(contextFor(controller, method, vendor([scope])))).toBe(true);
    // shop tokens are not scoped
    const shop: Principal = { kind: 'shop', shopId: 'shop', shopDomain: 'shop.example', permissions: [] };
    expect(guard.canActivate(contextFor(controller, method, shop))).toBe(true);
  });
});
