import { Injectable } from '@nestjs/common';
import { NotFoundError } from '../common/errors';
import type { ShopScope } from '../common/tenancy';
import { moneySettingsFrom } from '../common/money';
import { ShopSettingsDto, UpdateShopSettingsDto } from './dto/settings.dto';
import { ShopsRepository } from './shops.repository';
import { ShopsService } from './shops.service';

const KEYS = [
  'taxOnCommissionRate',
  'tcsRate',
  'globalDeductionRate',
  'payShippingToVendor',
  'payTaxToVendor',
] as const;

/** The money settings of the caller's shop. Changes apply to new orders and to recalculations. */
@Injectable()
export class ShopSettingsService {
  constructor(
    private readonly shops: ShopsService,
    private readonly repository: ShopsRepository,
  ) {}

  async get(scope: ShopScope): Promise<ShopSettingsDto> {
    return moneySettingsFrom((await this.shops.getById(scope.shopId)).settings);
  }

  async update(scope: ShopScope, body: UpdateShopSettingsDto): Promise<ShopSettingsDto> {
    const set: Record<string, unknown> = {};
    for (const k of KEYS) if (body[k] !== undefined && body[k] !== null) set[`settings.${k}`] = body[k];
    const shop = Object.keys(set).length
      ? await this.repository.update(scope.shopId, set)
      : await this.shops.getById(scope.shopId);
    if (!shop) throw new NotFoundError('Shop');
    return moneySettingsFrom(shop.settings);
  }
}
