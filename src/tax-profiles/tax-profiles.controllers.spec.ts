import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { VendorScopeGuard } from '../common/auth/auth.guards';
import type { Principal } from '../common/auth/principal';
import { OwnTaxProfileController } from './tax-profiles.controllers';

/** DESIGN §12: the vendor's own profile needs no scope — a vendor token holding none still passes. */
describe('OwnTaxProfileController scopes', () => {
  const guard = new VendorScopeGuard(new Reflector());
  const principal: Principal = {
    kind: 'vendor',
    shopId: '6740c1a2e4b0f15b3c9d0a01',
    shopDomain: 'example.myshopify.com',
    vendorId: '6740c1a2e4b0f15b3c9d0a21',
    userId: '6740c1a2e4b0f15b3c9d0a31',
    permissions: [],
  };
  const ctx = (handler: (...args: never[]) => unknown) =>
    ({
      getHandler: () => handler,
      getClass: () => OwnTaxProfileController,
      switchToHttp: () => ({ getRequest: () => ({ user: principal }) }),
    }) as unknown as ExecutionContext;

  it.each(['get', 'update'] as const)(
    '%s passes the scope guard for a vendor token without scopes',
    (name) => {
      expect(guard.canActivate(ctx(OwnTaxProfileController.prototype[name]))).toBe(true);
    },
  );
});
