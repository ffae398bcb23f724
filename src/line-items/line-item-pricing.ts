import { Injectable } from '@nestjs/common';
import { Types } from 'mongoose';
import { toLadderRule } from '../commissions/commission-rule-reads.repository';
import type { StoredSku } from '../commissions/sku-upload';
import {
  applyLadder,
  calculateLineItem,
  LadderResult,
  LadderRule,
  LineItemFigures,
  LineItemInputs,
  MoneySettings,
  moneySettingsFrom,
  productTypeKeyOf,
  recalculateLineItem,
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
  /** The stored products' types by platform product id (absent: the product is not stored). */
  productTypes: Map<string, string | null>;
  /** The ladder's rules (DESIGN §13) by product id, and the product-type rules by type key. */
  productRules: Map<string, LadderRule[]>;
  typeRules: Map<string, LadderRule[]>;
}

/** What a load prices: the vendors its lines name or belong to, their SKUs and their products. */
export interface PricingNeed {
  vendorNames?: Array<string | null>;
  vendorIds?: Array<Types.ObjectId | string | null>;
  skus?: Array<string | null>;
  productIds?: Array<string | null>;
  /** Product types whose rules to read besides the stored products' (a preview naming a type). */
  productTypes?: Array<string | null>;
}

/** A priced line: the vendor it belongs to (null: none yet, no commission), its figures and why. */
export interface PricedLine {
  vendor: VendorSummary | null;
  figures: LineItemFigures;
  ladder: LadderResult;
}

/** What the ladder needs of a line besides its vendor: its SKU, product and order date. */
export interface LadderKeys {
  sku: string | null;
  productId: string | null;
  orderCreatedAt: Date;
}

/** What ingestion knows of a line besides the vendor and SKU (DESIGN §6 inputs). */
export type IncomingFigures = Omit<LineItemInputs, 'rate' | 'costOfGoods'>;

/** The line item fields recalculation starts from: the stored base figures, vendor and SKU. */
export type StoredPricingLine = Pick<
  LineItem,
  | 'vendorName'
  | 'vendorId'
  | 'sku'
  | 'productId'
  | 'orderCreatedAt'
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
      productIds: unique(need.productIds),
      typeKeys: unique((need.productTypes ?? []).map(productTypeKeyOf)),
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
      productTypes: new Map(found.products.map((p) => [p.productId, p.productType ?? null])),
      productRules: new Map(),
      typeRules: new Map(),
    };
    for (const r of found.rules) addRule(ctx, toLadderRule(r));
    return { ctx, endpoints: found.endpoints };
  }
}

/** The context with one more rule (a candidate: it replaces the stored rule of the same id). */
export function withRule(ctx: PricingContext, rule: LadderRule): PricingContext {
  const drop = (m: Map<string, LadderRule[]>) =>
    new Map([...m].map(([k, rs]) => [k, rs.filter((r) => r.id !== rule.id)]));
  const out = { ...ctx, productRules: drop(ctx.productRules), typeRules: drop(ctx.typeRules) };
  addRule(out, rule);
  return out;
}

function addRule(ctx: PricingContext, r: LadderRule): void {
  const [map, key] =
    r.level === 'product' ? [ctx.productRules, r.productId] : [ctx.typeRules, r.productTypeKey];
  if (!key) return;
  const list = map.get(key);
  if (list) list.push(r);
  else map.set(key, [r]);
}

/**
 * The ladder for one line (DESIGN §13): its vendor, SKU record, product (and the stored product's
 * type: `productType` given overrides it, for a preview) and the rules targeting them.
 */
export function ladderFor(
  ctx: PricingContext,
  vendor: VendorSummary | null,
  keys: LadderKeys,
  productType?: string | null,
): LadderResult {
  const sku = keys.sku ? (ctx.skus.get(keys.sku) ?? null) : null;
  const type =
    productType !== undefined
      ? productType
      : keys.productId
        ? (ctx.productTypes.get(keys.productId) ?? null)
        : null;
  const typeKey = productTypeKeyOf(type);
  const rules = [
    ...((keys.productId && ctx.productRules.get(keys.productId)) || []),
    ...((typeKey && ctx.typeRules.get(typeKey)) || []),
  ];
  return applyLadder(
    {
      vendorId: vendor ? String(vendor._id) : null,
      vendor,
      sku,
      productId: keys.productId,
      productType: type,
      orderCreatedAt: keys.orderCreatedAt,
    },
    rules,
  );
}

/** Ingestion: every figure from the order's line. */
export function price(
  ctx: PricingContext,
  line: LadderKeys & { vendorName: string | null; currentVendorId: Types.ObjectId | null },
  inputs: IncomingFigures,
): PricedLine {
  const { vendor, sku } = terms(ctx, line.vendorName, line.currentVendorId, line.sku);
  const ladder = ladderFor(ctx, vendor, line);
  const figures = calculateLineItem(
    { ...inputs, rate: ladder.applied, costOfGoods: sku?.costOfGoods ?? null },
    ctx.settings,
  );
  return { vendor, figures, ladder };
}

/**
 * Recalculation: commission and payout from the stored base figures (which may have been written
 * by hand) with the current settings, vendor, SKU record and the rules in force at the order's date.
 */
export function reprice(ctx: PricingContext, stored: StoredPricingLine): PricedLine {
  const { vendor, sku } = terms(ctx, stored.vendorName, stored.vendorId, stored.sku);
  const ladder = ladderFor(ctx, vendor, stored);
  const figures = recalculateLineItem(stored, ladder.applied, sku?.costOfGoods ?? null, ctx.settings);
  return { vendor, figures, ladder };
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
