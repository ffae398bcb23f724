import type { AuditStamp } from '../audit/audit-record';
import type { AuditTrail } from '../audit/audit-trail.service';
import type { ShopScope } from '../common/tenancy';
import type { SkuAudit, SkuChange } from './sku-commissions.repository';

/**
 * How SKU record writes of a request record their events (the upload, and line item updates that
 * set a cost of goods): `sku_commission.create` with every value, `sku_commission.update` with the
 * changed ones. Null outside a credentialed request.
 */
export function skuAudit(trail: AuditTrail, scope: ShopScope, stamp: AuditStamp | null): SkuAudit | null {
  if (!stamp) return null;
  return {
    stamp,
    eventFor: (c: SkuChange) => {
      const resource = { type: 'sku_commission' as const, id: c._id };
      return c.before === null
        ? trail.created(scope, stamp, 'sku_commission.create', resource, c.after)
        : trail.changed(scope, stamp, 'sku_commission.update', resource, c.before, c.after);
    },
  };
}
