import { Injectable } from '@nestjs/common';
import { Types } from 'mongoose';
import { MoneySettings, moneySettingsFrom } from '../common/money';
import type { ShopScope } from '../common/tenancy';
import { ShopsService } from '../shops/shops.service';
import { PricingInputsRepository, SkuTerms, VendorTerms } from './pricing-inputs.repository';

/** Everything a batch of line items needs besides themselves, loaded with one query per collection. */
export interface PricingContext {
  settings: MoneySettings;
  vendorsByName: Map<string, VendorTerms>;
  vendorsById: Map<string, VendorTerms>;
  skus: Map<string, SkuTerms>;
}

/** A line item's `vendor` field as vendor names are stored: trimmed, lowercased; null when empty. */
export function normaliseVendorName(name: string | null | undefined): string | null {
  const n = String(name ?? '')
    .trim()
    .toLowerCase();
  return n === '' ? null : n;
}

/**
 * The vendor a line item belongs to: the one it is already assigned to (while that vendor exists),
 * else the vendor whose name equals the line's vendor field; null when there is none yet.
 */
export function assignVendor(
  ctx: PricingContext,
  vendorName: string | null,
  currentVendorId: Types.ObjectId | null,
): VendorTerms | null {
  if (currentVendorId) {
    const current = ctx.vendorsById.get(String(currentVendorId));
    if (current) return current;
  }
  return vendorName ? (ctx.vendorsByName.get(vendorName) ?? null) : null;
}

@Injectable()
export class LineItemPricing {
  constructor(
    private readonly shops: ShopsService,
    private readonly inputs: PricingInputsRepository,
  ) {}

  async load(
    scope: ShopScope,
    need: {
      vendorNames?: Array<string | null>;
      vendorIds?: Array<Types.ObjectId | null>;
      skus?: Array<string | null>;
    },
  ): Promise<PricingContext> {
    const names = unique(need.vendorNames);
    const ids = unique((need.vendorIds ?? []).map((id) => (id ? String(id) : null)));
    const skus = unique(need.skus);
    const [shop, byName, byId, skuRows] = await Promise.all([
      this.shops.getById(scope.shopId),
      this.inputs.vendorsByNames(scope, names),
      this.inputs.vendorsByIds(scope, ids),
      this.inputs.skusByCodes(scope, skus),
    ]);
    const vendorsById = new Map<string, VendorTerms>();
    for (const v of [...byName, ...byId]) vendorsById.set(String(v._id), v);
    return {
      settings: moneySettingsFrom(shop.settings),
      vendorsByName: new Map(byName.map((v) => [v.vendorName, v])),
      vendorsById,
      skus: new Map(skuRows.map((s) => [s.sku, s])),
    };
  }
}

function unique(values: Array<string | null | undefined> | undefined): string[] {
  return [...new Set((values ?? []).filter((v): v is string => !!v))];
}
