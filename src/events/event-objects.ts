import { Injectable } from '@nestjs/common';
import { Types } from 'mongoose';
import { CommissionRulesService } from '../commissions/commission-rules.service';
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
    private readonly rules: CommissionRulesService,
    private readonly vendorKeys: VendorApiKeysService,
  ) {}

  /**
   * The objects of several records of one shop, in their order: line items are read together in one
   * query (a fulfillment of 100 lines reports 100 events), the other resources one by one.
   */
  async renderAll(
    scope: ShopScope,
    items: Array<{ type: EventType; record: AuditRecord }>,
  ): Promise<Array<Record<string, unknown>>> {
    const isLine = (i: { type: EventType; record: AuditRecord }) =>
      i.record.resource.type === 'line_item' && !i.type.endsWith('.deleted');
    const ids = [...new Set(items.filter(isLine).map((i) => i.record.resource.id))];
    const lines = new Map(
      (
        await this.lineItems.findByIds(
          scope,
          ids.map((id) => new Types.ObjectId(id)),
        )
      ).map((l) => [String(l._id), l]),
    );
    const out: Array<Record<string, unknown>> = [];
    for (const i of items) {
      if (!isLine(i)) {
        out.push(await this.render(scope, i.type, i.record));
        continue;
      }
      const l = lines.get(i.record.resource.id);
      // Gone since (a later delete): the event still tells what happened to which resource.
      out.push(l ? { ...toLineItemResponse(l) } : { _id: i.record.resource.id, deleted: true });
    }
    return out;
  }

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
        case 'commission_rule':
          return { ...(await this.rules.get(scope, id)) };
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
