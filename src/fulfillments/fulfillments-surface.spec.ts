import { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { CREDENTIAL_KINDS, VendorScopeGuard } from '../common/auth/auth.guards';
import type { Principal } from '../common/auth/principal';
import { REQUIRED_SCOPE, VendorScope } from '../common/auth/scopes';
import { ForbiddenError } from '../common/errors';
import { fromAudit } from '../event-port/event-catalogue';
import { isRetryable, markRetryable } from '../idempotency/retryable-answer';
import { FulfillmentReadsV2Controller } from './fulfillment-reads.v2.controller';
import { FulfillmentsV2Controller } from './fulfillments.v2.controller';
import { ShipmentEventsV2Controller } from './shipment-events.v2.controller';

/** Every route of the vendor fulfillment surface, with the scope a vendor token needs on it. */
const ROUTES: Array<[string, object, string, VendorScope]> = [
  ['POST /fulfillments', FulfillmentsV2Controller.prototype, 'create', 'fulfillments:write'],
  ['PUT /fulfillments/{id}', FulfillmentsV2Controller.prototype, 'update', 'fulfillments:write'],
  ['DELETE /fulfillments/{id}', FulfillmentsV2Controller.prototype, 'cancel', 'fulfillments:write'],
  ['GET /fulfillments', FulfillmentReadsV2Controller.prototype, 'list', 'fulfillments:read'],
  ['GET /fulfillments/counts', FulfillmentReadsV2Controller.prototype, 'counts', 'fulfillments:read'],
  ['GET /fulfillments/stats', FulfillmentReadsV2Controller.prototype, 'stats', 'fulfillments:read'],
  ['POST /fulfillments/events/bulk', ShipmentEventsV2Controller.prototype, 'bulk', 'fulfillments:write'],
  ['POST /fulfillments/events/{id}', ShipmentEventsV2Controller.prototype, 'record', 'fulfillments:write'],
  ['GET /fulfillments/events/{id}', ShipmentEventsV2Controller.prototype, 'list', 'fulfillments:read'],
];

function context(handler: object, user: Principal): ExecutionContext {
  return {
    getHandler: () => handler,
    getClass: () => Object,
    switchToHttp: () => ({ getRequest: () => ({ user }) }),
  } as unknown as ExecutionContext;
}

const vendor = (permissions?: VendorScope[]): Principal => ({
  kind: 'vendor',
  shopId: '6740b9f1c2a4e15b3c9d0a10',
  shopDomain: 'acme.myshopify.com',
  vendorId: '6740b9f1c2a4e15b3c9d0a21',
  userId: '6740b9f1c2a4e15b3c9d0a22',
  permissions,
});

describe('vendor fulfillment surface: credentials and scopes', () => {
  const guard = new VendorScopeGuard(new Reflector());

  it.each(ROUTES)('%s needs a shop or vendor token, and the route’s scope', (_, proto, name, scope) => {
    const handler = (proto as Record<string, object>)[name];
    expect(Reflect.getMetadata(REQUIRED_SCOPE, handler)).toBe(scope);
    expect(Reflect.getMetadata(CREDENTIAL_KINDS, handler)).toEqual(['shop', 'vendor']);
  });

  it.each(ROUTES)(
    '%s: a vendor token without its scope → 403 "Insufficient scope"',
    (_, proto, name, scope) => {
      const handler = (proto as Record<string, object>)[name];
      const other: VendorScope = scope === 'fulfillments:read' ? 'fulfillments:write' : 'fulfillments:read';
      expect(() => guard.canActivate(context(handler, vendor(['orders:read', other])))).toThrow(
        new ForbiddenError('Insufficient scope'),
      );
      expect(guard.canActivate(context(handler, vendor([scope])))).toBe(true);
      expect(guard.canActivate(context(handler, vendor(undefined)))).toBe(true);
      expect(guard.canActivate(context(handler, { ...vendor([]), kind: 'shop', vendorId: undefined }))).toBe(
        true,
      );
    },
  );
});

describe('fulfillment events and retryable answers', () => {
  it('tracking changes and cancels report fulfillment.updated and fulfillment.cancelled', () => {
    expect(fromAudit({ action: 'line_item.fulfill', after: {} })).toBe('fulfillment.created');
    expect(fromAudit({ action: 'line_item.fulfillment.update', after: {} })).toBe('fulfillment.updated');
    expect(fromAudit({ action: 'line_item.fulfillment.cancel', after: {} })).toBe('fulfillment.cancelled');
  });

  it('a retryable answer is marked without changing its JSON', () => {
    const body = { fulfillments: [{ type: 'error', lineItemId: 'x', message: 'down' }] };
    expect(isRetryable(body)).toBe(false);
    const marked = markRetryable({ ...body });
    expect(isRetryable(marked)).toBe(true);
    expect(JSON.stringify(marked)).toBe(JSON.stringify(body));
    expect(isRetryable(null)).toBe(false);
  });
});
