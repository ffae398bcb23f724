import { Injectable } from '@nestjs/common';
import { Types } from 'mongoose';
import { AuditTrail } from '../audit/audit-trail.service';
import { Clock } from '../common/clock/clock';
import { NotFoundError } from '../common/errors';
import type { ShopScope } from '../common/tenancy';
import { moneySettingsFrom } from '../common/money';
import { ShopSettingsDto, UpdateShopSettingsDto } from './dto/settings.dto';
import { nextPayoutSchedule, payoutScheduleDto } from './payout-schedule.settings';
import type { Shop } from './shop.schema';
import { ShopsRepository } from './shops.repository';
import { ShopsService } from './shops.service';

const KEYS = [
  'taxOnCommissionRate',
  'tcsRate',
  'globalDeductionRate',
  'payShippingToVendor',
  'payTaxToVendor',
  'requireCompleteTaxProfile',
] as const;

/**
 * The settings of the caller's shop: the money settings (changes apply to new orders and to
 * recalculations) and the payout settings (DESIGN §15: the schedule, the tax-profile requirement).
 */
@Injectable()
export class ShopSettingsService {
  constructor(
    private readonly shops: ShopsService,
    private readonly repository: ShopsRepository,
    private readonly audit: AuditTrail,
    private readonly clock: Clock,
  ) {}

  async get(scope: ShopScope): Promise<ShopSettingsDto> {
    return settingsOf(await this.shops.getById(scope.shopId));
  }

  async update(scope: ShopScope, body: UpdateShopSettingsDto): Promise<ShopSettingsDto> {
    const changes: Record<string, unknown> = {};
    for (const k of KEYS) if (body[k] !== undefined && body[k] !== null) changes[k] = body[k];
    const shop = await this.shops.getById(scope.shopId);
    const schedule = body.payoutSchedule
      ? nextPayoutSchedule(shop.payoutSchedule, body.payoutSchedule, this.clock.now())
      : null;
    if (Object.keys(changes).length === 0 && !schedule) return settingsOf(shop);
    const current = settingsOf(shop);
    const after = {
      ...current,
      ...changes,
      ...(schedule ? { payoutSchedule: payoutScheduleDto(schedule) } : {}),
    };
    const stamp = this.audit.begin();
    const event = this.audit.changed(
      scope,
      stamp,
      'shop.settings.update',
      { type: 'shop', id: scope.shopId },
      { settings: current },
      { settings: after },
    );
    const set: Record<string, unknown> = Object.fromEntries(
      Object.entries(changes).map(([k, v]) => [`settings.${k}`, v]),
    );
    if (schedule) set.payoutSchedule = schedule;
    const updated = await this.repository.update(scope.shopId, set, stamp, event);
    if (!updated) throw new NotFoundError('Shop');
    await this.audit.commit(
      scope,
      this.repository.outbox,
      stamp,
      [event],
      [new Types.ObjectId(scope.shopId)],
    );
    return settingsOf(updated);
  }
}

function settingsOf(shop: Shop): ShopSettingsDto {
  return {
    ...moneySettingsFrom(shop.settings),
    requireCompleteTaxProfile: shop.settings?.requireCompleteTaxProfile ?? false,
    payoutSchedule: payoutScheduleDto(shop.payoutSchedule),
  };
}
