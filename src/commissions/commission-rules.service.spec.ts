import { Types } from 'mongoose';
import { fakeAuditTrail } from '../../test/fakes/audit.fake';
import { FakeCommissionRulesRepository, FakeRulesStamps } from '../../test/fakes/commission-rules.fake';
import { asReal, FixedClock, OTHER_SHOP, SHOP } from '../../test/fakes/fake';
import { FakeVendorsRepository, vendor } from '../../test/fakes/vendors.fake';
import { ConflictError, NotFoundError, ValidationError } from '../common/errors';
import type { ShopsRepository } from '../shops/shops.repository';
import type { VendorsRepository } from '../vendors/vendors.repository';
import { CLAIM_TTL_MS, groupKey, type RuleBody } from './commission-rule-checks';
import type { CommissionRulesRepository } from './commission-rules.repository';
import { CommissionRulesService } from './commission-rules.service';
import type { RuleImpactEstimator } from './rule-impact-estimator';

/** What the default estimator throws: the dry-run test proves the estimator is reached only after the checks. */
class NoEstimator extends Error {}

const body = (extra: Partial<RuleBody> = {}): RuleBody => ({
  level: 'product',
  productId: '42',
  commissionType: 'percentage',
  commissionAmount: 10,
  ...extra,
});

describe('CommissionRulesService (repositories faked)', () => {
  let rules: FakeCommissionRulesRepository;
  let vendors: FakeVendorsRepository;
  let clock: FixedClock;
  let estimator: RuleImpactEstimator;
  let service: CommissionRulesService;
  let stamps: FakeRulesStamps;
  let trail: ReturnType<typeof fakeAuditTrail>;

  beforeEach(() => {
    stamps = new FakeRulesStamps();
    rules = new FakeCommissionRulesRepository();
    vendors = new FakeVendorsRepository();
    clock = new FixedClock(new Date('2026-11-21T12:00:00.000Z'));
    estimator = { evaluate: () => Promise.reject(new NoEstimator()) };
    service = new CommissionRulesService(
      asReal<CommissionRulesRepository>(rules),
      asReal<VendorsRepository>(vendors),
      { evaluate: (s, c) => estimator.evaluate(s, c) },
      clock,
      (trail = fakeAuditTrail(clock)),
      asReal<ShopsRepository>(stamps),
    );
  });

  it("moves the shop's rules stamp before each write lands and after it ends, failed or not", async () => {
    // what a pricing read sees while the write is in flight: a new version, marked in flight
    const during: unknown[] = [];
    rules.beforeWrite = async () => void during.push({ ...stamps.of(SHOP.shopId) });
    const created = await service.create(SHOP, body());
    expect(during).toEqual([{ rulesVersion: 1, rulesWriting: 1, rulesWriteAt: clock.now() }]);
    expect(stamps.of(SHOP.shopId)).toMatchObject({ rulesVersion: 2, rulesWriting: 0 });
    await service.replace(SHOP, created._id, body({ commissionAmount: 11 }));
    await service.remove(SHOP, created._id);
    expect(stamps.of(SHOP.shopId)).toMatchObject({ rulesVersion: 6, rulesWriting: 0 });
    // a write that fails still ends its stamp (no write left counted in flight)
    rules.beforeWrite = () => Promise.reject(new Error('store down'));
    await expect(service.create(SHOP, body())).rejects.toThrow('store down');
    expect(stamps.of(SHOP.shopId)).toMatchObject({ rulesVersion: 8, rulesWriting: 0 });
    // refused before writing: the stamp does not move; another shop's stamp never does
    await expect(service.create(SHOP, body({ commissionAmount: 101 }))).rejects.toBeInstanceOf(
      ValidationError,
    );
    expect(stamps.of(SHOP.shopId).rulesVersion).toBe(8);
    expect(stamps.stamps.has(OTHER_SHOP.shopId)).toBe(false);
  });

  it('creates a rule and releases its claim', async () => {
    const created = await service.create(SHOP, body({ validFrom: '2026-01-01T00:00:00Z' }));
    expect(created).toMatchObject({ productId: '42', vendorId: null, validFrom: '2026-01-01T00:00:00.000Z' });
    expect(rules.rules).toHaveLength(1);
    const guard = rules.guards.get(
      groupKey(SHOP.shopId, { level: 'product', productId: '42', productTypeKey: null, vendorId: null }),
    );
    expect(guard).toMatchObject({ version: 2, claims: [] });
  });

  it('refuses a vendor of another shop (422 naming it), writing nothing', async () => {
    const [foreign] = vendors.add(vendor('elsewhere', {}, OTHER_SHOP));
    const attempt = service.create(SHOP, body({ vendorId: String(foreign._id) }));
    await expect(attempt).rejects.toBeInstanceOf(ValidationError);
    await expect(attempt).rejects.toMatchObject({
      message: `vendorId ${String(foreign._id)} is not a vendor of this shop`,
    });
    expect(rules.rules).toHaveLength(0);
    expect(rules.guards.size).toBe(0);
  });

  it('accepts a rule for a deactivated vendor, as for an active one (its lines are still priced and paid)', async () => {
    const [inactive] = vendors.add(vendor('dormant', { active: false }));
    const created = await service.create(SHOP, body({ vendorId: String(inactive._id) }));
    expect(created).toMatchObject({ vendorId: String(inactive._id), level: 'product', productId: '42' });
    expect(rules.rules).toHaveLength(1);
    expect(String(rules.rules[0].vendorId)).toBe(String(inactive._id));
  });

  it('audits create, replace and delete as commission_rule.create|update|delete (present tense)', async () => {
    const created = jest.spyOn(trail, 'created');
    const changed = jest.spyOn(trail, 'changed');
    const deleted = jest.spyOn(trail, 'intendDelete');
    const rule = await service.create(SHOP, body());
    await service.replace(SHOP, rule._id, body({ commissionAmount: 12 }));
    await service.remove(SHOP, rule._id);
    expect(created.mock.calls.map((c) => c[2])).toEqual(['commission_rule.create']);
    expect(changed.mock.calls.map((c) => c[2])).toEqual(['commission_rule.update']);
    expect(deleted.mock.calls.map((c) => c[2])).toEqual(['commission_rule.delete']);
  });

  it('keeps a vendor rule and the shop-wide rule of one target apart', async () => {
    const [mine] = vendors.add(vendor('mine'));
    await service.create(SHOP, body());
    await service.create(SHOP, body({ vendorId: String(mine._id) }));
    await expect(
      service.create(SHOP, body({ vendorId: String(mine._id), validFrom: '2027-01-01T00:00:00Z' })),
    ).rejects.toBeInstanceOf(ConflictError);
    expect(rules.rules).toHaveLength(2);
  });

  it('a writer whose claim was overtaken reads again and sees the winner (409 naming it)', async () => {
    let winner: string | null = null;
    // the first writer has read the group (empty); before it claims, a second one runs to the end
    rules.beforeClaim = async () => {
      winner = (await service.create(SHOP, body({ validFrom: '2026-06-01T00:00:00Z' })))._id;
    };
    const loser = service.create(SHOP, body({ validTo: '2026-07-01T00:00:00Z' }));
    await expect(loser).rejects.toBeInstanceOf(ConflictError);
    await expect(loser).rejects.toMatchObject({ details: { conflictingRuleId: winner } });
    expect(rules.claimsLost).toBe(1);
    expect(rules.rules.map((r) => String(r._id))).toEqual([winner]);
  });

  it('a claim made but not written yet blocks an overlapping writer (409 naming the claimed rule)', async () => {
    let blocked: unknown = null;
    rules.beforeWrite = async () => {
      blocked = await service.create(SHOP, body({ commissionAmount: 20 })).catch((e: unknown) => e);
    };
    const first = await service.create(SHOP, body());
    expect(blocked).toBeInstanceOf(ConflictError);
    expect((blocked as ConflictError).details).toEqual({ conflictingRuleId: first._id });
    expect(rules.rules).toHaveLength(1);
  });

  it('a claim left by a write that died blocks its interval for CLAIM_TTL_MS, then lapses', async () => {
    const key = groupKey(SHOP.shopId, {
      level: 'product',
      productId: '42',
      productTypeKey: null,
      vendorId: null,
    });
    const dead = new Types.ObjectId();
    rules.guards.set(key, {
      shopId: SHOP.shopId,
      version: 3,
      claims: [{ ruleId: dead, validFrom: null, validTo: null, at: clock.now() }],
    });
    await expect(service.create(SHOP, body())).rejects.toMatchObject({
      details: { conflictingRuleId: String(dead) },
    });
    clock.set(new Date(clock.now().getTime() + CLAIM_TTL_MS));
    await expect(service.create(SHOP, body())).resolves.toMatchObject({ productId: '42' });
    expect(rules.guards.get(key)!.claims).toEqual([]);
  });

  it('gives up with a 409 when every claim is overtaken', async () => {
    const overtake = async (): Promise<void> => {
      rules.beforeClaim = overtake;
      const g = rules.guards.get(
        groupKey(SHOP.shopId, { level: 'product', productId: '42', productTypeKey: null, vendorId: null }),
      );
      if (g) g.version++;
      else
        rules.guards.set(
          groupKey(SHOP.shopId, { level: 'product', productId: '42', productTypeKey: null, vendorId: null }),
          { shopId: SHOP.shopId, version: 1, claims: [] },
        );
    };
    rules.beforeClaim = overtake;
    await expect(service.create(SHOP, body())).rejects.toMatchObject({
      message: expect.stringMatching(/kept changing/),
    });
    expect(rules.rules).toHaveLength(0);
  });

  it("replace checks the overlap without the rule itself, and 404s another shop's rule", async () => {
    const a = await service.create(SHOP, body({ validTo: '2026-02-01T00:00:00Z' }));
    const b = await service.create(SHOP, body({ validFrom: '2026-02-01T00:00:00Z' }));
    await expect(
      service.replace(SHOP, a._id, body({ validTo: '2026-03-01T00:00:00Z' })),
    ).rejects.toMatchObject({
      details: { conflictingRuleId: b._id },
    });
    const replaced = await service.replace(
      SHOP,
      a._id,
      body({ commissionType: 'flat', commissionAmount: 3, validTo: '2026-02-01T00:00:00Z' }),
    );
    expect(replaced).toMatchObject({ _id: a._id, commissionType: 'flat', commissionAmount: 3 });
    await expect(service.replace(OTHER_SHOP, a._id, body())).rejects.toBeInstanceOf(NotFoundError);
    await expect(service.remove(OTHER_SHOP, a._id)).rejects.toBeInstanceOf(NotFoundError);
    expect(rules.rules).toHaveLength(2);
  });

  it('dry run: validation and overlap first, then the estimator; nothing written', async () => {
    await expect(service.dryRun(SHOP, null, body({ commissionAmount: 101 }))).rejects.toBeInstanceOf(
      ValidationError,
    );
    await expect(service.dryRun(SHOP, null, body())).rejects.toBeInstanceOf(NoEstimator);
    const existing = await service.create(SHOP, body());
    await expect(service.dryRun(SHOP, null, body())).rejects.toBeInstanceOf(ConflictError);
    const seen: unknown[] = [];
    estimator = {
      evaluate: async (_s, c) => (
        seen.push(c),
        { affectedLines: 3, affectedLineSample: [], payoutDelta: -4.5 }
      ),
    };
    const answer = await service.dryRun(SHOP, existing._id, body({ commissionAmount: 12 }));
    expect(answer).toMatchObject({
      affectedLines: 3,
      payoutDelta: -4.5,
      rule: { _id: existing._id, commissionAmount: 12 },
    });
    expect(seen).toEqual([
      expect.objectContaining({ _id: new Types.ObjectId(existing._id), commissionAmount: 12 }),
    ]);
    const created = await service.dryRun(SHOP, null, body({ productId: '43' }));
    expect(created.rule._id).toBeNull();
    expect(rules.rules).toHaveLength(1);
    expect(rules.rules[0].commissionAmount).toBe(10);
  });
});
