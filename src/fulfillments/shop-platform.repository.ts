import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import type { ShopScope } from '../common/tenancy';
import { Shop } from '../shops/shop.schema';

export interface ShopPlatformSettings {
  _id: Types.ObjectId;
  domain: string;
  platform: string;
  platformAccessTokenEnc: string | null;
  updatedAt: Date;
}

/**
 * The store-platform part of the caller's own shop record (settings.platform and the encrypted
 * token). The shop is the tenant: every read and write is by the scope's shop id.
 */
@Injectable()
export class ShopPlatformRepository {
  constructor(@InjectModel(Shop.name) private readonly model: Model<Shop>) {}

  async get(scope: ShopScope): Promise<ShopPlatformSettings | null> {
    const shop = await this.model
      .findOne({ _id: new Types.ObjectId(scope.shopId) }, { domain: 1, settings: 1, updatedAt: 1 })
      .lean<Shop>()
      .exec();
    return shop ? this.view(shop) : null;
  }

  async set(scope: ShopScope, platform: string, tokenEnc?: string): Promise<ShopPlatformSettings | null> {
    const $set: Record<string, unknown> = { 'settings.platform': platform };
    if (tokenEnc !== undefined) $set['settings.platformAccessTokenEnc'] = tokenEnc;
    const shop = await this.model
      .findOneAndUpdate({ _id: new Types.ObjectId(scope.shopId) }, { $set }, { new: true })
      .lean<Shop>()
      .exec();
    return shop ? this.view(shop) : null;
  }

  private view(shop: Shop): ShopPlatformSettings {
    return {
      _id: shop._id,
      domain: shop.domain,
      platform: shop.settings?.platform ?? 'local',
      platformAccessTokenEnc: shop.settings?.platformAccessTokenEnc ?? null,
      updatedAt: shop.updatedAt,
    };
  }
}
