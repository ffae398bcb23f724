import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { ShopScope, TenantRepository } from '../common/tenancy';
import { isDuplicateKeyError } from '../database/duplicate-key';
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

  /** Stores a first version; false when the order already exists. */
  async insertNew(scope: ShopScope, version: OrderVersion): Promise<boolean> {
    try {
      await this.model.create({
        ...version,
        _id: orderObjectId(scope.shopId, version.orderId),
        ...this.owner(scope),
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

  async exists(scope: ShopScope, orderId: number): Promise<boolean> {
    const row = await this.model
      .findOne(this.scoped(scope, { _id: orderObjectId(scope.shopId, orderId) }), { _id: 1 })
      .lean()
      .exec();
    return !!row;
  }
}
