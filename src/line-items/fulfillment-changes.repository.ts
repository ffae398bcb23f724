import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { ModelOutbox, withOutbox } from '../audit/audit-outbox';
import type { AuditRecord, AuditStamp } from '../audit/audit-record';
import { ShopScope, shopScope } from '../common/tenancy';
import { chunkedBulkWrite } from '../database/bulk-write';
import { anyOf } from '../database/query-filters';
import { TenantRepository } from '../database/tenant-repository';
import { LineItem, LineItemFulfillment } from './line-item.schema';

/** A fulfilled line as a tracking change, a cancel or a shipment event needs it. */
export type FulfilledLine = Pick<
  LineItem,
  '_id' | 'orderId' | 'lineItemId' | 'vendorId' | 'fulfillmentStatus' | 'fulfillment'
>;
const FULFILLED_LINE = { orderId: 1, lineItemId: 1, vendorId: 1, fulfillmentStatus: 1, fulfillment: 1 };

/** One line's change, with the audit event it carries into its outbox. */
export interface LineChange {
  _id: Types.ObjectId;
  event: AuditRecord | null;
}

/**
 * Changes to fulfilled line items after the fact (PUT/DELETE /fulfillments/{id}, tracking events):
 * each write is conditional on the platform fulfillment it was decided against, so a concurrent
 * cancel or re-fulfilment is never overwritten. Same collection as LineItemsRepository.
 */
@Injectable()
export class FulfillmentChangesRepository extends TenantRepository<LineItem> {
  protected override readonly vendorField = 'vendorId';
  readonly outbox: ModelOutbox;

  constructor(@InjectModel(LineItem.name) model: Model<LineItem>) {
    super(model);
    this.outbox = new ModelOutbox(model);
  }

  /** The scope's lines with these ids (a vendor scope: its own only), in one read. */
  findLines(scope: ShopScope, ids: Types.ObjectId[]): Promise<FulfilledLine[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.model
      .find(this.scoped(scope, { _id: { $in: ids } }), FULFILLED_LINE)
      .lean<FulfilledLine[]>()
      .exec();
  }

  /**
   * Every line of the shop (whatever vendor) that one platform fulfillment covers: the platform
   * changes and cancels the fulfillment as a whole. Reads the order's lines (a handful) through the
   * unique (shopId, orderId, lineItemId, type, refundId, refundLineItemId) index, in its order, and
   * keeps those carrying the fulfillment.
   */
  async sharingFulfillment(
    scope: ShopScope,
    orderId: number,
    platformFulfillmentId: string,
  ): Promise<FulfilledLine[]> {
    const lines = await this.model
      .find(this.scoped(shopScope(scope.shopId), { orderId }), FULFILLED_LINE)
      .sort({ lineItemId: 1, type: 1, refundId: 1, refundLineItemId: 1 })
      .lean<FulfilledLine[]>()
      .exec();
    return lines.filter((l) => l.fulfillment?.platformFulfillmentId === platformFulfillmentId);
  }

  /** New tracking on lines still carrying this platform fulfillment; how many it reached. */
  async setTracking(
    scope: ShopScope,
    platformFulfillmentId: string,
    changes: LineChange[],
    tracking: Pick<LineItemFulfillment, 'trackingCompany' | 'trackingNumber' | 'trackingUrl'>,
    stamp: AuditStamp | null,
  ): Promise<number> {
    return this.write(scope, platformFulfillmentId, changes, stamp, {
      'fulfillment.trackingCompany': tracking.trackingCompany,
      'fulfillment.trackingNumber': tracking.trackingNumber,
      'fulfillment.trackingUrl': tracking.trackingUrl,
    });
  }

  /** The lines read unfulfilled again: fulfillment (tracking, shipment status, deliveredAt) cleared. */
  async clearFulfillment(
    scope: ShopScope,
    platformFulfillmentId: string,
    changes: LineChange[],
    stamp: AuditStamp | null,
  ): Promise<number> {
    return this.write(scope, platformFulfillmentId, changes, stamp, {
      fulfillmentStatus: 'unfulfilled',
      fulfillment: null,
    });
  }

  /**
   * The shipment status of the latest event wins: written only when no newer event set it already
   * (`shipmentStatusAt`), so a late-arriving older event changes nothing. One statement per line.
   */
  async applyShipmentStatus(
    scope: ShopScope,
    updates: Array<{
      _id: Types.ObjectId;
      status: string;
      at: Date;
      deliveredAt: Date | null;
      event?: AuditRecord | null;
    }>,
    stamp: AuditStamp | null = null,
  ): Promise<number> {
    if (updates.length === 0) return 0;
    const ops = updates.map((u) => ({
      updateOne: {
        filter: this.scoped(scope, {
          _id: u._id,
          fulfillmentStatus: 'fulfilled',
          ...anyOf([
            { 'fulfillment.shipmentStatusAt': null },
            { 'fulfillment.shipmentStatusAt': { $lte: u.at } },
          ]),
        }),
        update: withOutbox(
          {
            $set: {
              'fulfillment.shipmentStatus': u.status,
              'fulfillment.shipmentStatusAt': u.at,
              ...(u.deliveredAt ? { 'fulfillment.deliveredAt': u.deliveredAt } : {}),
            },
          },
          stamp,
          u.event,
        ),
      },
    }));
    return (await chunkedBulkWrite(this.model, ops as Parameters<Model<LineItem>['bulkWrite']>[0]))
      .modifiedCount;
  }

  private async write(
    scope: ShopScope,
    platformFulfillmentId: string,
    changes: LineChange[],
    stamp: AuditStamp | null,
    set: Record<string, unknown>,
  ): Promise<number> {
    if (changes.length === 0) return 0;
    const ops = changes.map((c) => ({
      updateOne: {
        filter: this.scoped(scope, {
          _id: c._id,
          fulfillmentStatus: 'fulfilled',
          'fulfillment.platformFulfillmentId': platformFulfillmentId,
        }),
        update: withOutbox({ $set: set }, stamp, c.event),
      },
    }));
    return (await chunkedBulkWrite(this.model, ops as Parameters<Model<LineItem>['bulkWrite']>[0]))
      .matchedCount;
  }
}
