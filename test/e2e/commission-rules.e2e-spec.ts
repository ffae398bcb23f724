import { createMerchantKey } from '../support/factory';
import { vendorToken } from '../support/catalog';
import { RULES, RulesFixture } from '../support/commission-rules';

describe('commission rules: create, validation, tenancy (e2e)', () => {
  let f: RulesFixture;
  let t: RulesFixture['t'];
  let shop: RulesFixture['shop'];
  let other: RulesFixture['other'];
  let vendorA: string;
  let foreignVendor: string;
  const productId = () => f.productId();
  const post = (...a: Parameters<RulesFixture['post']>) => f.post(...a);
  const total = (...a: Parameters<RulesFixture['total']>) => f.total(...a);

  beforeAll(async () => {
    f = await RulesFixture.start();
    ({ t, shop, other, vendorA, foreignVendor } = f);
  });
  afterAll(() => t.close());

  describe('create', () => {
    it('creates each level and commission type, and reads them back as created', async () => {
      const pid = productId();
      const bodies = [
        { level: 'product', productId: pid, commissionType: 'percentage', commissionAmount: 12 },
        {
          level: 'product',
          productId: pid,
          vendorId: vendorA,
          commissionType: 'flat',
          commissionAmount: 2.5,
          validFrom: '2026-01-01T00:00:00Z',
          validTo: '2027-01-01T00:00:00Z',
        },
        {
          level: 'productType',
          productType: '  Outerwear Rules ',
          commissionType: 'percentage_plus_flat',
          commissionAmount: 10,
          flatAmount: 0.5,
          minimum: 1,
          maximum: 40,
        },
      ];
      for (const body of bodies) {
        const res = await post(body);
        expect(res.status).toBe(201);
        const read = await t.api.get(`${RULES}/${res.body._id}`, { token: shop.token });
        expect(read.status).toBe(200);
        expect(read.body).toEqual(res.body);
      }
      // the type is stored trimmed, matched in any letter case
      const typeRule = (await t.api.get(`${RULES}?productType=OUTERWEAR%20RULES`, { token: shop.token })).body
        .rules[0];
      expect(typeRule).toMatchObject({
        level: 'productType',
        productType: 'Outerwear Rules',
        productId: null,
        vendorId: null,
        commissionType: 'percentage_plus_flat',
        commissionAmount: 10,
        flatAmount: 0.5,
        minimum: 1,
        maximum: 40,
        validFrom: null,
        validTo: null,
      });
      const vendorRule = (
        await t.api.get(`${RULES}?productId=${pid}&vendorId=${vendorA}`, { token: shop.token })
      ).body.rules;
      expect(vendorRule).toHaveLength(1);
      expect(vendorRule[0]).toMatchObject({
        productId: pid,
        vendorId: vendorA,
        commissionType: 'flat',
        commissionAmount: 2.5,
        flatAmount: null,
        validFrom: '2026-01-01T00:00:00.000Z',
        validTo: '2027-01-01T00:00:00.000Z',
      });
    });

    const base = () => ({
      level: 'product',
      productId: productId(),
      commissionType: 'percentage',
      commissionAmount: 10,
    });
    const invalid: Array<[string, () => Record<string, unknown>, RegExp]> = [
      [
        'product rule without productId',
        () => ({ ...base(), productId: undefined }),
        /productId is required/,
      ],
      [
        'product rule with a productType',
        () => ({ ...base(), productType: 'Hats' }),
        /productType must not be sent/,
      ],
      ['productId not a decimal id', () => ({ ...base(), productId: '12ab' }), /decimal string/],
      ['productId with a leading zero', () => ({ ...base(), productId: '0123' }), /decimal string/],
      ['productId as a number', () => ({ ...base(), productId: 123 }), /productId must be a string/],
      [
        'productType rule without productType',
        () => ({ level: 'productType', commissionType: 'flat', commissionAmount: 1 }),
        /productType is required/,
      ],
      [
        'productType only blanks',
        () => ({ level: 'productType', productType: '   ', commissionType: 'flat', commissionAmount: 1 }),
        /productType is required/,
      ],
      [
        'productType rule with a productId',
        () => ({
          level: 'productType',
          productType: 'Hats',
          productId: '5',
          commissionType: 'flat',
          commissionAmount: 1,
        }),
        /productId must not be sent/,
      ],
      ['unknown level', () => ({ ...base(), level: 'sku' }), /level/],
      ['unknown commission type', () => ({ ...base(), commissionType: 'tiered' }), /commissionType/],
      ['percentage above 100', () => ({ ...base(), commissionAmount: 100.01 }), /not be greater than 100/],
      ['negative percentage', () => ({ ...base(), commissionAmount: -1 }), /not be less than 0/],
      [
        '3 decimal places',
        () => ({ ...base(), commissionType: 'flat', commissionAmount: 1.005 }),
        /2 decimal places/,
      ],
      [
        'flat above MAX_MONEY',
        () => ({ ...base(), commissionType: 'flat', commissionAmount: 1_000_000_001 }),
        /greater than/,
      ],
      [
        'percentage_plus_flat without flatAmount',
        () => ({ ...base(), commissionType: 'percentage_plus_flat' }),
        /flatAmount is required/,
      ],
      [
        'flatAmount on a percentage rule',
        () => ({ ...base(), flatAmount: 1 }),
        /only for commissionType percentage_plus_flat/,
      ],
      [
        'negative flatAmount',
        () => ({ ...base(), commissionType: 'percentage_plus_flat', flatAmount: -0.01 }),
        /flatAmount must not be less than 0/,
      ],
      [
        'minimum above maximum',
        () => ({ ...base(), minimum: 5, maximum: 4.99 }),
        /minimum must not be greater than maximum/,
      ],
      [
        'minimum with 3 dp',
        () => ({ ...base(), minimum: 0.001 }),
        /minimum must have at most 2 decimal places/,
      ],
      ['negative maximum', () => ({ ...base(), maximum: -1 }), /maximum must not be less than 0/],
      [
        'validFrom equal to validTo',
        () => ({ ...base(), validFrom: '2026-05-01T00:00:00Z', validTo: '2026-05-01T00:00:00Z' }),
        /validTo must be later than validFrom/,
      ],
      [
        'validFrom after validTo',
        () => ({ ...base(), validFrom: '2026-06-01T00:00:00Z', validTo: '2026-05-01T00:00:00Z' }),
        /validTo must be later than validFrom/,
      ],
      [
        'validFrom not a date-time',
        () => ({ ...base(), validFrom: 'next tuesday' }),
        /validFrom must be an ISO 8601/,
      ],
      ['unknown field', () => ({ ...base(), rate: 3 }), /rate/],
    ];
    it.each(invalid)('422 and nothing written: %s', async (_name, body, message) => {
      const before = await total();
      const res = await post(body());
      expect(res.status).toBe(422);
      expect(res.body.error).toMatch(message);
      expect(await total()).toBe(before);
    });

    it("422 naming an unknown vendor, and another shop's vendor", async () => {
      const before = await total();
      for (const vendorId of ['6750c3d4e5f6a7b8c9d0e1f2', foreignVendor]) {
        const res = await post({ ...base(), vendorId });
        expect(res.status).toBe(422);
        expect(res.body.error).toBe(`vendorId ${vendorId} is not a vendor of this shop`);
      }
      expect(await total()).toBe(before);
    });
  });

  describe('tenancy and credentials', () => {
    let ruleId: string;
    beforeAll(async () => {
      const res = await post({
        level: 'product',
        productId: productId(),
        commissionType: 'flat',
        commissionAmount: 1,
      });
      ruleId = res.body._id;
    });

    it("another shop's rule: 404 on GET, PUT and DELETE, and it stays as it was", async () => {
      const o = { token: other.token };
      const body = { level: 'product', productId: '42', commissionType: 'flat', commissionAmount: 9 };
      expect((await t.api.get(`${RULES}/${ruleId}`, o)).status).toBe(404);
      expect((await t.api.put(`${RULES}/${ruleId}`, body, o)).status).toBe(404);
      expect((await t.api.put(`${RULES}/${ruleId}?dryRun=true`, body, o)).status).toBe(404);
      expect((await t.api.delete(`${RULES}/${ruleId}`, o)).status).toBe(404);
      const mine = await t.api.get(`${RULES}/${ruleId}`, { token: shop.token });
      expect(mine.status).toBe(200);
      expect(mine.body.commissionAmount).toBe(1);
      expect((await t.api.get(`${RULES}/not-an-id`, { token: shop.token })).status).toBe(404);
    });

    it('merchant and vendor tokens: 403 on every route', async () => {
      const merchant = (await createMerchantKey(t, shop)).token;
      const vendor = await vendorToken(t, shop, vendorA);
      const body = { level: 'product', productId: '42', commissionType: 'flat', commissionAmount: 9 };
      for (const token of [merchant, vendor]) {
        const o = { token };
        expect((await t.api.post(RULES, body, o)).status).toBe(403);
        expect((await t.api.get(RULES, o)).status).toBe(403);
        expect((await t.api.get(`${RULES}/${ruleId}`, o)).status).toBe(403);
        expect((await t.api.put(`${RULES}/${ruleId}`, body, o)).status).toBe(403);
        expect((await t.api.delete(`${RULES}/${ruleId}`, o)).status).toBe(403);
      }
      expect((await t.api.get(`${RULES}/${ruleId}`, { token: shop.token })).status).toBe(200);
    });

    it('no token: 401', async () => {
      expect((await t.api.get(RULES)).status).toBe(401);
    });
  });
});
