import { Injectable } from '@nestjs/common';
import type { Types } from 'mongoose';
import { SkuCommissionsRepository } from '../commissions/sku-commissions.repository';
import type { StoredSku } from '../commissions/sku-upload';
import type { ShopScope } from '../common/tenancy';
import type { UnionPart } from '../database/read-together';
import { EndpointReadsRepository } from '../event-port/endpoint-reads.repository';
import type { Shop } from '../shops/shop.schema';
import { ShopsRepository } from '../shops/shops.repository';
import { VendorsRepository, VendorSummary } from '../vendors/vendors.repository';

/** The parts of the pricing read. */
const VENDORS = 'vendors';
const SKUS = 'skus';
const ENDPOINTS = 'webhookEndpoints';

/** What pricing reads: the vendors by stored (lowercased) name or id, the SKU records, and maybe the endpoints. */
export interface PricingInputsWanted {
  vendorNames: string[];
  vendorIds: Array<string | Types.ObjectId>;
  skus: string[];
  /** The shop's webhook endpoints too, for an event the caller is about to emit (`order.received`). */
  endpoints: boolean;
}

export interface PricingInputs {
  shop: Shop;
  vendors: VendorSummary[];
  skus: StoredSku[];
  /** The shop's endpoints when wanted (as EventSink.emit takes them), else null. */
  endpoints: Array<Record<string, unknown>> | null;
}

/**
 * The pricing read: the shop, its vendors and SKU records (and, for a new order, its webhook
 * endpoints) in one command — an aggregation on `shops` with a `$unionWith` part per collection
 * (database/read-together.ts), each part built and tenant-scoped by its own repository.
 * Ingestion makes it once per order; every round trip costs the client and the store about as much
 * as the read. MongoDB: serves each part from the same index its collection's own read uses (the
 * index-coverage gate reads every part), and the merge saves three network round trips per order.
 * Null: no shop with this id.
 */
@Injectable()
export class PricingInputsRepository {
  constructor(
    private readonly shops: ShopsRepository,
    private readonly vendors: VendorsRepository,
    private readonly skuRecords: SkuCommissionsRepository,
    private readonly endpoints: EndpointReadsRepository,
  ) {}

  async read(scope: ShopScope, want: PricingInputsWanted): Promise<PricingInputs | null> {
    const parts = [
      this.vendors.namesOrIdsPart(VENDORS, scope, want.vendorNames, want.vendorIds),
      this.skuRecords.skusPart(SKUS, scope, want.skus),
      want.endpoints ? this.endpoints.allPart(ENDPOINTS, scope) : null,
    ].filter((p): p is UnionPart => p !== null);
    const { shop, parts: found } = await this.shops.findByIdWith(scope.shopId, parts);
    if (!shop) return null;
    return {
      shop,
      vendors: (found.get(VENDORS) ?? []) as unknown as VendorSummary[],
      skus: (found.get(SKUS) ?? []) as unknown as StoredSku[],
      endpoints: want.endpoints ? (found.get(ENDPOINTS) ?? []) : null,
    };
  }
}
