import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { Clock } from '../common/clock/clock';
import type { LadderRule } from '../common/money';
import type { ShopScope } from '../common/tenancy';
import { dropSupersededIndexes } from '../database/superseded-indexes';
import { TenantRepository } from '../database/tenant-repository';
import { CommissionRule } from './commission-rule.schema';
export type { StoredLadderRule } from './stored-ladder-rule';
import { LADDER_FIELDS, type StoredLadderRule } from './stored-ladder-rule';
import { RulesCache, rulesStampOf, type RulesStampSource } from './rules-cache';

/**
 * The pricing side of the commission rules (DESIGN §13): the rules a batch of lines needs, from this
 * process's cache while the shop's `rulesVersion` (loaded by the pricing read) is the one they were
 * read at, else by seeks of their keys. Reads only; the rules' CRUD has its own repository.
 */
@Injectable()
export class CommissionRuleReadsRepository
  extends TenantRepository<CommissionRule>
  implements OnApplicationBootstrap
{
  constructor(
    @InjectModel(CommissionRule.name) model: Model<CommissionRule>,
    private readonly cache: RulesCache,
    private readonly clock: Clock,
  ) {
    super(model);
  }

  /** The pricing read's indexes gained `_id` (read in a total order): the old ones go. */
  onApplicationBootstrap(): Promise<void> {
    return dropSupersededIndexes(this.model, [
      'shopId_1_level_1_productId_1_vendorId_1_validFrom_1',
      'shopId_1_level_1_productTypeKey_1_vendorId_1_validFrom_1',
    ]);
  }

  /**
   * The type keys among `typeKeys` that have at least one product-type rule in the shop, any date or
   * vendor (the `products:type-keys` backfill reprices only those products). Index shopId, level,
   * productTypeKey, …
   */
  async typeKeysWithRules(scope: ShopScope, typeKeys: string[]): Promise<string[]> {
    if (typeKeys.length === 0) return [];
    const keys = await this.model
      .distinct(
        'productTypeKey',
        this.scoped(scope, { level: 'productType', productTypeKey: { $in: typeKeys } }),
      )
      .exec();
    return keys.filter((k): k is string => typeof k === 'string');
  }

  /**
   * The rules targeting these products and product types, every vendor's and every date's (the
   * ladder picks by date and vendor): `shop`'s stamp (rulesVersion) says whether this process's
   * cache holds them, and a hit costs no command. The keys it misses are read with one seek per
   * level (in parallel) and kept for that version unless a rule write is in flight.
   */
  async rulesFor(
    scope: ShopScope,
    shop: RulesStampSource,
    productIds: string[],
    typeKeys: string[],
  ): Promise<StoredLadderRule[]> {
    const stamp = rulesStampOf(shop, this.clock.now());
    const cached = this.cache.lookup(scope.shopId, stamp.version, productIds, typeKeys);
    const { missingProductIds: ids, missingTypeKeys: keys } = cached;
    if (ids.length === 0 && keys.length === 0) return cached.rules;
    const [products, types] = await Promise.all([
      this.targeting(scope, 'product', 'productId', ids),
      this.targeting(scope, 'productType', 'productTypeKey', keys),
    ]);
    const found = [...products, ...types];
    if (stamp.cacheable) this.cache.remember(scope.shopId, stamp.version, ids, keys, found);
    return [...cached.rules, ...found];
  }

  /**
   * The rules of one level whose target is one of `values`, in the order of the index that serves
   * the read (shopId, level, target, vendorId, validFrom, _id): a total order, so the development
   * store seeks instead of trying every candidate plan over the collection (database/store-ranges.ts).
   * MongoDB: the same index range, already in that order.
   */
  private targeting(
    scope: ShopScope,
    level: StoredLadderRule['level'],
    field: 'productId' | 'productTypeKey',
    values: string[],
  ): Promise<StoredLadderRule[]> {
    if (values.length === 0) return Promise.resolve([]);
    return this.model
      .find(this.scoped(scope, { level, [field]: { $in: values } }), LADDER_FIELDS)
      .sort({ [field]: 1, vendorId: 1, validFrom: 1, _id: 1 })
      .lean<StoredLadderRule[]>()
      .exec();
  }
}

/** A stored rule as the ladder's plain shape. */
export function toLadderRule(r: StoredLadderRule): LadderRule {
  return {
    id: String(r._id),
    level: r.level,
    productId: r.productId ?? null,
    productTypeKey: r.productTypeKey ?? null,
    vendorId: r.vendorId ? String(r.vendorId as Types.ObjectId) : null,
    commissionType: r.commissionType,
    commissionAmount: r.commissionAmount,
    flatAmount: r.flatAmount ?? null,
    minimum: r.minimum ?? null,
    maximum: r.maximum ?? null,
    validFrom: r.validFrom ? new Date(r.validFrom) : null,
    validTo: r.validTo ? new Date(r.validTo) : null,
  };
}
