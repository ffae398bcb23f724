import { Types } from 'mongoose';
import {
  checkRuleBody,
  CLAIM_TTL_MS,
  groupKey,
  intervalsOverlap,
  liveClaims,
  overlappingRule,
  type RuleBody,
} from './commission-rule-checks';

const d = (iso: string) => new Date(iso);
const product = (extra: Partial<RuleBody> = {}): RuleBody => ({
  level: 'product',
  productId: '7513594937496',
  commissionType: 'percentage',
  commissionAmount: 12,
  ...extra,
});
const problems = (body: RuleBody) => {
  const r = checkRuleBody(body);
  if (r.ok) throw new Error('expected a refusal');
  return r.fields;
};

describe('checkRuleBody', () => {
  it('normalises a valid product rule: nulls for what is not sent, dates parsed', () => {
    const r = checkRuleBody(product({ validFrom: '2026-01-01T00:00:00+01:00', vendorId: null }));
    expect(r).toEqual({
      ok: true,
      values: {
        level: 'product',
        productId: '7513594937496',
        productType: null,
        productTypeKey: null,
        vendorId: null,
        commissionType: 'percentage',
        commissionAmount: 12,
        flatAmount: null,
        minimum: null,
        maximum: null,
        validFrom: d('2025-12-31T23:00:00Z'),
        validTo: null,
      },
    });
  });

  it('trims a product type and keys it in lower case', () => {
    const r = checkRuleBody({
      level: 'productType',
      productType: '  Winter Coats ',
      commissionType: 'flat',
      commissionAmount: 2,
    });
    expect(r.ok && [r.values.productType, r.values.productTypeKey, r.values.productId]).toEqual([
      'Winter Coats',
      'winter coats',
      null,
    ]);
  });

  it('wants exactly the target field of the level', () => {
    expect(problems(product({ productId: undefined }))).toEqual({
      productId: ['productId is required for a product rule'],
    });
    expect(problems(product({ productType: 'Hats' }))).toEqual({
      productType: ['productType must not be sent for a product rule'],
    });
    expect(Object.keys(problems({ ...product(), level: 'productType' }))).toEqual([
      'productType',
      'productId',
    ]);
    expect(
      problems({ level: 'productType', productType: ' ', commissionType: 'flat', commissionAmount: 1 }),
    ).toHaveProperty('productType');
    for (const id of ['0', '0123', '12a', '-5', '1.5', '123456789012345678901'])
      expect(problems(product({ productId: id }))).toHaveProperty('productId');
  });

  it('bounds amounts by commission type', () => {
    expect(checkRuleBody(product({ commissionAmount: 100 })).ok).toBe(true);
    expect(checkRuleBody(product({ commissionAmount: 0 })).ok).toBe(true);
    expect(problems(product({ commissionAmount: 100.01 }))).toHaveProperty('commissionAmount');
    expect(
      problems(product({ commissionType: 'percentage_plus_flat', commissionAmount: 101, flatAmount: 1 })),
    ).toHaveProperty('commissionAmount');
    expect(checkRuleBody(product({ commissionType: 'flat', commissionAmount: 250 })).ok).toBe(true);
    expect(problems(product({ commissionType: 'flat', commissionAmount: 1_000_000_000.01 }))).toHaveProperty(
      'commissionAmount',
    );
    expect(problems(product({ commissionType: 'flat', commissionAmount: 0.125 }))).toHaveProperty(
      'commissionAmount',
    );
    expect(problems(product({ commissionAmount: Number.NaN }))).toHaveProperty('commissionAmount');
  });

  it('wants flatAmount for percentage_plus_flat only', () => {
    expect(problems(product({ commissionType: 'percentage_plus_flat' }))).toHaveProperty('flatAmount');
    expect(problems(product({ flatAmount: 1 }))).toHaveProperty('flatAmount');
    expect(problems(product({ commissionType: 'flat', flatAmount: 1 }))).toHaveProperty('flatAmount');
    expect(problems(product({ commissionType: 'percentage_plus_flat', flatAmount: 0.001 }))).toHaveProperty(
      'flatAmount',
    );
    const ok = checkRuleBody(product({ commissionType: 'percentage_plus_flat', flatAmount: 0.5 }));
    expect(ok.ok && ok.values.flatAmount).toBe(0.5);
  });

  it('checks minimum and maximum as amounts and in order', () => {
    expect(checkRuleBody(product({ minimum: 2, maximum: 2 })).ok).toBe(true);
    expect(problems(product({ minimum: 2.01, maximum: 2 }))).toEqual({
      minimum: ['minimum must not be greater than maximum'],
    });
    expect(problems(product({ minimum: -1 }))).toHaveProperty('minimum');
    expect(problems(product({ maximum: 1.234 }))).toHaveProperty('maximum');
  });

  it('wants validFrom before validTo', () => {
    expect(
      checkRuleBody(product({ validFrom: '2026-01-01T00:00:00Z', validTo: '2026-01-01T00:00:00.001Z' })).ok,
    ).toBe(true);
    expect(
      problems(product({ validFrom: '2026-01-01T00:00:00Z', validTo: '2026-01-01T00:00:00Z' })),
    ).toHaveProperty('validTo');
    expect(problems(product({ validFrom: '2026-W01-1' }))).toHaveProperty('validFrom');
  });

  it('reports every problem at once', () => {
    expect(Object.keys(problems(product({ productId: 'x', commissionAmount: -1, minimum: -2 })))).toEqual([
      'productId',
      'commissionAmount',
      'minimum',
    ]);
  });
});

describe('overlap', () => {
  const i = (from: string | null, to: string | null) => ({
    validFrom: from ? d(from) : null,
    validTo: to ? d(to) : null,
  });

  it('treats [from, to) as half-open and null ends as unbounded', () => {
    expect(intervalsOverlap(i('2026-01-01', '2026-02-01'), i('2026-02-01', '2026-03-01'))).toBe(false);
    expect(intervalsOverlap(i('2026-01-01', '2026-02-01'), i('2026-01-31', '2026-03-01'))).toBe(true);
    expect(intervalsOverlap(i(null, null), i('2030-01-01', '2030-01-02'))).toBe(true);
    expect(intervalsOverlap(i(null, '2026-01-01'), i('2026-01-01', null))).toBe(false);
    expect(intervalsOverlap(i(null, '2026-01-01T00:00:00.001Z'), i('2026-01-01', null))).toBe(true);
  });

  it('names the first stored rule or live claim that overlaps, never the candidate itself', () => {
    const self = new Types.ObjectId();
    const stored = { _id: new Types.ObjectId(), ...i('2026-01-01', '2026-02-01') };
    const claim = { ruleId: new Types.ObjectId(), at: d('2026-01-01'), ...i('2026-03-01', null) };
    expect(overlappingRule({ _id: null, ...i('2026-01-15', '2026-01-16') }, [stored], [claim])).toEqual(
      stored._id,
    );
    expect(overlappingRule({ _id: null, ...i('2026-04-01', null) }, [stored], [claim])).toEqual(claim.ruleId);
    expect(overlappingRule({ _id: null, ...i('2026-02-01', '2026-03-01') }, [stored], [claim])).toBeNull();
    expect(
      overlappingRule({ _id: stored._id, ...i('2026-01-01', '2026-03-01') }, [stored], [claim]),
    ).toBeNull();
    expect(overlappingRule({ _id: self, ...i(null, null) }, [], [{ ...claim, ruleId: self }])).toBeNull();
  });

  it('lets claims lapse after CLAIM_TTL_MS', () => {
    const now = d('2026-01-01T00:10:00Z');
    const at = (ms: number) => ({
      ruleId: new Types.ObjectId(),
      at: new Date(now.getTime() - ms),
      validFrom: null,
      validTo: null,
    });
    const fresh = at(CLAIM_TTL_MS - 1);
    expect(liveClaims([fresh, at(CLAIM_TTL_MS)], now)).toEqual([fresh]);
  });

  it('keys groups by shop, level, target and vendor (shop-wide: *)', () => {
    const v = { level: 'product' as const, productId: '5', productTypeKey: null };
    expect(groupKey('s1', { ...v, vendorId: null })).toBe('s1:product:5:*');
    expect(groupKey('s1', { ...v, vendorId: 'v1' })).toBe('s1:product:5:v1');
    expect(
      groupKey('s1', { level: 'productType', productId: null, productTypeKey: '5', vendorId: null }),
    ).toBe('s1:productType:5:*');
  });
});
