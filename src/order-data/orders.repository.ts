import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { ShopScope } from '../common/tenancy';
import { TenantRepository } from '../database/tenant-repository';
import { isDuplicateKeyError } from '../common/errors/duplicate-key';
import { orderObjectId } from './order-ids';
import { Order } from './order.schema';

export type OrderVersion = Pick<
  Order,
  'orderId' | 'orderNumber' | 'orderName' | 'platformCreatedAt' | 'platformUpdatedAt' | 'raw'
>;

/** Raw orders as the store platform sent them; written only by ingestion. */
@Injectable()
export class OrdersRepository extends TenantRepository<Order> {
  constructor(@InjectModel(Order.name) model: Model<Order>) {
    super(model);
  }

  /**
   * Stores a first version; false when the order already exists. Written by the driver: the raw
   * payload is stored as received, and casting a whole Shopify order through the schema (a deep clone
   * of a Mixed path) was the most expensive step of ingesting it.
   */
  async insertNew(scope: ShopScope, version: OrderVersion): Promise<boolean> {
    const now = new Date();
    try {
      await this.model.collection.insertOne({
        ...version,
        _id: orderObjectId(scope.shopId, version.orderId),
        ...this.owner(scope),
        createdAt: now,
        updatedAt: now,
      });
      return true;
    } catch (err) {
      if (isDuplicateKeyError(err)) return false;
      throw err;
    }
  }

  /** Replaces the stored version unless it is newer than this one; false when it was newer. */
  async replaceUnlessNewer(scope: ShopScope, version: OrderVersion): Promise<boolean> {
    const _id = orderObjectId(scope.shopId, version.orderId);
    const res = await this.model
      .updateOne(this.scoped(scope, { _id, platformUpdatedAt: { $lte: version.platformUpdatedAt } }), {
        $set: version,
      })
      .exec();
    return res.matchedCount > 0;
  }

  findByOrderId(scope: ShopScope, orderId: number): Promise<Order | null> {
    return this.model
      .findOne(this.scoped(scope, { _id: orderObjectId(scope.shopId, orderId) }))
      .lean<Order>()
      .exec();
  }

  /** The platform order id of the order with this `_id` (the id every API shows); null when unknown or another shop's. */
  async orderIdOf(scope: ShopScope, id: Types.ObjectId): Promise<number | null> {
    const row = await this.model
      .findOne(this.scoped(scope, { _id: id }), { orderId: 1 })
      .lean<Pick<Order, 'orderId'>>()
      .exec();
    return row?.orderId ?? null;
  }

  async exists(scope: ShopScope, orderId: number): Promise<boolean> {
    const row = await this.model
      .findOne(this.scoped(scope, { _id: orderObjectId(scope.shopId, orderId) }), { _id: 1 })
      .lean()
      .exec();
    return !!row;
  }
}
