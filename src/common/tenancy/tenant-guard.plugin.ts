import type { Schema } from 'mongoose';

const QUERY_OPS = [
  'find',
  'findOne',
  'findOneAndUpdate',
  'findOneAndDelete',
  'findOneAndReplace',
  'countDocuments',
  'updateOne',
  'updateMany',
  'deleteOne',
  'deleteMany',
  'replaceOne',
  'distinct',
] as const;

export class MissingTenantError extends Error {}

/**
 * Second line of tenancy defence (the first is the repository's `scoped()`): on any collection
 * whose documents have a `shopId`, a query or aggregation without one throws instead of reading
 * across shops.
 */
export function tenantGuardPlugin(schema: Schema): void {
  if (!schema.path('shopId')) return;
  schema.pre(
    QUERY_OPS as unknown as RegExp,
    function (this: { getFilter(): Record<string, unknown>; model: { modelName: string } }) {
      const filter = this.getFilter();
      if (!filter || filter.shopId === undefined || filter.shopId === null) {
        throw new MissingTenantError(`Query on ${this.model.modelName} without shopId`);
      }
    },
  );
  schema.pre(
    'aggregate' as unknown as RegExp,
    function (this: { pipeline(): Record<string, unknown>[]; model(): { modelName: string } }) {
      const first = this.pipeline()[0] as { $match?: Record<string, unknown> } | undefined;
      if (!first?.$match || first.$match.shopId === undefined) {
        throw new MissingTenantError('Aggregation without a leading $match on shopId');
      }
    },
  );
}
