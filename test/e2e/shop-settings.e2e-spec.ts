import { startApp, TestApp } from '../support/app';
import { createMerchantKey, createShop, TestShop } from '../support/factory';

/** The schedule settings' defaults (DESIGN §15: manual, no hold, no minimum; set nowhere yet). */
const SCHEDULE_DEFAULTS = {
  payoutSchedule: {
    frequency: 'manual',
    dayOfWeek: null,
    dayOfMonth: null,
    holdDays: 0,
    minimumPayout: 0,
    scheduleSetAt: null,
  },
  requireCompleteTaxProfile: false,
};

describe('GET/PUT /v1/shop/settings (e2e)', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;

  beforeAll(async () => {
    t = await startApp();
    shop = await createShop(t, 'settings');
    other = await createShop(t, 'settings-other');
  });
  afterAll(() => t.close());

  const get = (s: TestShop = shop) => t.api.get('/v1/shop/settings', { token: s.token });
  const put = (body: unknown, s: TestShop = shop) => t.api.put('/v1/shop/settings', body, { token: s.token });

  it('defaults to 0 / false', async () => {
    const res = await get();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      settings: {
        taxOnCommissionRate: 0,
        tcsRate: 0,
        globalDeductionRate: 0,
        payShippingToVendor: false,
        payTaxToVendor: false,
        ...SCHEDULE_DEFAULTS,
      },
    });
  });

  it('changes only the given settings', async () => {
    const res = await put({ taxOnCommissionRate: 18, payShippingToVendor: true });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      message: expect.any(String),
      settings: {
        taxOnCommissionRate: 18,
        tcsRate: 0,
        globalDeductionRate: 0,
        payShippingToVendor: true,
        payTaxToVendor: false,
        ...SCHEDULE_DEFAULTS,
      },
    });
    await put({ tcsRate: 1.5, globalDeductionRate: 100, payTaxToVendor: true, payShippingToVendor: false });
    expect((await get()).body.settings).toEqual({
      taxOnCommissionRate: 18,
      tcsRate: 1.5,
      globalDeductionRate: 100,
      payShippingToVendor: false,
      payTaxToVendor: true,
      ...SCHEDULE_DEFAULTS,
    });
    const same = await put({});
    expect(same.status).toBe(200);
    expect(same.body.settings.taxOnCommissionRate).toBe(18);
  });

  it.each<[string, unknown]>([
    ['a rate above 100', { tcsRate: 100.01 }],
    ['a negative rate', { globalDeductionRate: -1 }],
    ['a rate as a string', { taxOnCommissionRate: '18' }],
    ['a flag as a string', { payTaxToVendor: 'true' }],
    ['a flag as a number', { payShippingToVendor: 1 }],
    ['an unknown setting', { platform: 'shopify' }],
    ['more than 4 decimals', { tcsRate: 1.00001 }],
    ['a body that is not an object', [1, 2]],
  ])('refuses %s with 422 and changes nothing', async (_name, body) => {
    const before = (await get()).body;
    const res = await put(body);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ error: expect.any(String) });
    expect((await get()).body).toEqual(before);
  });

  it('is per shop', async () => {
    expect((await get(other)).body.settings).toEqual({
      taxOnCommissionRate: 0,
      tcsRate: 0,
      globalDeductionRate: 0,
      payShippingToVendor: false,
      payTaxToVendor: false,
      ...SCHEDULE_DEFAULTS,
    });
  });

  it('needs a shop token', async () => {
    const mk = await createMerchantKey(t, shop);
    expect((await t.api.get('/v1/shop/settings', { token: mk.token })).status).toBe(403);
    expect((await t.api.put('/v1/shop/settings', { tcsRate: 1 }, { token: mk.token })).status).toBe(403);
    expect((await t.api.get('/v1/shop/settings')).status).toBe(401);
  });
});
