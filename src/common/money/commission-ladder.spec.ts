import fc from 'fast-check';
import {
  applyLadder,
  commissionOf,
  commissionPlanLabel,
  LadderLine,
  LadderRule,
  LadderTerms,
} from './commission-ladder';

/*
 * The ladder against an oracle written here: BigInt cents, half-up, and the order of DESIGN §13
 * spelled out independently of the implementation's loops.
 */
const cents = (s: string): bigint => {
  const neg = s.startsWith('-');
  const [i, f = ''] = s.replace('-', '').split('.');
  const v = BigInt(i) * 100n + BigInt((f + '00').slice(0, 2));
  return neg ? -v : v;
};
const halfUp = (a: bigint, b: bigint): bigint => (a * 2n + b) / (2n * b); // a ≥ 0
const fmt = (c: bigint) => Number(c) / 100;

/** Oracle commission in cents: rate with ≤ 2 decimals (hundredths of a percent). */
function oracle(
  type: LadderRule['commissionType'],
  rate: string,
  sad: string,
  qty: number,
  flat?: string,
  min?: string,
  max?: string,
): number {
  const r = cents(rate); // hundredths of a percent
  let c: bigint;
  if (type === 'flat') c = cents(rate) * BigInt(qty);
  else if (type === 'percentage') c = halfUp(cents(sad) * r, 10000n);
  else c = halfUp(cents(sad) * r + cents(flat ?? '0') * BigInt(qty) * 10000n, 10000n);
  if (min !== undefined && c < cents(min)) c = cents(min);
  if (max !== undefined && c > cents(max)) c = cents(max);
  return fmt(c);
}

const V = 'v1';
const OTHER_V = 'v2';
const AT = new Date('2026-06-15T12:00:00.000Z');
const vendor: LadderTerms = { commissionType: 'percentage', commissionAmount: 10 };
let seq = 0;
function rule(p: Partial<LadderRule> & Pick<LadderRule, 'level'>): LadderRule {
  seq += 1;
  return {
    id: `r${String(seq).padStart(3, '0')}`,
    productId: p.level === 'product' ? 'P1' : null,
    productTypeKey: p.level === 'productType' ? 'shirts' : null,
    vendorId: null,
    commissionType: 'percentage',
    commissionAmount: 12,
    flatAmount: null,
    minimum: null,
    maximum: null,
    validFrom: null,
    validTo: null,
    ...p,
  };
}
function lineOf(p: Partial<LadderLine> = {}): LadderLine {
  return {
    vendorId: V,
    vendor,
    sku: null,
    productId: 'P1',
    productType: ' Shirts ',
    orderCreatedAt: AT,
    ...p,
  };
}

describe('applyLadder: which source applies (DESIGN §13)', () => {
  const product = rule({ level: 'product', commissionAmount: 12 });
  const productMine = rule({ level: 'product', vendorId: V, commissionAmount: 11 });
  const productOther = rule({ level: 'product', vendorId: OTHER_V, commissionAmount: 9 });
  const type = rule({ level: 'productType', commissionAmount: 8 });
  const future = rule({ level: 'product', vendorId: V, validFrom: new Date('2026-07-01T00:00:00Z') });
  const atStart = rule({ level: 'product', validFrom: AT, commissionAmount: 13 });
  const endsAt = rule({ level: 'product', vendorId: V, validTo: AT, commissionAmount: 14 });
  const otherProduct = rule({ level: 'product', productId: 'P2' });
  const cases: Array<[string, LadderLine, LadderRule[], string | null, string | null]> = [
    [
      'SKU record with a commission beats every rule',
      lineOf({ sku: { commissionType: 'flat', commissionAmount: 2 } }),
      [product, type],
      'sku:flat:2',
      null,
    ],
    [
      'SKU record with only cost of goods does not claim the rate',
      lineOf({ sku: { commissionType: null, commissionAmount: null } }),
      [product],
      'product:percentage:12',
      product.id,
    ],
    [
      'product rule beats the product-type rule',
      lineOf(),
      [type, product],
      'product:percentage:12',
      product.id,
    ],
    [
      'vendor-limited beats shop-wide at the same level and target',
      lineOf(),
      [product, productMine],
      'product:percentage:11',
      productMine.id,
    ],
    [
      'another vendor’s rule never applies',
      lineOf(),
      [productOther, type],
      'productType:percentage:8',
      type.id,
    ],
    [
      'product-type rule matched trimmed and lowercased',
      lineOf(),
      [type, otherProduct],
      'productType:percentage:8',
      type.id,
    ],
    [
      'a product not stored: no product-type level',
      lineOf({ productType: null }),
      [type],
      'vendor:percentage:10',
      null,
    ],
    ['vendor when no rule targets the line', lineOf(), [otherProduct], 'vendor:percentage:10', null],
    [
      'a vendor-limited rule not yet in force lets the shop-wide one apply',
      lineOf(),
      [future, product],
      'product:percentage:12',
      product.id,
    ],
    ['validFrom is inclusive', lineOf(), [atStart], 'product:percentage:13', atStart.id],
    ['validTo is exclusive', lineOf(), [endsAt, type], 'productType:percentage:8', type.id],
    ['no vendor: no commission', lineOf({ vendorId: null, vendor: null }), [product], null, null],
    [
      'a vendor without a rate and no rule: none',
      lineOf({ vendor: { commissionType: null, commissionAmount: null } }),
      [],
      null,
      null,
    ],
  ];
  it.each(cases)('%s', (_name, line, rules, plan, ruleId) => {
    const { applied } = applyLadder(line, rules);
    expect(commissionPlanLabel(applied)).toBe(plan);
    expect(applied?.ruleId ?? null).toBe(ruleId);
  });

  it('explains every level: matched, or why not', () => {
    const { candidates } = applyLadder(lineOf({ sku: { commissionType: null, commissionAmount: null } }), [
      product,
      productMine,
      future,
      type,
    ]);
    const why = candidates.map((c) => [c.level, c.ruleId, c.matched, c.reason]);
    expect(why).toEqual([
      ['sku', null, false, 'cost_of_goods_only'],
      ['product', future.id, false, 'not_in_force'],
      ['product', productMine.id, true, 'matched'],
      ['product', product.id, false, 'beaten_by_vendor_rule'],
      ['productType', type.id, false, 'more_specific_applied'],
      ['vendor', null, false, 'more_specific_applied'],
    ]);
    expect(candidates[1].detail).toContain('starts 2026-07-01T00:00:00.000Z');
    const ended = applyLadder(lineOf(), [endsAt]).candidates.find((c) => c.ruleId === endsAt.id);
    expect(ended?.detail).toContain(`ended ${AT.toISOString()}`);
    expect(applyLadder(lineOf(), []).candidates.map((c) => c.reason)).toEqual([
      'no_record',
      'no_rule',
      'no_rule',
      'matched',
    ]);
  });
});

describe('commissionOf: the applied source’s commission, to the cent', () => {
  const cases: Array<[string, LadderRule, string, number, number]> = [
    [
      'percentage',
      rule({ level: 'product', commissionAmount: 12.5 }),
      '99.99',
      3,
      oracle('percentage', '12.5', '99.99', 3),
    ],
    [
      'flat × quantity',
      rule({ level: 'product', commissionType: 'flat', commissionAmount: 1.25 }),
      '50.00',
      7,
      oracle('flat', '1.25', '50.00', 7),
    ],
    [
      'percentage plus flat, with quantity and a discount (sales 3 × 33.33 − 5.01)',
      rule({
        level: 'productType',
        commissionType: 'percentage_plus_flat',
        commissionAmount: 5,
        flatAmount: 0.3,
      }),
      '94.98',
      3,
      oracle('percentage_plus_flat', '5', '94.98', 3, '0.30'),
    ],
    [
      'percentage plus flat rounds once, at the commission',
      rule({
        level: 'product',
        commissionType: 'percentage_plus_flat',
        commissionAmount: 7.25,
        flatAmount: 0.01,
      }),
      '10.07',
      1,
      oracle('percentage_plus_flat', '7.25', '10.07', 1, '0.01'),
    ],
    [
      'minimum raises a small commission',
      rule({ level: 'product', commissionAmount: 10, minimum: 2.5 }),
      '12.00',
      1,
      oracle('percentage', '10', '12.00', 1, undefined, '2.50'),
    ],
    [
      'maximum caps a large one',
      rule({ level: 'product', commissionAmount: 20, maximum: 50 }),
      '1234.56',
      2,
      oracle('percentage', '20', '1234.56', 2, undefined, undefined, '50.00'),
    ],
    [
      'within the clamp: unchanged',
      rule({ level: 'product', commissionAmount: 20, minimum: 1, maximum: 50 }),
      '100.00',
      1,
      oracle('percentage', '20', '100.00', 1, undefined, '1.00', '50.00'),
    ],
  ];
  it.each(cases)('%s', (_name, r, sad, qty, expected) => {
    const { applied } = applyLadder(lineOf({ productType: r.level === 'productType' ? 'shirts' : null }), [
      r,
    ]);
    expect(applied?.ruleId).toBe(r.id);
    expect(commissionOf(applied, sad, qty)).toBe(expected);
  });

  it('labels plus-flat and clamps', () => {
    const r = rule({
      level: 'productType',
      commissionType: 'percentage_plus_flat',
      commissionAmount: 5,
      flatAmount: 0.3,
      minimum: 1,
      maximum: 50,
    });
    expect(commissionPlanLabel(applyLadder(lineOf(), [r]).applied)).toBe(
      'productType:percentage_plus_flat:5+0.30:min=1.00:max=50.00',
    );
  });
});

describe('applyLadder property: the chosen source is always the most specific one in force', () => {
  const day = (d: number) => new Date(Date.UTC(2026, 0, 1 + d));
  const ruleArb = fc.record({
    level: fc.constantFrom<'product' | 'productType'>('product', 'productType'),
    target: fc.constantFrom('A', 'B'),
    vendorId: fc.constantFrom<string | null>(null, V, OTHER_V),
    from: fc.option(fc.integer({ min: 0, max: 20 })),
    len: fc.option(fc.integer({ min: 1, max: 20 })),
    amount: fc.integer({ min: 0, max: 100 }),
  });
  it('holds for random rules, SKU records and dates', () => {
    fc.assert(
      fc.property(
        fc.array(ruleArb, { maxLength: 8 }),
        fc.constantFrom<LadderTerms | null>(
          null,
          { commissionType: null, commissionAmount: null },
          { commissionType: 'percentage', commissionAmount: 3 },
        ),
        fc.integer({ min: 0, max: 40 }),
        fc.constantFrom<string | null>('a', 'b', null),
        (specs, sku, d, type) => {
          const rules: LadderRule[] = specs.map((s, i) => ({
            id: `p${i}`,
            level: s.level,
            productId: s.level === 'product' ? s.target : null,
            productTypeKey: s.level === 'productType' ? s.target.toLowerCase() : null,
            vendorId: s.vendorId,
            commissionType: 'percentage',
            commissionAmount: s.amount,
            flatAmount: null,
            minimum: null,
            maximum: null,
            validFrom: s.from === null ? null : day(s.from),
            validTo: s.len === null ? null : day((s.from ?? 0) + s.len),
          }));
          const at = day(d);
          const line = lineOf({ sku, productId: 'A', productType: type, orderCreatedAt: at });
          const { applied, candidates } = applyLadder(line, rules);
          // The oracle: the first level, in order, with an eligible rule in force; mine before shop-wide.
          const live = (r: LadderRule) =>
            (r.validFrom === null || r.validFrom <= at) && (r.validTo === null || at < r.validTo);
          const pick = (level: string, key: string | null) => {
            const hits = rules.filter(
              (r) =>
                r.level === level && key !== null && (r.productId ?? r.productTypeKey) === key && live(r),
            );
            return hits.find((r) => r.vendorId === V) ?? hits.find((r) => r.vendorId === null) ?? null;
          };
          let expected: string;
          if (sku?.commissionType) expected = 'sku';
          else if (pick('product', 'A')) expected = `product/${pick('product', 'A')!.vendorId}`;
          else if (pick('productType', type)) expected = `productType/${pick('productType', type)!.vendorId}`;
          else expected = 'vendor';
          const got =
            applied?.source === 'product' || applied?.source === 'productType'
              ? `${applied.source}/${rules.find((r) => r.id === applied.ruleId)!.vendorId}`
              : applied?.source;
          expect(got).toBe(expected);
          expect(candidates.filter((c) => c.matched)).toHaveLength(1);
          expect(
            candidates.some(
              (c) => c.ruleId !== null && rules.find((r) => r.id === c.ruleId)!.vendorId === OTHER_V,
            ),
          ).toBe(false);
        },
      ),
      { numRuns: 500, seed: 31 },
    );
  });
});
