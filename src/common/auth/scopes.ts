import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';

/**
 * The scopes of the vendor surface (DESIGN §12). A vendor API key carries one or more; a portal
 * user carries `permissions` (users created before permissions existed hold all of them).
 */
export const VENDOR_SCOPES = [
  'orders:read',
  'orders:write',
  'products:read',
  'fulfillments:read',
  'fulfillments:write',
  'payouts:read',
] as const;
export type VendorScope = (typeof VENDOR_SCOPES)[number];

export const REQUIRED_SCOPE = 'auth:required-scope';
/** The OpenAPI extension naming the scope a vendor token needs on an operation. */
export const REQUIRED_SCOPE_EXTENSION = 'x-required-scope';

export function isVendorScope(value: unknown): value is VendorScope {
  return typeof value === 'string' && (VENDOR_SCOPES as readonly string[]).includes(value);
}

/**
 * The scope a vendor token needs on this operation (shop tokens are not scoped). Checked by
 * VendorScopeGuard, which every V1Auth/V2Auth route runs after the credential-kind check; a vendor
 * token without it → 403 FORBIDDEN "Insufficient scope". Documented as `x-required-scope`.
 */
export const RequireScope = (scope: VendorScope) =>
  applyDecorators(SetMetadata(REQUIRED_SCOPE, scope), ApiExtension(REQUIRED_SCOPE_EXTENSION, scope));
