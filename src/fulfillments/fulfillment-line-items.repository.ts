import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { ShopScope, TenantRepository } from '../common/tenancy';
import { chunkedBulkWrite } from '../database/bulk-write';
import { LineItem, LineItemFulfillment } from '../line-items/line-item.schema';

export interface FulfillmentRowFilter {
  vendorId?: Types.ObjectId;
  orderCreatedAt?: { $gte?: Date; $lte?: Date };
  fulfillmentStatus?: 'fulfilled' | 'unfulfilled';
  shipmentStatus?: string;
}

/** The fields a fulfillment row (spec §2.7) is built from. */
export type FulfillmentRowSource = Pick<
  LineItem,
  | '_id'
  | 'orderNumber'
  | 'orderName'
  | 'orderCreatedAt'
  | 'vendorId'
  | 'vendorName'
  | 'name'
  | 'variantTitle'
  | 'sku'
  | 'fulfillmentStatus'
  | 'fulfillment'
  | 'shippingAddress'
  | 'billingAddress'
>;

const ROW_PROJECTION = {
  orderNumber: 1,
  orderName: 1,
  orderCreatedAt: 1,
  vendorId: 1,
  vendorName: 1,
  name: 1,
  variantTitle: 1,
  sku: 1,
  fulfillmentStatus: 1,
  fulfillment: 1,
  shippingAddress: 1,
  billingAddress: 1,
} as const;

/** What fulfillment creation reads of a requested line item. */
export type FulfillableLineItem = Pick<
  LineItem,
  '_id' | 'orderId' | 'lineItemId' | 'quantity' | 'cancelled' | 'fulfillmentStatus' | 'fulfillmentLock'
>;

@Injectable()
export class FulfillmentLineItemsRepository extends TenantRepository<LineItem> {
  protected override readonly vendorField = 'vendorId';

  constructor(@InjectModel(LineItem.name) model: Model<LineItem>) {
    super(model);
  }

  /** Fulfillment rows, newest order first: only line items of paid orders. */
  async page(
    scope: ShopScope,
    filter: FulfillmentRowFilter,
    page: { offset: number; limit: number },
  ): Promise<{ total: number; items: FulfillmentRowSource[] }> {
    const { shipmentStatus, ...rest } = filter;
    const where = {
      ...rest,
      ...(shipmentStatus !== undefined ? { 'fulfillment.shipmentStatus': shipmentStatus } : {}),
      financialStatus: 'paid',
    };
    return this.offsetPage<FulfillmentRowSource>(
      scope,
      where,
      { orderCreatedAt: -1, _id: -1 },
      page,
      ROW_PROJECTION,
    );
  }

  /**
   * Claims unfulfilled lines for one fulfillment request (chunked bulk writes by `_id`): a line is claimed when it
   * is unfulfilled and no other request holds a live claim, so two concurrent requests never create
   * two platform fulfillments for the same line. Claims older than `staleBefore` are void.
   */
  async claim(
    scope: ShopScope,
    ids: Types.ObjectId[],
    lockId: string,
    now: Date,
    staleBefore: Date,
  ): Promise<void> {
    if (ids.length === 0) return;
    await chunkedBulkWrite(
      this.model,
      ids.map((_id) => ({
        updateOne: {
          filter: this.scoped(scope, {
            _id,
            fulfillmentStatus: 'unfulfilled',
            $or: [{ fulfillmentLock: null }, { fulfillmentLockedAt: { $lt: staleBefore } }],
          }),
          update: { $set: { fulfillmentLock: lockId, fulfillmentLockedAt: now } },
        },
      })),
    );
  }

  /** The requested lines of this shop, in one read. */
  findByIds(scope: ShopScope, ids: Types.ObjectId[]): Promise<FulfillableLineItem[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.model
      .find(this.scoped(scope, { _id: { $in: ids } }), {
        orderId: 1,
        lineItemId: 1,
        quantity: 1,
        cancelled: 1,
        fulfillmentStatus: 1,
        fulfillmentLock: 1,
      })
      .lean<FulfillableLineItem[]>()
      .exec();
  }

  /** Records the platform fulfillment on the claimed lines and frees the claims. */
  async recordFulfilled(
    scope: ShopScope,
    done: Array<{ _id: Types.ObjectId; fulfillment: LineItemFulfillment }>,
    lockId: string,
  ): Promise<void> {
    if (done.length === 0) return;
    await chunkedBulkWrite(
      this.model,
      done.map((d) => ({
        updateOne: {
          filter: this.scoped(scope, { _id: d._id, fulfillmentLock: lockId }),
          update: {
            $set: {
              fulfillmentStatus: 'fulfilled' as const,
              fulfillment: d.fulfillment,
              fulfillmentLock: null,
              fulfillmentLockedAt: null,
            },
          },
        },
      })),
    );
  }

  /** Frees this request's claims on lines that were not fulfilled. */
  async release(scope: ShopScope, ids: Types.ObjectId[], lockId: string): Promise<void> {
    if (ids.length === 0) return;
    await chunkedBulkWrite(
      this.model,
      ids.map((_id) => ({
        updateOne: {
          filter: this.scoped(scope, { _id, fulfillmentLock: lockId }),
          update: { $set: { fulfillmentLock: null, fulfillmentLockedAt: null } },
        },
      })),
    );
  }
}
