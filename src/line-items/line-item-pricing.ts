import { Injectable } from '@nestjs/common';
import { Types } from 'mongoose';
import { SkuCommissionsRepository } from '../commissions/sku-commissions.repository';
import type { StoredSku } from '../commissions/sku-upload';
import {
  calculateLineItem,
  LineItemFigures,
  LineItemInputs,
  MoneySettings,
  moneySettingsFrom,
  recalculateLineItem,
  resolveCommissionRate,
} from '../common/money';
import type { ShopScope } from '../common/tenancy';
import { ShopsService } from '../shops/shops.service';
import { VendorsRepository, VendorSummary } from '../vendors/vendors.repository';
import type { LineItem } from './line-item.schema';
import type { UnionPart } from '../database/read-together';

/** The parts of the pricing read. */
const VENDORS = 'vendors';
const SKUS = 'skus';

/** Everything a batch of line items needs besides themselves, loaded with one query per collection. */
export interface PricingContext {
  settings: MoneySettings;
  /** The shop holds refunds that arrived before their order (a new order then looks its refunds up). */
  refundsWaiting: boolean;
  vendorsByName: Map<string, VendorSummary>;
  vendorsById: Map<string, VendorSummary>;
  skus: Map<string, StoredSku>;
}

/** What a load prices: the vendors its lines name or belong to, and their SKUs. */
export interface PricingNeed {
  vendorNames?: Array<string | null>;
  vendorIds?: Array<Types.ObjectId | null>;
  skus?: Array<string | null>;
}

/** A priced line: the vendor it belongs to (null: none yet, no commission) and its figures. */
export interface PricedLine {
  vendor: VendorSummary | null;
  figures: LineItemFigures;
}

/** What ingestion knows of a line besides the vendor and SKU (DESIGN §6 inputs). */
export type IncomingFigures = Omit<LineItemInputs, 'rate' | 'costOfGoods'>;

/** The line item fields recalculation starts from: the stored base figures, vendor and SKU. */
export type StoredPricingLine = Pick<
  LineItem,
  | 'vendorName'
  | 'vendorId'
  | 'sku'
  | 'quantity'
  | 'sales'
  | 'discount'
  | 'salesAfterDiscount'
  | 'tax'
  | 'shipping'
  | 'deduction'
  | 'costOfItem'
>;

/**
 * The one pricing path of line items (DESIGN §6). Ingestion (`price`) and recalculation
 * (`reprice`) both resolve the vendor and the SKU record the same way (`terms`) and hand them to
 * the one money function; only what they start from differs: the order's figures, or the stored ones.
 */
@Injectable()
export class LineItemPricing {
  constructor(
    private readonly shops: ShopsService,
    private readonly vendors: VendorsRepository,
    private readonly skus: SkuCommissionsRepository,
  ) {}

  async load(scope: ShopScope, need: PricingNeed): Promise<PricingContext> {
    return (await this.loadWith(scope, need, [])).ctx;
  }

  /**
   * `load`, with other collections' parts read in the same command (`also`: a caller's own reads,
   * such as the endpoints of the event it will emit); their rows by tag.
   */
  async loadWith(
    scope: ShopScope,
    need: PricingNeed,
    also: UnionPart[],
  ): Promise<{ ctx: PricingContext; also: Map<string, Array<Record<string, unknown>>> }> {
    const names = unique(need.vendorNames);
    // One command for the three collections (database/read-together.ts): ingestion loads this once
    // per order, and each round trip costs the client and the store about as much as the read.
    // MongoDB: the `$unionWith` parts use the same indexes; one command still saves two round trips.
    const parts = [
      this.vendors.namesOrIdsPart(
        VENDORS,
        scope,
        names,
        unique((need.vendorIds ?? []).map((id) => (id ? String(id) : null))),
      ),
      this.skus.skusPart(SKUS, scope, unique(need.skus)),
      ...also,
    ].filter((p): p is UnionPart => p !== null);
    const { shop, parts: found } = await this.shops.getByIdWith(scope.shopId, parts);
    const vendors = (found.get(VENDORS) ?? []) as unknown as VendorSummary[];
    const skus = new Map(((found.get(SKUS) ?? []) as unknown as StoredSku[]).map((r) => [r.sku, r]));
    const wantedNames = new Set(names);
    const ctx: PricingContext = {
      settings: moneySettingsFrom(shop.settings),
      refundsWaiting: (shop.refundsWaiting ?? 0) > 0,
      vendorsByName: new Map(
        vendors.filter((v) => wantedNames.has(v.vendorName)).map((v) => [v.vendorName, v]),
      ),
      vendorsById: new Map(vendors.map((v) => [String(v._id), v])),
      skus,
    };
    return { ctx, also: found };
  }
}

/** Ingestion: every figure from the order's line. */
export function price(
  ctx: PricingContext,
  line: { vendorName: string | null; currentVendorId: Types.ObjectId | null; sku: string | null },
  inputs: IncomingFigures,
): PricedLine {
  const { vendor, sku } = terms(ctx, line.vendorName, line.currentVendorId, line.sku);
  const figures = calculateLineItem(
    { ...inputs, rate: resolveCommissionRate(vendor, sku), costOfGoods: sku?.costOfGoods ?? null },
    ctx.settings,
  );
  return { vendor, figures };
}

/**
 * Recalculation: commission and payout from the stored base figures (which may have been written
 * by hand) with the current settings, vendor and SKU record.
 */
export function reprice(ctx: PricingContext, stored: StoredPricingLine): PricedLine {
  const { vendor, sku } = terms(ctx, stored.vendorName, stored.vendorId, stored.sku);
  const figures = recalculateLineItem(
    stored,
    resolveCommissionRate(vendor, sku),
    sku?.costOfGoods ?? null,
    ctx.settings,
  );
  return { vendor, figures };
}

/**
 * The vendor a line item belongs to — the one it is already assigned to (while that vendor
 * exists), else the vendor whose name equals the line's vendor field; null when there is none
 * yet — and its SKU record, if any.
 */
function terms(
  ctx: PricingContext,
  vendorName: string | null,
  currentVendorId: Types.ObjectId | null,
  sku: string | null,
): { vendor: VendorSummary | null; sku: StoredSku | null } {
  const current = currentVendorId ? ctx.vendorsById.get(String(currentVendorId)) : undefined;
  const vendor = current ?? (vendorName ? (ctx.vendorsByName.get(vendorName) ?? null) : null);
  return { vendor, sku: sku ? (ctx.skus.get(sku) ?? null) : null };
}

function unique(values: Array<string | null | undefined> | undefined): string[] {
  return [...new Set((values ?? []).filter((v): v is string => !!v))];
}
