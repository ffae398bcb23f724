import type { Schema } from 'mongoose';
import { QUERY_OPS } from './query-ops';

export class MissingTenantError extends Error {}

/** The query option that lets one query through without `shopId`: set only through `systemQuery()`. */
const SYSTEM_QUERY_OPTION = 'mpSystemQuery';

/**
 * THE opt-out of the tenant guard, for the system's own cross-shop work (sweepers, retention,
 * metrics), never for a request: `Model.find(filter).setOptions(systemQuery('why'))`. Used only by
 * the `System*` repositories (`grep -rn systemQuery src`), each query of which names its reason and
 * is served by a declared index that does not start with shopId.
 */
export function systemQuery(reason: string): Record<string, string> {
  return { [SYSTEM_QUERY_OPTION]: reason };
}

/**
 * Second line of tenancy defence (the first is the repository's `scoped()`): on any collection
 * whose documents have a `shopId`, a query or aggregation without one throws instead of reading
 * across shops, unless it carries the `systemQuery()` option.
 */
export function tenantGuardPlugin(schema: Schema): void {
  if (!schema.path('shopId')) return;
  schema.pre(
    QUERY_OPS as unknown as RegExp,
    function (this: {
      getFilter(): Record<string, unknown>;
      getOptions(): Record<string, unknown>;
      model: { modelName: string };
    }) {
      const options = this.getOptions();
      if (typeof options?.[SYSTEM_QUERY_OPTION] === 'string') {
        // Not a driver option: it must not travel with the command.
        delete options[SYSTEM_QUERY_OPTION];
        return;
      }
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
