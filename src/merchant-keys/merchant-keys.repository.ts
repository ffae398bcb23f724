import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { ShopScope, TenantRepository } from '../common/tenancy';
import { MerchantKey } from './merchant-key.schema';

@Injectable()
export class MerchantKeysRepository extends TenantRepository<MerchantKey> {
  constructor(@InjectModel(MerchantKey.name) model: Model<MerchantKey>) {
    super(model);
  }

  async create(
    scope: ShopScope,
    data: Pick<MerchantKey, 'lookupId' | 'secretHash' | 'name'>,
  ): Promise<MerchantKey> {
    const doc = await this.model.create({ ...data, ...this.owner(scope) });
    return doc.toObject();
  }

  findById(scope: ShopScope, id: string): Promise<MerchantKey | null> {
    return this.findOneById(scope, id);
  }

  findByLookupId(scope: ShopScope, lookupId: string): Promise<MerchantKey | null> {
    return this.model.findOne(this.scoped(scope, { lookupId })).lean<MerchantKey>().exec();
  }

  page(
    scope: ShopScope,
    page: { offset: number; limit: number },
  ): Promise<{ total: number; items: MerchantKey[] }> {
    return this.offsetPage<MerchantKey>(scope, {}, { createdAt: -1, _id: -1 }, page);
  }

  /** Starts the grace window of an active key; null when it was already rotated or revoked. */
  markRotated(
    scope: ShopScope,
    id: Types.ObjectId,
    expiresAt: Date,
    replacedBy: Types.ObjectId,
  ): Promise<MerchantKey | null> {
    return this.model
      .findOneAndUpdate(
        this.scoped(scope, { _id: id, revokedAt: null, expiresAt: null }),
        { $set: { expiresAt, replacedBy } },
        { new: true },
      )
      .lean<MerchantKey>()
      .exec();
  }

  /** Idempotent: revoking a revoked key keeps its first revocation time. */
  async revoke(scope: ShopScope, id: Types.ObjectId, at: Date): Promise<MerchantKey | null> {
    const revoked = await this.model
      .findOneAndUpdate(
        this.scoped(scope, { _id: id, revokedAt: null }),
        { $set: { revokedAt: at } },
        { new: true },
      )
      .lean<MerchantKey>()
      .exec();
    return (
      revoked ??
      this.model
        .findOne(this.scoped(scope, { _id: id }))
        .lean<MerchantKey>()
        .exec()
    );
  }

  deleteById(scope: ShopScope, id: Types.ObjectId): Promise<unknown> {
    return this.model.deleteOne(this.scoped(scope, { _id: id })).exec();
  }
}
