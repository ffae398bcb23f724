import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { CursorRows, CursorWindow } from '../common/pagination';
import { ShopScope } from '../common/tenancy';
import { TenantRepository } from '../database/tenant-repository';
import { LineItem } from './line-item.schema';
import { fulfillmentRowsWhere, NEWEST_ORDER_FIRST } from './line-item-queries';
import { FULFILLMENT_ROW_PROJECTION, FulfillmentRowFilter, FulfillmentRowSource } from './line-item-views';

/** One (fulfillment status, shipment status) group of fulfillment rows. */
export interface FulfillmentCountGroup {
  fulfillmentStatus: string;
  shipmentStatus: string | null;
  count: number;
}

/** A fulfilled row's two times (order placed, fulfilled): what fulfillment stats are computed from. */
export interface FulfillmentTimes {
  orderCreatedAt: Date;
  fulfillment: { createdAt: Date | null } | null;
}

/**
 * The vendor and V2 fulfillment reads (GET /fulfillments, /counts, /stats): the same rows as
 * GET /v1/fulfillments (line items of paid orders), newest order first, a vendor scope narrowed to
 * its own. Every read is served by the (shopId, financialStatus[, vendorId], …) indexes.
 */
@Injectable()
export class FulfillmentReadsRepository extends TenantRepository<LineItem> {
  protected override readonly vendorField = 'vendorId';

  constructor(@InjectModel(LineItem.name) model: Model<LineItem>) {
    super(model);
  }

  page(
    scope: ShopScope,
    filter: FulfillmentRowFilter,
    window: CursorWindow,
  ): Promise<CursorRows<FulfillmentRowSource>> {
    return this.cursorPage<FulfillmentRowSource>(scope, fulfillmentRowsWhere(filter), window, {
      timeField: 'orderCreatedAt',
      projection: FULFILLMENT_ROW_PROJECTION,
    });
  }

  /**
   * Rows per (fulfillment status, shipment status): one aggregation whose `$match` leads with the
   * indexed equality fields. MongoDB serves it from the (shopId, financialStatus[, vendorId],
   * fulfillment.shipmentStatus, fulfillmentStatus, …) index, covered: no document is fetched.
   */
  async counts(scope: ShopScope, filter: FulfillmentRowFilter): Promise<FulfillmentCountGroup[]> {
    const rows = await this.model
      .aggregate<{ _id: { f: string; s: string | null }; n: number }>([
        { $match: this.scoped(scope, fulfillmentRowsWhere(filter)) },
        { $group: { _id: { f: '$fulfillmentStatus', s: '$fulfillment.shipmentStatus' }, n: { $sum: 1 } } },
      ])
      .exec();
    return rows.map((r) => ({
      fulfillmentStatus: r._id.f,
      shipmentStatus: r._id.s ?? null,
      count: r.n,
    }));
  }

  /** The fulfilled rows' order and fulfillment times (two dates each), in the index's order. */
  fulfilledTimes(scope: ShopScope, filter: FulfillmentRowFilter): Promise<FulfillmentTimes[]> {
    return this.model
      .find(this.scoped(scope, fulfillmentRowsWhere({ ...filter, fulfillmentStatus: 'fulfilled' })), {
        _id: 0,
        orderCreatedAt: 1,
        'fulfillment.createdAt': 1,
      })
      .sort(NEWEST_ORDER_FIRST)
      .lean<FulfillmentTimes[]>()
      .exec();
  }

  /** Unfulfilled rows of orders placed before `before`. */
  unfulfilledBefore(scope: ShopScope, filter: FulfillmentRowFilter, before: Date): Promise<number> {
    const at = filter.orderCreatedAt ?? {};
    const upTo = at.$lte && at.$lte < before ? { $lte: at.$lte } : { $lt: before };
    return this.countWhere(
      scope,
      fulfillmentRowsWhere({
        ...filter,
        fulfillmentStatus: 'unfulfilled',
        orderCreatedAt: { ...(at.$gte ? { $gte: at.$gte } : {}), ...upTo },
      }),
    );
  }
}
