import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { ModelOutbox, outboxOnInsert, withOutbox } from '../audit/audit-outbox';
import type { AuditRecord, AuditStamp } from '../audit/audit-record';
import { isDuplicateKeyError } from '../common/errors/duplicate-key';
import type { ShopScope } from '../common/tenancy';
import { TenantRepository } from '../database/tenant-repository';
import { CommissionRuleGroup } from './commission-rule-group.schema';
import { CommissionRule, RULE_LEVELS, type RuleLevel } from './commission-rule.schema';
import type { PendingClaim } from './commission-rule-checks';

/** A rule's stored values (everything but ids, shop and timestamps). */
export type RuleData = Omit<CommissionRule, '_id' | 'shopId' | 'createdAt' | 'updatedAt'>;

/** The list's filters, as stored values (undefined: not filtered). */
export interface RuleListFilter {
  level?: RuleLevel;
  vendorId?: Types.ObjectId;
  productId?: string;
  productTypeKey?: string;
  activeAt?: Date;
}

/** The members of one group (same level, target and vendor) as the overlap check reads them. */
export interface GroupMember {
  _id: Types.ObjectId;
  validFrom: Date | null;
  validTo: Date | null;
}

/** The group's guard as read: its version (0: no document yet) and the claims of writes in flight. */
export interface GroupGuard {
  version: number;
  claims: PendingClaim[];
}

/**
 * The only repository of commission rules and their group guards (commission-rule-group.schema.ts).
 * Every filter goes through `scoped()`; the guard documents carry `shopId` too.
 */
@Injectable()
export class CommissionRulesRepository extends TenantRepository<CommissionRule> {
  /** The audit outbox of rule documents (AuditTrail.commit). */
  readonly outbox: ModelOutbox;
  readonly collectionName = 'commission_rules';

  constructor(
    @InjectModel(CommissionRule.name) model: Model<CommissionRule>,
    @InjectModel(CommissionRuleGroup.name) private readonly groups: Model<CommissionRuleGroup>,
  ) {
    super(model);
    this.outbox = new ModelOutbox(model);
  }

  findById(scope: ShopScope, id: string | Types.ObjectId): Promise<CommissionRule | null> {
    return this.findOneById<CommissionRule>(scope, id);
  }

  /**
   * One page, newest first, and the total. `level` is always filtered (both levels as an `$in`
   * when none is asked for), so each combination of filters has an index with its equality fields
   * first, then the sort, then the `activeAt` range (commission-rule.schema.ts). `activeAt` t:
   * validFrom null or ≤ t, and validTo null or > t, written as `$not` of the opposite comparison
   * (matches null; MongoDB bounds both from the index, no `$or`).
   */
  page(
    scope: ShopScope,
    f: RuleListFilter,
    page: { offset: number; limit: number },
  ): Promise<{ total: number; items: CommissionRule[] }> {
    const where: Record<string, unknown> = {
      level: f.level ?? { $in: [...RULE_LEVELS] },
      vendorId: f.vendorId,
      productId: f.productId,
      productTypeKey: f.productTypeKey,
    };
    if (f.activeAt) {
      where.validFrom = { $not: { $gt: f.activeAt } };
      where.validTo = { $not: { $lte: f.activeAt } };
    }
    return this.offsetPage<CommissionRule>(scope, where, { createdAt: -1, _id: -1 }, page);
  }

  /** Every rule of one group, newest first (the overlap check). */
  groupMembers(
    scope: ShopScope,
    g: {
      level: RuleLevel;
      productId: string | null;
      productTypeKey: string | null;
      vendorId: Types.ObjectId | null;
    },
  ): Promise<GroupMember[]> {
    const target = g.level === 'product' ? { productId: g.productId } : { productTypeKey: g.productTypeKey };
    return this.model
      .find(this.scoped(scope, { level: g.level, ...target, vendorId: g.vendorId }), {
        _id: 1,
        validFrom: 1,
        validTo: 1,
      })
      .sort({ createdAt: -1, _id: -1 })
      .lean<GroupMember[]>()
      .exec();
  }

  async guard(scope: ShopScope, key: string): Promise<GroupGuard> {
    const doc = await this.groups
      .findOne({ _id: key, shopId: new Types.ObjectId(scope.shopId) }, { version: 1, claims: 1 })
      .lean<CommissionRuleGroup>()
      .exec();
    return doc ? { version: doc.version, claims: doc.claims ?? [] } : { version: 0, claims: [] };
  }

  /**
   * Moves the group from `version` to the next one with `claims` as its claims, in one conditional
   * write: false when another writer moved it first (or created it: version 0 inserts, and the
   * unique `_id` refuses the second insert).
   */
  async claim(scope: ShopScope, key: string, version: number, claims: PendingClaim[]): Promise<boolean> {
    const shopId = new Types.ObjectId(scope.shopId);
    if (version === 0) {
      try {
        await this.groups.collection.insertOne({ _id: key, shopId, version: 1, claims } as never);
        return true;
      } catch (err) {
        if (isDuplicateKeyError(err)) return false;
        throw err;
      }
    }
    const res = await this.groups
      .updateOne({ _id: key, shopId, version }, { $set: { version: version + 1, claims } })
      .exec();
    return res.matchedCount === 1;
  }

  /** The rule's write is done (or failed): its claim goes, and the version moves on. */
  async release(scope: ShopScope, key: string, ruleId: Types.ObjectId): Promise<void> {
    await this.groups
      .updateOne(
        { _id: key, shopId: new Types.ObjectId(scope.shopId) },
        { $pull: { claims: { ruleId } }, $inc: { version: 1 } },
      )
      .exec();
  }

  async create(
    scope: ShopScope,
    _id: Types.ObjectId,
    data: RuleData,
    now: Date,
    stamp: AuditStamp | null,
    event: AuditRecord | null,
  ): Promise<CommissionRule> {
    const doc = {
      _id,
      ...data,
      ...(stamp && event ? outboxOnInsert(stamp, event) : {}),
      ...this.owner(scope),
      createdAt: now,
      updatedAt: now,
    };
    await this.model.collection.insertOne(doc as never);
    return { ...doc } as CommissionRule;
  }

  /** Replaces every value of the rule; null when it is gone. */
  replace(
    scope: ShopScope,
    id: Types.ObjectId,
    data: RuleData,
    now: Date,
    stamp: AuditStamp | null,
    event: AuditRecord | null,
  ): Promise<CommissionRule | null> {
    return this.model
      .findOneAndUpdate(
        this.scoped(scope, { _id: id }),
        withOutbox({ $set: { ...data, updatedAt: now } }, stamp, event),
        { new: true, timestamps: false },
      )
      .lean<CommissionRule>()
      .exec();
  }

  async delete(scope: ShopScope, id: Types.ObjectId): Promise<boolean> {
    const res = await this.model.deleteOne(this.scoped(scope, { _id: id })).exec();
    return res.deletedCount === 1;
  }
}
