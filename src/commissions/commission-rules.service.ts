import { Injectable, Logger } from '@nestjs/common';
import { Types } from 'mongoose';
import { AuditTrail } from '../audit/audit-trail.service';
import { Clock } from '../common/clock/clock';
import { ConflictError, NotFoundError, ValidationError } from '../common/errors';
import { nextOffset } from '../common/pagination';
import { toObjectId, type ShopScope } from '../common/tenancy';
import { ShopsRepository } from '../shops/shops.repository';
import { VendorsRepository } from '../vendors/vendors.repository';
import {
  checkRuleBody,
  firstProblem,
  groupKey,
  liveClaims,
  overlappingRule,
  PRODUCT_ID_PATTERN,
  type RuleBody,
} from './commission-rule-checks';
import { ruleAuditView, toCommissionRuleResponse } from './commission-rule.mapper';
import type { CommissionRule } from './commission-rule.schema';
import { CommissionRulesRepository, type GroupGuard, type RuleData } from './commission-rules.repository';
import type {
  CommissionRuleDryRunDto,
  CommissionRuleDto,
  CommissionRuleListDto,
  CommissionRuleListQueryDto,
  DeletedCommissionRuleDto,
} from './dto/commission-rule.dto';
import { RuleImpactEstimator } from './rule-impact-estimator';

/** Rounds of read-check-claim a write makes before it gives up on a group others keep changing. */
export const MAX_CLAIM_ATTEMPTS = 10;
const RESOURCE = 'commission_rule' as const;

/**
 * Commission rules of the ladder (DESIGN §13): create, replace, delete, read, list, dry run. Two
 * rules of one group (level, target, vendor) never overlap in time; the check is made race-safe
 * without transactions by the group's guard document (commission-rule-group.schema.ts).
 */
@Injectable()
export class CommissionRulesService {
  private readonly logger = new Logger('CommissionRules');

  constructor(
    private readonly rules: CommissionRulesRepository,
    private readonly vendors: VendorsRepository,
    private readonly estimator: RuleImpactEstimator,
    private readonly clock: Clock,
    private readonly audit: AuditTrail,
    private readonly shops: ShopsRepository,
  ) {}

  async create(scope: ShopScope, body: RuleBody): Promise<CommissionRuleDto> {
    const data = await this.prepare(scope, body);
    const _id = new Types.ObjectId();
    const now = this.clock.now();
    const stamp = this.audit.begin();
    const event = this.audit.created(scope, stamp, 'commission_rule.create', res(_id), ruleAuditView(data));
    const created = await this.guarded(scope, data, _id, () =>
      this.rules.create(scope, _id, data, now, stamp, event),
    );
    await this.audit.commit(scope, this.rules.outbox, stamp, [event], 'all');
    return toCommissionRuleResponse(created);
  }

  async replace(scope: ShopScope, id: string, body: RuleBody): Promise<CommissionRuleDto> {
    const current = await this.load(scope, id);
    const data = await this.prepare(scope, body);
    const stamp = this.audit.begin();
    const event = this.audit.changed(
      scope,
      stamp,
      'commission_rule.update',
      res(current._id),
      ruleAuditView(current),
      ruleAuditView(data),
    );
    const updated = await this.guarded(scope, data, current._id, () =>
      this.rules.replace(scope, current._id, data, this.clock.now(), stamp, event),
    );
    if (!updated) throw new NotFoundError('Commission rule');
    await this.audit.commit(scope, this.rules.outbox, stamp, [event], [updated._id]);
    return toCommissionRuleResponse(updated);
  }

  /** `?dryRun=true`: every check of a create (`id` null) or replace, then the estimate; nothing is written. */
  async dryRun(scope: ShopScope, id: string | null, body: RuleBody): Promise<CommissionRuleDryRunDto> {
    const current = id === null ? null : await this.load(scope, id);
    const data = await this.prepare(scope, body);
    const key = groupKey(scope.shopId, { ...data, vendorId: data.vendorId ? String(data.vendorId) : null });
    await this.checkOverlap(scope, data, current?._id ?? null, key);
    const impact = await this.estimator.evaluate(scope, { ...data, _id: current?._id ?? null });
    const now = this.clock.now();
    const rule = toCommissionRuleResponse({
      ...data,
      _id: current?._id ?? new Types.ObjectId(),
      shopId: new Types.ObjectId(scope.shopId),
      createdAt: current?.createdAt ?? now,
      updatedAt: now,
    });
    return {
      rule: { ...rule, _id: current ? rule._id : null },
      affectedLines: impact.affectedLines,
      affectedLineSample: impact.affectedLineSample,
      payoutDelta: impact.payoutDelta,
    };
  }

  async remove(scope: ShopScope, id: string): Promise<DeletedCommissionRuleDto> {
    const current = await this.load(scope, id);
    // The document (and its outbox) goes: the deletion event is stored as pending first.
    const pending = await this.audit.intendDelete(
      scope,
      this.audit.begin(),
      'commission_rule.delete',
      res(current._id),
      ruleAuditView(current),
      this.rules.collectionName,
    );
    const deleted = await this.stamped(scope, () => this.rules.delete(scope, current._id));
    await this.audit.finishDelete(scope, pending, deleted);
    if (!deleted) throw new NotFoundError('Commission rule');
    return { _id: String(current._id), deleted: true };
  }

  async get(scope: ShopScope, id: string): Promise<CommissionRuleDto> {
    return toCommissionRuleResponse(await this.load(scope, id));
  }

  async list(scope: ShopScope, q: CommissionRuleListQueryDto): Promise<CommissionRuleListDto> {
    if (q.productId !== undefined && !PRODUCT_ID_PATTERN.test(q.productId))
      throw new ValidationError('productId must be a platform product id (a decimal string)');
    if (q.productId !== undefined && q.productType !== undefined)
      throw new ValidationError('Filter by productId or by productType, not both');
    const implied =
      q.productId !== undefined ? 'product' : q.productType !== undefined ? 'productType' : null;
    if (implied && q.level && q.level !== implied)
      throw new ValidationError(
        `The ${implied === 'product' ? 'productId' : 'productType'} filter selects ${implied} rules; level must be ${implied} or omitted`,
      );
    const productTypeKey = q.productType?.trim().toLowerCase();
    if (productTypeKey === '') throw new ValidationError('productType must not be empty');
    const page = { offset: q.offset, limit: q.limit };
    const { total, items } = await this.rules.page(
      scope,
      {
        level: q.level ?? implied ?? undefined,
        vendorId: q.vendorId ? new Types.ObjectId(q.vendorId) : undefined,
        productId: q.productId,
        productTypeKey,
        activeAt: q.activeAt ? new Date(q.activeAt) : undefined,
      },
      page,
    );
    return { total, nextOffset: nextOffset(page, total), rules: items.map(toCommissionRuleResponse) };
  }

  /**
   * The body's rules, then its vendor: 422 naming the field, nothing written. A deactivated vendor is
   * still a vendor of the shop: its lines are priced by the ladder and paid (vendor-policy.ts), and it
   * may be reactivated, so a rule for it is accepted like its API keys and tax profile are.
   */
  private async prepare(scope: ShopScope, body: RuleBody): Promise<RuleData> {
    const check = checkRuleBody(body);
    if (!check.ok) throw new ValidationError(firstProblem(check.fields), { fields: check.fields });
    const { vendorId, ...values } = check.values;
    let vendor: Types.ObjectId | null = null;
    if (vendorId !== null) {
      const found = toObjectId(vendorId) ? await this.vendors.findById(scope, vendorId) : null;
      if (!found) {
        const message = `vendorId ${vendorId} is not a vendor of this shop`;
        throw new ValidationError(message, { fields: { vendorId: [message] } });
      }
      vendor = found._id;
    }
    return { ...values, vendorId: vendor };
  }

  /**
   * Runs `write` once this rule's interval is claimed in its group: read the guard, then the
   * group's rules, check, and claim with the version read (commission-rule-group.schema.ts). A lost
   * claim means another write moved the group: read again. The claim is released after the write.
   */
  private async guarded<T>(
    scope: ShopScope,
    data: RuleData,
    ruleId: Types.ObjectId,
    write: () => Promise<T>,
  ): Promise<T> {
    const key = groupKey(scope.shopId, { ...data, vendorId: data.vendorId ? String(data.vendorId) : null });
    for (let attempt = 0; attempt < MAX_CLAIM_ATTEMPTS; attempt++) {
      const guard = await this.checkOverlap(scope, data, ruleId, key);
      const now = this.clock.now();
      const claims = [
        ...liveClaims(guard.claims, now).filter((c) => !c.ruleId.equals(ruleId)),
        { ruleId, validFrom: data.validFrom, validTo: data.validTo, at: now },
      ];
      if (!(await this.rules.claim(scope, key, guard.version, claims))) {
        await pause(attempt);
        continue;
      }
      try {
        return await this.stamped(scope, write);
      } finally {
        await this.rules
          .release(scope, key, ruleId)
          .catch((err: unknown) =>
            this.logger.warn({ err: (err as Error)?.message, key }, 'Rule claim not released; it lapses'),
          );
      }
    }
    throw new ConflictError('The rules of this product or type kept changing meanwhile; retry the request');
  }

  /**
   * Runs a rule's write between two moves of the shop's rules stamp (shop.schema.ts `rulesVersion`):
   * every process's cached rules of the shop stop matching before the write lands, and rules read
   * while it is in flight are not cached; the closing move retires any read in between.
   */
  private async stamped<T>(scope: ShopScope, write: () => Promise<T>): Promise<T> {
    await this.shops.startRulesWrite(scope.shopId, this.clock.now());
    try {
      return await write();
    } finally {
      await this.shops.endRulesWrite(scope.shopId);
    }
  }

  /** 409 naming the other rule when the candidate's interval meets one of its group's. */
  private async checkOverlap(
    scope: ShopScope,
    data: RuleData,
    self: Types.ObjectId | null,
    key: string,
  ): Promise<GroupGuard> {
    // The guard first, then the rules: a claim released before the rules are read left its rule visible.
    const guard = await this.rules.guard(scope, key);
    const members = await this.rules.groupMembers(scope, data);
    const other = overlappingRule(
      { _id: self, validFrom: data.validFrom, validTo: data.validTo },
      members,
      liveClaims(guard.claims, this.clock.now()),
    );
    if (other) {
      throw new ConflictError(
        `Overlaps commission rule ${String(other)} (same level, target and vendor; intervals are [validFrom, validTo))`,
        { conflictingRuleId: String(other) },
      );
    }
    return guard;
  }

  private async load(scope: ShopScope, id: string): Promise<CommissionRule> {
    const found = await this.rules.findById(scope, id);
    if (!found) throw new NotFoundError('Commission rule');
    return found;
  }
}

function res(id: Types.ObjectId): { type: typeof RESOURCE; id: Types.ObjectId } {
  return { type: RESOURCE, id };
}

/** A short, growing, jittered wait before another round (concurrent writers spread out). */
function pause(attempt: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * (attempt + 1)));
}
