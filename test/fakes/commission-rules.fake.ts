import { Types } from 'mongoose';
import type { PendingClaim } from '../../src/commissions/commission-rule-checks';
import type { CommissionRule } from '../../src/commissions/commission-rule.schema';
import type {
  CommissionRulesRepository,
  GroupGuard,
  GroupMember,
  RuleData,
} from '../../src/commissions/commission-rules.repository';
import type { ShopScope } from '../../src/common/tenancy';
import type { ShopsRepository } from '../../src/shops/shops.repository';
import { inScope } from './fake';

type RuleMethods =
  | 'findById'
  | 'groupMembers'
  | 'guard'
  | 'claim'
  | 'release'
  | 'create'
  | 'replace'
  | 'delete'
  | 'collectionName';

/**
 * The rules and their group guards in memory. `claim` is the conditional update the real one is:
 * it succeeds only on the version read (version 0: only while no guard exists). The hooks let a
 * test run another writer between a read and a claim, or between a claim and its write.
 */
export class FakeCommissionRulesRepository implements Pick<CommissionRulesRepository, RuleMethods> {
  readonly collectionName = 'commission_rules';
  readonly rules: CommissionRule[] = [];
  readonly guards = new Map<string, { shopId: string; version: number; claims: PendingClaim[] }>();
  /** Runs once, at the start of the next `claim` (then cleared). */
  beforeClaim: (() => Promise<void>) | null = null;
  /** Runs once, at the start of the next `create` / `replace` (then cleared). */
  beforeWrite: (() => Promise<void>) | null = null;
  claimsLost = 0;

  async findById(scope: ShopScope, id: string | Types.ObjectId): Promise<CommissionRule | null> {
    const found = inScope(scope, this.rules).find((r) => String(r._id) === String(id));
    return found ? { ...found } : null;
  }

  async groupMembers(
    scope: ShopScope,
    g: Pick<RuleData, 'level' | 'productId' | 'productTypeKey' | 'vendorId'>,
  ): Promise<GroupMember[]> {
    return inScope(scope, this.rules)
      .filter(
        (r) =>
          r.level === g.level &&
          (g.level === 'product' ? r.productId === g.productId : r.productTypeKey === g.productTypeKey) &&
          String(r.vendorId) === String(g.vendorId),
      )
      .map((r) => ({ _id: r._id, validFrom: r.validFrom, validTo: r.validTo }));
  }

  async guard(scope: ShopScope, key: string): Promise<GroupGuard> {
    const g = this.guards.get(key);
    if (!g || g.shopId !== scope.shopId) return { version: 0, claims: [] };
    return { version: g.version, claims: g.claims.map((c) => ({ ...c })) };
  }

  async claim(scope: ShopScope, key: string, version: number, claims: PendingClaim[]): Promise<boolean> {
    const hook = this.beforeClaim;
    this.beforeClaim = null;
    if (hook) await hook();
    const g = this.guards.get(key);
    if ((g?.version ?? 0) !== version) {
      this.claimsLost++;
      return false;
    }
    this.guards.set(key, {
      shopId: scope.shopId,
      version: version + 1,
      claims: claims.map((c) => ({ ...c })),
    });
    return true;
  }

  async release(_scope: ShopScope, key: string, ruleId: Types.ObjectId): Promise<void> {
    const g = this.guards.get(key);
    if (!g) return;
    g.claims = g.claims.filter((c) => !c.ruleId.equals(ruleId));
    g.version++;
  }

  async create(scope: ShopScope, _id: Types.ObjectId, data: RuleData, now: Date): Promise<CommissionRule> {
    await this.runWriteHook();
    const doc = { _id, ...data, shopId: new Types.ObjectId(scope.shopId), createdAt: now, updatedAt: now };
    this.rules.push(doc);
    return { ...doc };
  }

  async replace(
    scope: ShopScope,
    id: Types.ObjectId,
    data: RuleData,
    now: Date,
  ): Promise<CommissionRule | null> {
    await this.runWriteHook();
    const doc = inScope(scope, this.rules).find((r) => r._id.equals(id));
    if (!doc) return null;
    Object.assign(doc, data, { updatedAt: now });
    return { ...doc };
  }

  async delete(scope: ShopScope, id: Types.ObjectId): Promise<boolean> {
    const i = this.rules.findIndex((r) => r._id.equals(id) && String(r.shopId) === scope.shopId);
    if (i < 0) return false;
    this.rules.splice(i, 1);
    return true;
  }

  private async runWriteHook(): Promise<void> {
    const hook = this.beforeWrite;
    this.beforeWrite = null;
    if (hook) await hook();
  }
}

/** The shops' rule stamps (shop.schema.ts `rulesVersion`) as ShopsRepository moves them. */
export class FakeRulesStamps implements Pick<ShopsRepository, 'startRulesWrite' | 'endRulesWrite'> {
  readonly stamps = new Map<
    string,
    { rulesVersion: number; rulesWriting: number; rulesWriteAt: Date | null }
  >();

  of(shopId: string): { rulesVersion: number; rulesWriting: number; rulesWriteAt: Date | null } {
    let s = this.stamps.get(shopId);
    if (!s) this.stamps.set(shopId, (s = { rulesVersion: 0, rulesWriting: 0, rulesWriteAt: null }));
    return s;
  }

  async startRulesWrite(shopId: string, at: Date): Promise<void> {
    const s = this.of(shopId);
    s.rulesVersion++;
    s.rulesWriting++;
    s.rulesWriteAt = at;
  }

  async endRulesWrite(shopId: string): Promise<void> {
    const s = this.of(shopId);
    s.rulesVersion++;
    s.rulesWriting--;
  }
}
