import { Injectable } from '@nestjs/common';
import { Types } from 'mongoose';
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
import { NotFoundError } from '../common/errors';
import type { VendorSummary } from '../vendors/vendors.repository';
import type { LineItem } from './line-item.schema';
import { PricingInputsRepository } from './pricing-inputs.repository';

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
  constructor(private readonly inputs: PricingInputsRepository) {}

  async load(scope: ShopScope, need: PricingNeed): Promise<PricingContext> {
    return (await this.loadWith(scope, need, { endpoints: false })).ctx;
  }

  /**
   * `load`, with the shop's webhook endpoints read in the same command when `endpoints` (the
   * caller is about to emit an event: EventSink.emit takes them), else null.
   */
  async loadWith(
    scope: ShopScope,
    need: PricingNeed,
    also: { endpoints: boolean },
  ): Promise<{ ctx: PricingContext; endpoints: Array<Record<string, unknown>> | null }> {
    const names = unique(need.vendorNames);
    const found = await this.inputs.read(scope, {
      vendorNames: names,
      vendorIds: unique((need.vendorIds ?? []).map((id) => (id ? String(id) : null))),
      skus: unique(need.skus),
      endpoints: also.endpoints,
    });
    if (!found) throw new NotFoundError('Shop');
    const wantedNames = new Set(names);
    const ctx: PricingContext = {
      settings: moneySettingsFrom(found.shop.settings),
      refundsWaiting: (found.shop.refundsWaiting ?? 0) > 0,
      vendorsByName: new Map(
        found.vendors.filter((v) => wantedNames.has(v.vendorName)).map((v) => [v.vendorName, v]),
      ),
      vendorsById: new Map(found.vendors.map((v) => [String(v._id), v])),
      skus: new Map(found.skus.map((r) => [r.sku, r])),
    };
    return { ctx, endpoints: found.endpoints };
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
