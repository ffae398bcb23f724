import { Injectable } from '@nestjs/common';
import { round2 } from '../common/money';
import { nextOffset } from '../common/pagination';
import type { ShopScope } from '../common/tenancy';
import { VendorsRepository } from '../vendors/vendors.repository';
import { normaliseVendorName } from '../vendors/vendor-policy';
import { ProductListDto, ProductsQueryDto } from './dto/product.dto';
import { IncomingProduct } from './incoming-product';
import { toProductResponse } from './product.mapper';
import { ProductsRepository, UpsertOutcome } from './products.repository';

@Injectable()
export class ProductsService {
  constructor(
    private readonly products: ProductsRepository,
    private readonly vendors: VendorsRepository,
  ) {}

  /** products/create|update: idempotent; an older version than the stored one is ignored. */
  async ingest(scope: ShopScope, p: IncomingProduct): Promise<'created' | 'updated' | 'stale'> {
    return (await this.ingestVersion(scope, p)).outcome;
  }

  /** `ingest`, telling also whether the product's type changed (its lines' ladder may change). */
  ingestVersion(scope: ShopScope, p: IncomingProduct): Promise<UpsertOutcome> {
    const variants = p.variants.map((v) => ({ ...v, price: round2(v.price) }));
    return this.products.upsertVersion(scope, {
      productId: p.productId,
      title: p.title,
      handle: p.handle,
      productType: p.productType,
      vendor: p.vendor,
      vendorName: normaliseVendorName(p.vendor),
      status: p.status,
      totalInventory: variants.reduce((n, v) => n + (v.inventoryQuantity || 0), 0),
      isDigital: variants.length > 0 && variants.every((v) => !v.requiresShipping),
      variants,
      images: p.images,
      tags: p.tags,
      platformCreatedAt: p.createdAt,
      platformUpdatedAt: p.updatedAt,
    });
  }

  remove(scope: ShopScope, productId: string, at: Date): Promise<void> {
    return this.products.markDeleted(scope, productId, at);
  }

  /** Products newest first; the vendor of each is resolved by name (one lookup per page). */
  async list(scope: ShopScope, q: ProductsQueryDto): Promise<ProductListDto> {
    const page = { offset: q.offset, limit: q.limit };
    let vendorName: string | undefined;
    if (q.vendorId) {
      const vendor = await this.vendors.findById(scope, q.vendorId);
      if (!vendor) return { total: 0, nextOffset: null, products: [] };
      vendorName = vendor.vendorName;
    }
    const { total, items } = await this.products.page(scope, vendorName, page);
    const names = [...new Set(items.map((p) => p.vendorName).filter((n): n is string => !!n))];
    const byName = new Map(
      (await this.vendors.findByNames(scope, names)).map((v) => [v.vendorName, String(v._id)]),
    );
    return {
      total,
      nextOffset: nextOffset(page, total),
      products: items.map((p) =>
        toProductResponse(p, p.vendorName ? (byName.get(p.vendorName) ?? null) : null),
      ),
    };
  }
}
