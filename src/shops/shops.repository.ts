import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { toObjectId } from '../common/tenancy';
import { Shop } from './shop.schema';

/**
 * Shops are the tenants themselves, so this repository is not tenant-scoped: it is reached only by
 * sign-in (domain + key), the operator CLI and services that already hold a verified shop id.
 */
@Injectable()
export class ShopsRepository {
  constructor(@InjectModel(Shop.name) private readonly model: Model<Shop>) {}

  async create(data: Pick<Shop, 'domain' | 'name' | 'apiKeyHash' | 'webhookSecret'>): Promise<Shop> {
    const doc = await this.model.create(data);
    return doc.toObject();
  }

  findByDomain(domain: string): Promise<Shop | null> {
    return this.model.findOne({ domain }).lean<Shop>().exec();
  }

  findById(shopId: string): Promise<Shop | null> {
    const id = toObjectId(shopId);
    return id ? this.model.findOne({ _id: id }).lean<Shop>().exec() : Promise.resolve(null);
  }

  async setApiKeyHash(domain: string, apiKeyHash: string): Promise<Shop | null> {
    return this.model
      .findOneAndUpdate({ domain }, { $set: { apiKeyHash } }, { new: true })
      .lean<Shop>()
      .exec();
  }

  async update(shopId: string, set: Record<string, unknown>): Promise<Shop | null> {
    const id = toObjectId(shopId);
    if (!id) return null;
    return this.model
      .findOneAndUpdate({ _id: id }, { $set: set }, { new: true, runValidators: true })
      .lean<Shop>()
      .exec();
  }
}
