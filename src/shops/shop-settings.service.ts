import { Injectable } from '@nestjs/common';
import { Types } from 'mongoose';
import { AuditTrail } from '../audit/audit-trail.service';
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
    private readonly audit: AuditTrail,
  ) {}

  async get(scope: ShopScope): Promise<ShopSettingsDto> {
    return moneySettingsFrom((await this.shops.getById(scope.shopId)).settings);
  }

  async update(scope: ShopScope, body: UpdateShopSettingsDto): Promise<ShopSettingsDto> {
    const changes: Record<string, unknown> = {};
    for (const k of KEYS) if (body[k] !== undefined && body[k] !== null) changes[k] = body[k];
    if (Object.keys(changes).length === 0) return this.get(scope);
    const current = moneySettingsFrom((await this.shops.getById(scope.shopId)).settings);
    const stamp = this.audit.begin();
    const event = this.audit.changed(
      scope,
      stamp,
      'shop.settings.update',
      { type: 'shop', id: scope.shopId },
      { settings: current },
      { settings: { ...current, ...changes } },
    );
    const set = Object.fromEntries(Object.entries(changes).map(([k, v]) => [`settings.${k}`, v]));
    const shop = await this.repository.update(scope.shopId, set, stamp, event);
    if (!shop) throw new NotFoundError('Shop');
    await this.audit.commit(
      scope,
      this.repository.outbox,
      stamp,
      [event],
      [new Types.ObjectId(scope.shopId)],
    );
    return moneySettingsFrom(shop.settings);
  }
}
