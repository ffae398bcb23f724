import { Injectable } from '@nestjs/common';
import { Types } from 'mongoose';
import { toPayoutAdjustmentResponse } from '../adjustments/payout-adjustment.mapper';
import { PayoutAdjustmentsRepository } from '../adjustments/payout-adjustments.repository';
import type { AuditRecord } from '../audit/audit-record';
import { NotFoundError } from '../common/errors';
import type { ShopScope } from '../common/tenancy';
import { toLineItemResponse } from '../line-items/line-item.mapper';
import { LineItemsRepository } from '../line-items/line-items.repository';
import { UsersService } from '../users/users.service';
import { VendorsService } from '../vendors/vendors.service';
import { VendorApiKeysService } from '../vendor-keys/vendor-api-keys.service';
import type { EventType } from '../event-port/event-catalogue';

/**
 * `data.object` of an event reported by an audit record: the public v1 representation of the
 * resource as its GET returns it, read right after the write (by the request that made it, or by
 * the repair job after a crash; the event is stored once, so whichever stores it first fixes its
 * body). A deletion carries what the DELETE answered: `{_id, deleted: true}`.
 */
@Injectable()
export class EventObjects {
  constructor(
    private readonly vendors: VendorsService,
    private readonly users: UsersService,
    private readonly adjustments: PayoutAdjustmentsRepository,
    private readonly lineItems: LineItemsRepository,
    private readonly vendorKeys: VendorApiKeysService,
  ) {}

  async render(scope: ShopScope, type: EventType, record: AuditRecord): Promise<Record<string, unknown>> {
    const id = record.resource.id;
    if (type.endsWith('.deleted')) return { _id: id, deleted: true };
    try {
      switch (record.resource.type) {
        case 'vendor':
          return { ...(await this.vendors.get(scope, id)) };
        case 'user':
          return { ...(await this.users.get(scope, id)) };
        case 'vendor_api_key':
          return { ...(await this.vendorKeys.get(scope, id)) };
        case 'payout_adjustment': {
          const a = await this.adjustments.findById(scope, id);
          if (!a) throw new NotFoundError('Payout adjustment');
          return { ...toPayoutAdjustmentResponse(a) };
        }
        case 'line_item': {
          const [l] = await this.lineItems.findByIds(scope, [new Types.ObjectId(id)]);
          if (!l) throw new NotFoundError('Line item');
          return { ...toLineItemResponse(l) };
        }
        default:
          return { _id: id };
      }
    } catch (err) {
      // Gone since (a later delete): the event still tells what happened to which resource.
      if (err instanceof NotFoundError) return { _id: id, deleted: true };
      throw err;
    }
  }
}
