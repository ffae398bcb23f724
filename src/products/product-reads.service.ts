import { Inject, Injectable } from '@nestjs/common';
import { NotFoundError } from '../common/errors';
import { readCursorPage } from '../common/pagination';
import { type ShopScope, toObjectId } from '../common/tenancy';
import { authConfig, type AuthConfig } from '../config/configuration';
import { VendorsRepository } from '../vendors/vendors.repository';
import type { ProductDto } from './dto/product.dto';
import type { ProductCountsDto, ProductsPageDto, ShopProductsV2QueryDto } from './dto/product-v2.dto';
import { toProductResponse } from './product.mapper';
import type { Product } from './product.schema';
import { productObjectId, ProductsRepository } from './products.repository';

/** A platform product id: a 64-bit unsigned integer as decimal digits. */
const PLATFORM_ID = /^\d{1,20}$/;

/**
 * The V2 product reads (DESIGN §12): a vendor token sees the products whose vendor name is its
 * vendor's stored name; a shop token every product of the shop (optionally one vendor's). Products
 * carry no vendorId (they are matched by name, as the platform sends them), so the vendor's name is
 * read first and every product read is narrowed to it here.
 */
@Injectable()
export class ProductReadsService {
  constructor(
    private readonly products: ProductsRepository,
    private readonly vendors: VendorsRepository,
    @Inject(authConfig.KEY) private readonly auth: AuthConfig,
  ) {}

  async list(scope: ShopScope, q: ShopProductsV2QueryDto): Promise<ProductsPageDto> {
    const vendorId = scope.vendorId ?? q.vendorId;
    const vendorName = vendorId ? await this.vendorNameOf(scope, vendorId) : undefined;
    const context = `products:${scope.shopId}:${scope.vendorId ?? '*'}`;
    const page = await readCursorPage(
      q,
      this.auth.cursorKey,
      context,
      (window) =>
        vendorName === null
          ? Promise.resolve({ rows: [], hasMoreBehind: false, totalCount: 0 })
          : this.products.cursorList(scope, { vendorName, status: q.status, search: q.search }, window),
      (p: Product) => ({ t: new Date(p.platformCreatedAt).getTime(), id: String(p._id) }),
    );
    const ids = await this.vendorIdsByName(scope, page.items);
    return {
      items: page.items.map((p) => toProductResponse(p, (p.vendorName && ids.get(p.vendorName)) || null)),
      pageInfo: page.pageInfo,
      totalCount: page.totalCount,
    };
  }

  /** By our `_id` or the platform's product id; another vendor's (or shop's) → 404. */
  async get(scope: ShopScope, id: string): Promise<ProductDto> {
    const _id = PLATFORM_ID.test(id) ? productObjectId(scope.shopId, id) : toObjectId(id);
    const [product, vendorName] = await Promise.all([
      _id ? this.products.findLive(scope, _id) : null,
      scope.vendorId ? this.vendorNameOf(scope, scope.vendorId) : undefined,
    ]);
    if (!product || (vendorName !== undefined && product.vendorName !== vendorName))
      throw new NotFoundError('Product');
    const ids = await this.vendorIdsByName(scope, [product]);
    return toProductResponse(product, (product.vendorName && ids.get(product.vendorName)) || null);
  }

  /** The vendor's live products per status (statuses outside the three are not counted). */
  async counts(scope: ShopScope): Promise<ProductCountsDto> {
    const vendorName = scope.vendorId ? await this.vendorNameOf(scope, scope.vendorId) : null;
    const by = vendorName ? await this.products.countByStatus(scope, vendorName) : new Map<string, number>();
    return { active: by.get('active') ?? 0, draft: by.get('draft') ?? 0, archived: by.get('archived') ?? 0 };
  }

  /** The vendor's stored name; null when the vendor is unknown (or another shop's). */
  private async vendorNameOf(scope: ShopScope, vendorId: string): Promise<string | null> {
    return (await this.vendors.findById(scope, vendorId))?.vendorName ?? null;
  }

  private async vendorIdsByName(scope: ShopScope, items: Product[]): Promise<Map<string, string>> {
    const names = [...new Set(items.map((p) => p.vendorName).filter((n): n is string => !!n))];
    if (scope.vendorId && names.length > 0) return new Map([[names[0], scope.vendorId]]);
    return new Map((await this.vendors.findByNames(scope, names)).map((v) => [v.vendorName, String(v._id)]));
  }
}
