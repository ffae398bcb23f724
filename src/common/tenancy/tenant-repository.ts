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
    const out: Record<string, unknown> = { ...filter, shopId: new Types.ObjectId(scope.shopId) };
    if (scope.vendorId && this.vendorField) out[this.vendorField] = new Types.ObjectId(scope.vendorId);
    return out;
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
