import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { productTypeKeyOf } from '../common/money';
import { ShopScope } from '../common/tenancy';
import { TenantRepository } from '../database/tenant-repository';
import type { JoinedRead, UnionPart } from '../database/read-together';
import { isDuplicateKeyError } from '../common/errors/duplicate-key';
import { CursorRows, CursorWindow } from '../common/pagination';
import { Product, ProductStatus } from './product.schema';

/** The V2 list's filters. `vendorName` undefined = every vendor (shop token only). */
export interface ProductListFilter {
  vendorName?: string;
  status?: ProductStatus;
  /** Case-insensitive substring of the title. */
  search?: string;
}

/** Regex metacharacters escaped: a search is a literal substring, never a pattern. */
const literal = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export type ProductVersion = Omit<
  Product,
  '_id' | 'shopId' | 'deletedAt' | 'createdAt' | 'updatedAt' | 'productTypeKey'
>;

/** A stored version's outcome, and whether the product's type changed (the commission ladder reads it). */
export interface UpsertOutcome {
  outcome: 'created' | 'updated' | 'stale';
  typeChanged: boolean;
}

export function productObjectId(shopId: string, productId: string): Types.ObjectId {
  return new Types.ObjectId(
    createHash('sha256').update(`product\0${shopId}\0${productId}`).digest().subarray(0, 12),
  );
}

@Injectable()
export class ProductsRepository extends TenantRepository<Product> {
  constructor(@InjectModel(Product.name) model: Model<Product>) {
    super(model);
  }

  /**
   * Stores the product unless a same-or-newer version (or its deletion) is already stored. The
   * update returns the version it replaced (findAndModify, still one command), so the caller learns
   * whether the product type changed.
   */
  async upsertVersion(scope: ShopScope, version: ProductVersion): Promise<UpsertOutcome> {
    const _id = productObjectId(scope.shopId, version.productId);
    const productTypeKey = productTypeKeyOf(version.productType);
    try {
      await this.model.create({ ...version, productTypeKey, _id, deletedAt: null, ...this.owner(scope) });
      return { outcome: 'created', typeChanged: productTypeKey !== null };
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
    }
    const before = await this.model
      .findOneAndUpdate(
        this.scoped(scope, { _id, deletedAt: null, platformUpdatedAt: { $lte: version.platformUpdatedAt } }),
        { $set: { ...version, productTypeKey } },
        { projection: { productType: 1 }, new: false },
      )
      .lean<{ productType?: string | null }>()
      .exec();
    if (!before) return { outcome: 'stale', typeChanged: false };
    return { outcome: 'updated', typeChanged: productTypeKeyOf(before.productType) !== productTypeKey };
  }

  /** The ids of the shop's products of this type key (a product-type rule's dry-run). */
  async idsOfType(scope: ShopScope, productTypeKey: string): Promise<string[]> {
    const rows = await this.model
      .find(this.scoped(scope, { productTypeKey }), { _id: 0, productId: 1 })
      .lean<Array<{ productId: string }>>()
      .exec();
    return rows.map((r) => r.productId);
  }

  /**
   * The stored type of these products, as a part of a combined read (the pricing read: the ladder's
   * product-type level). By `_id`, which is derived from (shop, productId): the unique index serves it.
   */
  typesPart(tag: string, scope: ShopScope, productIds: string[], joins: JoinedRead[] = []): UnionPart | null {
    if (productIds.length === 0) return null;
    const ids = productIds.map((p) => productObjectId(scope.shopId, p));
    return this.readPart(
      tag,
      scope,
      { _id: { $in: ids } },
      { _id: 0, productId: 1, productType: 1, productTypeKey: 1 },
      undefined,
      joins,
    );
  }

  /** Tombstones the product (also when it was never seen, so a late create cannot revive it). */
  async markDeleted(scope: ShopScope, productId: string, at: Date): Promise<void> {
    const _id = productObjectId(scope.shopId, productId);
    await this.model
      .updateOne(
        this.scoped(scope, { _id }),
        {
          $set: { deletedAt: at },
          $setOnInsert: { productId, platformCreatedAt: at, platformUpdatedAt: at },
        },
        { upsert: true },
      )
      .exec();
  }

  /** One page of live products, newest first; the count is skipped when the page proves the total. */
  async page(
    scope: ShopScope,
    vendorName: string | null | undefined,
    page: { offset: number; limit: number },
  ): Promise<{ total: number; items: Product[] }> {
    const filter: Record<string, unknown> = { deletedAt: null };
    if (vendorName !== undefined) filter.vendorName = vendorName;
    const where = this.scoped(scope, filter);
    const items = await this.model
      .find(where)
      .sort({ platformCreatedAt: -1, _id: -1 })
      .skip(page.offset)
      .limit(page.limit)
      .lean<Product[]>()
      .exec();
    if (items.length > 0 && items.length < page.limit) return { total: page.offset + items.length, items };
    if (items.length === 0 && page.offset === 0) return { total: 0, items };
    return { total: await this.countWhere(scope, filter), items };
  }

  /**
   * One V2 cursor window of live products, newest first by (platformCreatedAt, _id). Served by
   * (shopId, [vendorName,] deletedAt, [status,] platformCreatedAt, _id, title): the title search is
   * an index-key filter after the sort keys (no document is fetched to test it).
   */
  cursorList(scope: ShopScope, f: ProductListFilter, window: CursorWindow): Promise<CursorRows<Product>> {
    return this.cursorPage<Product>(scope, productFilter(f), window, { timeField: 'platformCreatedAt' });
  }

  /** A live product by our `_id` (a platform id maps to it: productObjectId); null otherwise. */
  async findLive(scope: ShopScope, _id: Types.ObjectId): Promise<Product | null> {
    return this.model
      .findOne(this.scoped(scope, { _id, deletedAt: null }))
      .lean<Product>()
      .exec();
  }

  /** Live products of one vendor name per status (one `$group` on the vendor's list index). */
  async countByStatus(scope: ShopScope, vendorName: string): Promise<Map<string, number>> {
    const groups = await this.model
      .aggregate<{ _id: string; n: number }>([
        { $match: this.scoped(scope, { vendorName, deletedAt: null }) },
        { $group: { _id: '$status', n: { $sum: 1 } } },
      ])
      .exec();
    return new Map(groups.map((g) => [g._id, g.n]));
  }

  /** Live products of the shop (the shop dashboard's productsCount). */
  countLive(scope: ShopScope): Promise<number> {
    return this.countWhere(scope, { deletedAt: null });
  }
}

function productFilter(f: ProductListFilter): Record<string, unknown> {
  return {
    vendorName: f.vendorName,
    deletedAt: null,
    status: f.status,
    title: f.search ? { $regex: literal(f.search), $options: 'i' } : undefined,
  };
}
