import { round2, sumAmounts } from './decimal';
import {
  calculateLineItem,
  CommissionRate,
  costOfGoodsPerUnit,
  DEFAULT_MONEY_SETTINGS,
  LineItemFigures,
  LineItemInputs,
  MoneySettings,
  payoutState,
  profitOf,
  recalculateLineItem,
  resolveCommissionRate,
  splitShipping,
} from './line-item-figures';

const S0 = DEFAULT_MONEY_SETTINGS;
const vendorPct = (amount: number): CommissionRate => ({ source: 'vendor', type: 'percentage', amount });
const vendorFlat = (amount: number): CommissionRate => ({ source: 'vendor', type: 'flat', amount });
const skuPct = (amount: number): CommissionRate => ({ source: 'sku', type: 'percentage', amount });
const skuFlat = (amount: number): CommissionRate => ({ source: 'sku', type: 'flat', amount });
const line = (over: Partial<LineItemInputs>): LineItemInputs => ({
  price: '100.00',
  quantity: 1,
  rate: vendorPct(10),
  costOfGoods: null,
  ...over,
});
const settings = (over: Partial<MoneySettings>): MoneySettings => ({ ...S0, ...over });

describe('calculateLineItem (DESIGN §6)', () => {
  const cases: Array<[string, LineItemInputs, MoneySettings, Partial<LineItemFigures>]> = [
    [
      'percentage vendor rate, rounded at the commission',
      line({ price: '19.99', quantity: 3 }),
      S0,
      {
        sales: 59.97,
        salesAfterDiscount: 59.97,
        commission: 6,
        commissionPlan: 'vendor:percentage:10',
        payout: 53.97,
      },
    ],
    [
      'flat vendor rate is per item',
      line({ price: '10', quantity: 3, rate: vendorFlat(5) }),
      S0,
      { sales: 30, commission: 15, commissionPlan: 'vendor:flat:5', payout: 15 },
    ],
    [
      'SKU percentage overrides the vendor',
      line({ rate: skuPct(14) }),
      S0,
      { commission: 14, commissionPlan: 'sku:percentage:14', payout: 86 },
    ],
    [
      'SKU flat overrides the vendor',
      line({ price: '12.00', quantity: 4, rate: skuFlat(2.5) }),
      S0,
      { sales: 48, commission: 10, commissionPlan: 'sku:flat:2.5', payout: 38 },
    ],
    [
      'cost of goods × quantity',
      line({ quantity: 2, costOfGoods: 4.5 }),
      S0,
      { sales: 200, costOfItem: 9, commission: 20, payout: 180 },
    ],
    [
      'discount allocations are summed and taken off before commission',
      line({ price: '50.00', quantity: 2, discounts: ['10.00', '5.50'] }),
      S0,
      { sales: 100, discount: 15.5, salesAfterDiscount: 84.5, commission: 8.45, payout: 76.05 },
    ],
    [
      'taxOnCommissionRate applies to the rounded commission',
      line({ price: '100.05' }),
      settings({ taxOnCommissionRate: 18 }),
      { commission: 10.01, taxOnCommissions: 1.8, payout: 88.24 },
    ],
    ['tcsRate on sales after discount', line({}), settings({ tcsRate: 1 }), { tcs: 1, payout: 89 }],
    [
      'globalDeductionRate on sales after discount',
      line({}),
      settings({ globalDeductionRate: 2.5 }),
      { totalGlobalDeductions: 2.5, payout: 87.5 },
    ],
    [
      'shipping is stored but not paid unless payShippingToVendor',
      line({ shipping: '7.50' }),
      S0,
      { shipping: 7.5, payout: 90 },
    ],
    [
      'payShippingToVendor adds the shipping share',
      line({ shipping: '7.50' }),
      settings({ payShippingToVendor: true }),
      { shipping: 7.5, payout: 97.5 },
    ],
    [
      'tax is stored but not paid unless payTaxToVendor',
      line({ taxes: ['8.25', '1.75'] }),
      S0,
      { tax: 10, payout: 90 },
    ],
    [
      'payTaxToVendor adds the tax lines',
      line({ taxes: ['8.25', '1.75'] }),
      settings({ payTaxToVendor: true }),
      { tax: 10, payout: 100 },
    ],
    ['deduction is taken off the payout', line({ deduction: 5 }), S0, { deduction: 5, payout: 85 }],
    [
      'half-up at 2 dp: a 0.005 commission is 0.01',
      line({ price: '0.01', rate: vendorPct(50) }),
      S0,
      { sales: 0.01, commission: 0.01, payout: 0 },
    ],
    [
      'half-up on the sales figure (0.005 → 0.01)',
      line({ price: '0.005', rate: vendorPct(0) }),
      S0,
      { sales: 0.01, commission: 0, commissionPlan: 'vendor:percentage:0', payout: 0.01 },
    ],
    [
      'no float drift (0.1 × 3)',
      line({ price: 0.1, quantity: 3, rate: vendorPct(0) }),
      S0,
      { sales: 0.3, payout: 0.3 },
    ],
    [
      'zero quantity',
      line({ price: '10.00', quantity: 0, rate: vendorFlat(5), costOfGoods: 3 }),
      S0,
      { sales: 0, commission: 0, costOfItem: 0, payout: 0 },
    ],
    [
      'large quantity and price stay exact',
      line({ price: '12345.67', quantity: 100000, rate: vendorPct(12.5) }),
      S0,
      { sales: 1234567000, commission: 154320875, payout: 1080246125 },
    ],
    [
      'a line without a vendor has no commission',
      line({ rate: null }),
      settings({ taxOnCommissionRate: 18 }),
      { commission: 0, commissionPlan: null, taxOnCommissions: 0, payout: 100 },
    ],
    [
      'every setting at once',
      line({
        price: '24.99',
        quantity: 3,
        discounts: ['7.50'],
        taxes: ['6.75'],
        shipping: '4.99',
        deduction: 1,
        rate: vendorPct(15),
      }),
      {
        taxOnCommissionRate: 18,
        tcsRate: 1,
        globalDeductionRate: 2,
        payShippingToVendor: true,
        payTaxToVendor: true,
      },
      {
        sales: 74.97,
        discount: 7.5,
        salesAfterDiscount: 67.47,
        tax: 6.75,
        shipping: 4.99,
        commission: 10.12,
        taxOnCommissions: 1.82,
        tcs: 0.67,
        totalGlobalDeductions: 1.35,
        deduction: 1,
        payout: 64.25,
      },
    ],
  ];

  it.each(cases)('%s', (_name, inputs, s, expected) => {
    expect(calculateLineItem(inputs, s)).toMatchObject(expected);
  });

  it('returns every figure, all rounded to 2 dp', () => {
    const f = calculateLineItem(line({ price: '33.333', quantity: 3, discounts: ['0.333'] }), S0);
    expect(Object.keys(f).sort()).toEqual(
      [
        'sales',
        'discount',
        'salesAfterDiscount',
        'tax',
        'shipping',
        'commission',
        'commissionPlan',
        'commissionRule',
        'costOfItem',
        'taxOnCommissions',
        'tcs',
        'totalGlobalDeductions',
        'deduction',
        'payout',
      ].sort(),
    );
    for (const [k, v] of Object.entries(f)) if (typeof v === 'number') expect([k, round2(v)]).toEqual([k, v]);
    expect(f).toMatchObject({ sales: 100, discount: 0.33, salesAfterDiscount: 99.67, commission: 9.97 });
  });
});

describe('recalculateLineItem', () => {
  const stored = {
    sales: 100,
    discount: 0,
    salesAfterDiscount: 90, // written by hand
    tax: 5,
    shipping: 3,
    deduction: 2,
    costOfItem: 7,
    quantity: 2,
  };

  it.each<[string, CommissionRate | null, number | null, MoneySettings, Partial<LineItemFigures>]>([
    [
      'keeps the stored base figures and applies the new rate',
      vendorPct(20),
      null,
      S0,
      { sales: 100, salesAfterDiscount: 90, commission: 18, costOfItem: 7, deduction: 2, payout: 70 },
    ],
    [
      'takes costOfItem from the SKU record when it has a cost of goods',
      vendorPct(20),
      4,
      S0,
      { costOfItem: 8, payout: 70 },
    ],
    [
      'uses the current settings',
      skuFlat(3),
      null,
      settings({ taxOnCommissionRate: 10, payShippingToVendor: true, payTaxToVendor: true }),
      { commission: 6, commissionPlan: 'sku:flat:3', taxOnCommissions: 0.6, payout: 89.4 },
    ],
    ['no vendor → no commission', null, null, S0, { commission: 0, commissionPlan: null, payout: 88 }],
  ])('%s', (_name, rate, cog, s, expected) => {
    expect(recalculateLineItem(stored, rate, cog, s)).toMatchObject(expected);
  });
});

describe('resolveCommissionRate', () => {
  const vendor = { commissionType: 'percentage' as const, commissionAmount: 10 };
  it.each([
    ['vendor only', vendor, null, vendorPct(10)],
    [
      'SKU with commission wins',
      vendor,
      { commissionType: 'flat' as const, commissionAmount: 2 },
      skuFlat(2),
    ],
    [
      'SKU uploaded with 0 % still wins',
      vendor,
      { commissionType: 'percentage' as const, commissionAmount: 0 },
      skuPct(0),
    ],
    [
      'cost-only SKU record does not override',
      vendor,
      { commissionType: null, commissionAmount: null },
      vendorPct(10),
    ],
    [
      'no vendor → none, even with a SKU rate',
      null,
      { commissionType: 'flat' as const, commissionAmount: 2 },
      null,
    ],
  ])('%s', (_name, v, sku, expected) => {
    expect(resolveCommissionRate(v, sku)).toEqual(expected);
  });
});

describe('splitShipping', () => {
  it.each<[string, string | number, Array<string | number>, number[]]>([
    ['even thirds, remainder on the last line', '10.00', [1, 1, 1], [3.33, 3.33, 3.34]],
    ['proportional to sales, half-up', '10.00', [20, 10], [6.67, 3.33]],
    ['never more than what is left', '0.01', [1, 1, 0], [0.01, 0, 0]],
    ['lines without sales split evenly', 5, [0, 0], [2.5, 2.5]],
    ['one line takes it all', '7.99', ['19.99'], [7.99]],
    ['no shipping', 0, [10, 20], [0, 0]],
    ['no lines', '5.00', [], []],
  ])('%s', (_name, total, sales, expected) => {
    expect(splitShipping(total, sales)).toEqual(expected);
  });

  it('always adds up to the order shipping', () => {
    let seed = 42;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 500; i++) {
      const total = (Math.floor(rnd() * 100000) / 100).toFixed(2);
      const sales = Array.from({ length: 1 + Math.floor(rnd() * 8) }, () => (rnd() * 500).toFixed(2));
      const shares = splitShipping(total, sales);
      expect(shares).toHaveLength(sales.length);
      expect(sumAmounts(shares)).toBe(Number(total));
      for (const s of shares) expect(s).toBeGreaterThanOrEqual(0);
    }
  });
});

describe('payoutState', () => {
  it.each([
    [100, 0, { balance: 100, payoutStatus: 'unpaid' }],
    [100, 40, { balance: 60, payoutStatus: 'partial' }],
    [100, 100, { balance: 0, payoutStatus: 'paid' }],
    [0, 0, { balance: 0, payoutStatus: 'unpaid' }],
    [50, 60, { balance: -10, payoutStatus: 'paid' }],
    [0.3, 0.1, { balance: 0.2, payoutStatus: 'partial' }],
  ])('payout %p, paid %p', (payout, paid, expected) => {
    expect(payoutState(payout, paid)).toEqual(expected);
  });
});

describe('helpers', () => {
  it.each([
    [0.005, 0.01],
    [1.005, 1.01],
    [2.675, 2.68],
    [-0.005, -0.01],
    [-0.004, 0],
    ['19.999', 20],
  ])('round2(%p) = %p', (v, expected) => expect(round2(v)).toBe(expected));

  it('costOfGoodsPerUnit divides half-up, and refuses a zero quantity', () => {
    expect(costOfGoodsPerUnit(10, 3)).toBe(3.33);
    expect(costOfGoodsPerUnit(0.01, 2)).toBe(0.01);
    expect(costOfGoodsPerUnit(12, 0)).toBeNull();
  });

  it('profit is net sales minus cost of items', () => {
    expect(profitOf(84.5, 9.25)).toBe(75.25);
  });
});
