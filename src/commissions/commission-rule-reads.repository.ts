import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import type { LadderRule } from '../common/money';
import type { ShopScope } from '../common/tenancy';
import type { JoinedRead, UnionPart } from '../database/read-together';
import { TenantRepository } from '../database/tenant-repository';
import { CommissionRule } from './commission-rule.schema';

/** What the ladder reads of a rule. */
const LADDER_FIELDS = {
  level: 1,
  productId: 1,
  productTypeKey: 1,
  vendorId: 1,
  commissionType: 1,
  commissionAmount: 1,
  flatAmount: 1,
  minimum: 1,
  maximum: 1,
  validFrom: 1,
  validTo: 1,
} as const;

/** A rule as the pricing read returns it. */
export type StoredLadderRule = Pick<CommissionRule, '_id' | keyof typeof LADDER_FIELDS>;

/**
 * The pricing side of the commission rules (DESIGN §13): the parts of the pricing read that bring
 * the rules a batch of lines needs. Reads only; the rules' CRUD has its own repository.
 */
@Injectable()
export class CommissionRuleReadsRepository extends TenantRepository<CommissionRule> {
  constructor(@InjectModel(CommissionRule.name) model: Model<CommissionRule>) {
    super(model);
  }

  /** The product rules of these products, every vendor's (index shopId, level, productId, …). */
  productRulesPart(tag: string, scope: ShopScope, productIds: string[]): UnionPart | null {
    if (productIds.length === 0) return null;
    return this.readPart(tag, scope, { level: 'product', productId: { $in: productIds } }, LADDER_FIELDS);
  }

  /**
   * The product-type rules of these type keys (a preview names its type): index shopId, level,
   * productTypeKey, …
   */
  typeRulesPart(tag: string, scope: ShopScope, typeKeys: string[]): UnionPart | null {
    if (typeKeys.length === 0) return null;
    return this.readPart(
      tag,
      scope,
      { level: 'productType', productTypeKey: { $in: typeKeys } },
      LADDER_FIELDS,
    );
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
   * The product-type rules of each product of a part, joined on its `productTypeKey` in the same
   * command (index shopId, level, productTypeKey, …): only the types a batch's products have, never
   * every type rule of the shop.
   */
  typeRulesJoin(as: string, scope: ShopScope): JoinedRead {
    return this.joinedRead(
      as,
      scope,
      'productTypeKey',
      'productTypeKey',
      { level: 'productType' },
      LADDER_FIELDS,
    );
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
