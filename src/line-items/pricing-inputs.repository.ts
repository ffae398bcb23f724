import { Injectable } from '@nestjs/common';
import type { Types } from 'mongoose';
import {
  CommissionRuleReadsRepository,
  StoredLadderRule,
} from '../commissions/commission-rule-reads.repository';
import { SkuCommissionsRepository } from '../commissions/sku-commissions.repository';
import type { StoredSku } from '../commissions/sku-upload';
import type { ShopScope } from '../common/tenancy';
import type { UnionPart } from '../database/read-together';
import { EndpointReadsRepository } from '../event-port/endpoint-reads.repository';
import { ProductsRepository } from '../products/products.repository';
import type { Shop } from '../shops/shop.schema';
import { ShopsRepository } from '../shops/shops.repository';
import { VendorsRepository, VendorSummary } from '../vendors/vendors.repository';

/** The parts of the pricing read. */
const VENDORS = 'vendors';
const SKUS = 'skus';
const ENDPOINTS = 'webhookEndpoints';
const PRODUCTS = 'products';

/** What pricing reads: the vendors by stored (lowercased) name or id, the SKU records, and maybe the endpoints. */
export interface PricingInputsWanted {
  vendorNames: string[];
  vendorIds: Array<string | Types.ObjectId>;
  skus: string[];
  /** The lines' platform product ids: their stored types and the ladder's rules for them. */
  productIds: string[];
  /** Product-type rules of these type keys besides the products' own (a preview naming a type). */
  typeKeys?: string[];
  /** The shop's webhook endpoints too, for an event the caller is about to emit (`order.received`). */
  endpoints: boolean;
}

export interface PricingInputs {
  shop: Shop;
  vendors: VendorSummary[];
  skus: StoredSku[];
  /** The stored products' types (only products the shop has stored). */
  products: Array<{ productId: string; productType: string | null }>;
  /** The ladder's rules: those of the lines' products, of their stored types and of `typeKeys`. */
  rules: StoredLadderRule[];
  /** The shop's endpoints when wanted (as EventSink.emit takes them), else null. */
  endpoints: Array<Record<string, unknown>> | null;
}

/**
 * The pricing read: the shop, its vendors and SKU records and the lines' stored products (and, for
 * a new order, its webhook endpoints) in one command — an aggregation on `shops` with a `$unionWith`
 * part per collection (database/read-together.ts), each part built and tenant-scoped by its own
 * repository — then the commission rules those lines and products need (the ladder, DESIGN §13):
 * from this process's cache while the shop's rules stamp, loaded with the shop, is the one they
 * were read at (no command), else by index seeks of the keys missing (commission-rule-reads).
 * Ingestion makes it once per order; every round trip costs the client and the store about as much
 * as the read. MongoDB: serves each part from the same index its collection's own read uses (the
 * index-coverage gate reads every part), and the merge saves three network round trips per order.
 * The rules stay out of the combined read: the development store runs a `$unionWith` or `$lookup`
 * part over its whole collection, whatever its filter (~5-10 ms of store CPU at 1,200 rules, per
 * part and per joined product), where its own `find` seeks. MongoDB: serves those parts from the
 * same indexes as the seeks; the cache saves it the rules' reads too.
 * Null: no shop with this id.
 */
@Injectable()
export class PricingInputsRepository {
  constructor(
    private readonly shops: ShopsRepository,
    private readonly vendors: VendorsRepository,
    private readonly skuRecords: SkuCommissionsRepository,
    private readonly endpoints: EndpointReadsRepository,
    private readonly products: ProductsRepository,
    private readonly rules: CommissionRuleReadsRepository,
  ) {}

  async read(scope: ShopScope, want: PricingInputsWanted): Promise<PricingInputs | null> {
    const parts = [
      this.vendors.namesOrIdsPart(VENDORS, scope, want.vendorNames, want.vendorIds),
      this.skuRecords.skusPart(SKUS, scope, want.skus),
      this.products.typesPart(PRODUCTS, scope, want.productIds),
      want.endpoints ? this.endpoints.allPart(ENDPOINTS, scope) : null,
    ].filter((p): p is UnionPart => p !== null);
    const { shop, parts: found } = await this.shops.findByIdWith(scope.shopId, parts);
    if (!shop) return null;
    const products = (found.get(PRODUCTS) ?? []) as unknown as Array<
      PricingInputs['products'][number] & { productTypeKey?: string | null }
    >;
    const typeKeys = new Set(want.typeKeys ?? []);
    for (const p of products) if (p.productTypeKey) typeKeys.add(p.productTypeKey);
    const rules = await this.rules.rulesFor(scope, shop, want.productIds, [...typeKeys]);
    return {
      shop,
      vendors: (found.get(VENDORS) ?? []) as unknown as VendorSummary[],
      skus: (found.get(SKUS) ?? []) as unknown as StoredSku[],
      products: products.map((p) => ({ productId: p.productId, productType: p.productType })),
      rules,
      endpoints: want.endpoints ? (found.get(ENDPOINTS) ?? []) : null,
    };
  }
}
