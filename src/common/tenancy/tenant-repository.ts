import { isValidObjectId, Model, Types } from 'mongoose';
import type { ShopScope } from './scope';

/** Anything that stores an owner shop; `vendorId` on vendor-owned records. */
export interface TenantDocument {
  shopId: Types.ObjectId;
}

/**
 * Base of every tenant repository. `scoped()` merges the tenant last, so no caller-supplied filter
 * can widen or replace it; vendor callers are narrowed to their vendor where the collection has one.
 */
export abstract class TenantRepository<T extends TenantDocument> {
  /** Name of the field that holds the owning vendor, or null when the collection is shop-level. */
  protected readonly vendorField: string | null = null;

  protected constructor(protected readonly model: Model<T>) {}

  protected scoped(scope: ShopScope, filter: Record<string, unknown> = {}): Record<string, unknown> {
    // An undefined value is an absent filter (optional query parameters), never "match null".
    const given = Object.entries(filter).filter(([, v]) => v !== undefined);
    const out: Record<string, unknown> = {
      ...Object.fromEntries(given),
      shopId: new Types.ObjectId(scope.shopId),
    };
    if (scope.vendorId && this.vendorField) out[this.vendorField] = new Types.ObjectId(scope.vendorId);
    return out;
  }

  /**
   * One page of a v1 offset list plus the total. The count query is skipped when the page itself
   * proves the total (a short page), which halves the reads of most list calls.
   */
  protected async offsetPage<R = T>(
    scope: ShopScope,
    filter: Record<string, unknown>,
    sort: Record<string, 1 | -1>,
    page: { offset: number; limit: number },
    projection?: Record<string, 0 | 1>,
  ): Promise<{ total: number; items: R[] }> {
    const where = this.scoped(scope, filter);
    const items = (await this.model
      .find(where, projection)
      .sort(sort)
      .skip(page.offset)
      .limit(page.limit)
      .lean()
      .exec()) as R[];
    if (items.length > 0 && items.length < page.limit) return { total: page.offset + items.length, items };
    if (items.length === 0 && page.offset === 0) return { total: 0, items };
    return { total: await this.model.countDocuments(where).exec(), items };
  }

  /** Values to stamp on a new document of this scope. */
  protected owner(scope: ShopScope): { shopId: Types.ObjectId } {
    return { shopId: new Types.ObjectId(scope.shopId) };
  }
}

/** A path id that is not an ObjectId can match nothing: callers answer 404, never 500. */
export function toObjectId(id: string): Types.ObjectId | null {
  return typeof id === 'string' && /^[0-9a-fA-F]{24}$/.test(id) && isValidObjectId(id)
    ? new Types.ObjectId(id)
    : null;
}
