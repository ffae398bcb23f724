/* eslint-disable @typescript-eslint/no-explicit-any */
import { startApp, TestApp } from '../support/app';
import { createVendor, vendorToken } from '../support/catalog';
import { createMerchantKey, createShop, TestShop } from '../support/factory';
import { RuleImpactEstimator } from '../../src/commissions/rule-impact-estimator';

const RULES = '/v1/commissions/rules';

describe('commission rules (e2e)', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;
  let vendorA: string;
  let vendorB: string;
  let foreignVendor: string;
  /** Distinct product ids per test, so groups never collide between tests. */
  let nextProduct = 7_000_000_000_000;
  const productId = () => String(++nextProduct);

  const post = (body: unknown, s: TestShop = shop, q = '') =>
    t.api.post(`${RULES}${q}`, body, { token: s.token });
  const total = async (s: TestShop = shop): Promise<number> => {
    const res = await t.api.get(`${RULES}?limit=1`, { token: s.token });
    expect(res.status).toBe(200);
    return res.body.total;
  };
  const auditOf = async (action: string, id: string): Promise<any[]> => {
    const res = await t.api.get(`/v1/audit-events?limit=250&action=${action}&resourceId=${id}`, {
      token: shop.token,
    });
    expect(res.status).toBe(200);
    return res.body.events;
  };
  const eventsOf = async (type: string): Promise<any[]> => {
    const res = await t.api.get(`/v1/events?limit=250&type=${type}`, { token: shop.token });
    expect(res.status).toBe(200);
    return res.body.events;
  };

  beforeAll(async () => {
    t = await startApp();
    shop = await createShop(t, 'rules');
    other = await createShop(t, 'rules-other');
    vendorA = (await createVendor(t, shop, 'Rule Vendor A'))._id;
    vendorB = (await createVendor(t, shop, 'Rule Vendor B'))._id;
    foreignVendor = (await createVendor(t, other, 'Rule Foreign'))._id;
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

  describe('overlap', () => {
    const rule = (
      pid: string,
      from: string | null,
      to: string | null,
      extra: Record<string, unknown> = {},
    ) => ({
      level: 'product',
      productId: pid,
      commissionType: 'percentage',
      commissionAmount: 5,
      ...(from ? { validFrom: from } : {}),
      ...(to ? { validTo: to } : {}),
      ...extra,
    });

    it('409 names the other rule for the same target and vendor; nothing written', async () => {
      const pid = productId();
      const first = await post(rule(pid, '2026-01-01T00:00:00Z', '2026-03-01T00:00:00Z'));
      expect(first.status).toBe(201);
      const before = await total();
      for (const [from, to] of [
        ['2026-02-01T00:00:00Z', '2026-04-01T00:00:00Z'], // starts inside
        ['2025-12-01T00:00:00Z', '2026-01-01T00:00:00.001Z'], // ends one ms inside
        [null, null], // unbounded both ways
        ['2026-02-28T23:59:59.999Z', null], // open-ended from the last ms
      ]) {
        const res = await post(rule(pid, from, to));
        expect(res.status).toBe(409);
        expect(res.body.conflictingRuleId).toBe(first.body._id);
        expect(res.body.error).toContain(first.body._id);
      }
      expect(await total()).toBe(before);
    });

    it('adjacent intervals [a,b) and [b,c) do not overlap; unbounded ends meet them correctly', async () => {
      const pid = productId();
      const a = '2026-01-01T00:00:00Z';
      const b = '2026-02-01T00:00:00Z';
      const c = '2026-03-01T00:00:00Z';
      expect((await post(rule(pid, a, b))).status).toBe(201);
      expect((await post(rule(pid, b, c))).status).toBe(201);
      expect((await post(rule(pid, null, a))).status).toBe(201);
      expect((await post(rule(pid, c, null))).status).toBe(201);
      const list = await t.api.get(`${RULES}?productId=${pid}`, { token: shop.token });
      expect(list.body.total).toBe(4);
    });

    it('a vendor-limited rule and a shop-wide rule on the same target do not conflict; two vendors neither', async () => {
      const pid = productId();
      expect((await post(rule(pid, null, null))).status).toBe(201);
      expect((await post(rule(pid, null, null, { vendorId: vendorA }))).status).toBe(201);
      expect((await post(rule(pid, null, null, { vendorId: vendorB }))).status).toBe(201);
      const again = await post(rule(pid, '2026-01-01T00:00:00Z', null, { vendorId: vendorA }));
      expect(again.status).toBe(409);
      // a productType rule whose type reads like the product id is another group
      const type = await post({
        level: 'productType',
        productType: pid,
        commissionType: 'flat',
        commissionAmount: 1,
      });
      expect(type.status).toBe(201);
    });

    it('productType groups match in any letter case', async () => {
      const first = await post({
        level: 'productType',
        productType: 'Scarves X',
        commissionType: 'flat',
        commissionAmount: 1,
      });
      expect(first.status).toBe(201);
      const res = await post({
        level: 'productType',
        productType: ' scarves x',
        commissionType: 'flat',
        commissionAmount: 2,
      });
      expect(res.status).toBe(409);
      expect(res.body.conflictingRuleId).toBe(first.body._id);
    });

    it('concurrent overlapping creates: exactly one 201, the others 409 naming it', async () => {
      const pid = productId();
      const answers = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          post(rule(pid, `2026-0${i + 1}-01T00:00:00Z`, '2026-12-01T00:00:00Z', { commissionAmount: i })),
        ),
      );
      const created = answers.filter((r) => r.status === 201);
      expect(answers.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
      for (const r of answers.filter((x) => x.status === 409))
        expect(r.body.conflictingRuleId).toBe(created[0].body._id);
      const list = await t.api.get(`${RULES}?productId=${pid}`, { token: shop.token });
      expect(list.body.rules.map((r: any) => r._id)).toEqual([created[0].body._id]);
    });

    it('concurrent non-overlapping creates in one group all succeed', async () => {
      const pid = productId();
      const answers = await Promise.all(
        Array.from({ length: 4 }, (_, i) =>
          post(rule(pid, `2026-0${i + 1}-01T00:00:00Z`, `2026-0${i + 2}-01T00:00:00Z`)),
        ),
      );
      expect(answers.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    });
  });

  describe('list', () => {
    let pid: string;
    const ids: Record<string, string> = {};
    let vendorC: string;
    beforeAll(async () => {
      pid = productId();
      vendorC = (await createVendor(t, shop, 'Rule Vendor C'))._id;
      const mk = async (name: string, body: Record<string, unknown>) => {
        const res = await post({ commissionType: 'percentage', commissionAmount: 3, ...body });
        expect(res.status).toBe(201);
        ids[name] = res.body._id;
      };
      await mk('jan', {
        level: 'product',
        productId: pid,
        validFrom: '2026-01-01T00:00:00Z',
        validTo: '2026-02-01T00:00:00Z',
      });
      await mk('feb', { level: 'product', productId: pid, validFrom: '2026-02-01T00:00:00Z', validTo: null });
      await mk('vendor', { level: 'product', productId: pid, vendorId: vendorC });
      await mk('type', {
        level: 'productType',
        productType: 'List Type',
        vendorId: vendorC,
        validTo: '2026-02-01T00:00:00Z',
      });
    });
    const list = async (q: string) => {
      const res = await t.api.get(`${RULES}?limit=250&${q}`, { token: shop.token });
      expect(res.status).toBe(200);
      return res.body.rules.map((r: any) => r._id);
    };

    it('filters by product, vendor, level and type, newest first', async () => {
      expect(await list(`productId=${pid}`)).toEqual([ids.vendor, ids.feb, ids.jan]);
      expect(await list(`productId=${pid}&vendorId=${vendorC}`)).toEqual([ids.vendor]);
      expect(await list(`vendorId=${vendorC}`)).toEqual([ids.type, ids.vendor]);
      expect(await list(`vendorId=${vendorC}&level=productType`)).toEqual([ids.type]);
      expect(await list('productType=list%20type&level=productType')).toEqual([ids.type]);
      expect((await list('level=product')).slice(0, 3)).toEqual([ids.vendor, ids.feb, ids.jan]);
      expect((await list('')).slice(0, 4)).toEqual([ids.type, ids.vendor, ids.feb, ids.jan]);
    });

    it('activeAt: validFrom inclusive, validTo exclusive, null ends unbounded', async () => {
      const at = (iso: string) => list(`productId=${pid}&activeAt=${iso}`);
      expect(await at('2025-12-31T23:59:59.999Z')).toEqual([ids.vendor]);
      expect(await at('2026-01-01T00:00:00.000Z')).toEqual([ids.vendor, ids.jan]);
      expect(await at('2026-01-31T23:59:59.999Z')).toEqual([ids.vendor, ids.jan]);
      expect(await at('2026-02-01T00:00:00.000Z')).toEqual([ids.vendor, ids.feb]);
      expect(await at('2099-01-01T00:00:00.000Z')).toEqual([ids.vendor, ids.feb]);
      expect(await list(`vendorId=${vendorC}&activeAt=2026-02-01T00:00:00Z`)).toEqual([ids.vendor]);
      expect(await list(`vendorId=${vendorC}&activeAt=2026-01-31T00:00:00Z`)).toEqual([ids.type, ids.vendor]);
    });

    it('pages with limit/offset, total and nextOffset', async () => {
      const p1 = await t.api.get(`${RULES}?productId=${pid}&limit=2`, { token: shop.token });
      expect(p1.body).toMatchObject({ total: 3, nextOffset: 2 });
      const p2 = await t.api.get(`${RULES}?productId=${pid}&limit=2&offset=2`, { token: shop.token });
      expect(p2.body).toMatchObject({ total: 3, nextOffset: null });
      expect([...p1.body.rules, ...p2.body.rules].map((r: any) => r._id)).toEqual([
        ids.vendor,
        ids.feb,
        ids.jan,
      ]);
    });

    it('422 on bad filters', async () => {
      for (const q of [
        'level=sku',
        'vendorId=nope',
        'productId=abc',
        'activeAt=yesterday',
        'productId=5&productType=x',
        'productId=5&level=productType',
        'limit=0',
      ]) {
        const res = await t.api.get(`${RULES}?${q}`, { token: shop.token });
        expect([q, res.status]).toEqual([q, 422]);
      }
    });

    it("another shop's list is its own", async () => {
      expect(await total(other)).toBe(0);
    });
  });

  describe('replace and delete', () => {
    it('PUT replaces every field (omitted ones null), checks overlap without itself, audits and emits', async () => {
      const pid = productId();
      const a = await post({
        level: 'product',
        productId: pid,
        commissionType: 'percentage_plus_flat',
        commissionAmount: 8,
        flatAmount: 1,
        minimum: 2,
        validFrom: '2026-01-01T00:00:00Z',
        validTo: '2026-02-01T00:00:00Z',
      });
      const b = await post({
        level: 'product',
        productId: pid,
        commissionType: 'flat',
        commissionAmount: 1,
        validFrom: '2026-02-01T00:00:00Z',
      });
      expect([a.status, b.status]).toEqual([201, 201]);
      // widening a into b's period: 409 naming b, nothing changed
      const clash = await t.api.put(
        `${RULES}/${a.body._id}`,
        {
          level: 'product',
          productId: pid,
          commissionType: 'flat',
          commissionAmount: 3,
          validTo: '2026-02-01T00:00:00.001Z',
        },
        { token: shop.token },
      );
      expect(clash.status).toBe(409);
      expect(clash.body.conflictingRuleId).toBe(b.body._id);
      expect((await t.api.get(`${RULES}/${a.body._id}`, { token: shop.token })).body).toEqual(a.body);
      // its own interval again, other values: fine (itself is not an overlap)
      const put = await t.api.put(
        `${RULES}/${a.body._id}`,
        {
          level: 'product',
          productId: pid,
          commissionType: 'flat',
          commissionAmount: 3,
          validTo: '2026-02-01T00:00:00Z',
        },
        { token: shop.token },
      );
      expect(put.status).toBe(200);
      expect(put.body).toMatchObject({
        _id: a.body._id,
        commissionType: 'flat',
        commissionAmount: 3,
        flatAmount: null,
        minimum: null,
        validFrom: null,
        validTo: '2026-02-01T00:00:00.000Z',
        createdAt: a.body.createdAt,
      });
      const [audit] = await auditOf('commission_rule.updated', a.body._id);
      expect(audit.resource).toEqual({ type: 'commission_rule', id: a.body._id });
      expect(audit.before).toMatchObject({
        commissionType: 'percentage_plus_flat',
        commissionAmount: 8,
        flatAmount: 1,
      });
      expect(audit.after).toMatchObject({ commissionType: 'flat', commissionAmount: 3, flatAmount: null });
      const events = (await eventsOf('commission_rule.updated')).filter(
        (e) => e.data.object._id === a.body._id,
      );
      expect(events).toHaveLength(1);
      expect(events[0].data.object).toEqual(put.body);
      // invalid replace: 422, unchanged
      const bad = await t.api.put(
        `${RULES}/${a.body._id}`,
        { level: 'product', productId: pid, commissionType: 'percentage', commissionAmount: 101 },
        { token: shop.token },
      );
      expect(bad.status).toBe(422);
      expect((await t.api.get(`${RULES}/${a.body._id}`, { token: shop.token })).body).toEqual(put.body);
    });

    it('create is audited and emits commission_rule.created with the rule', async () => {
      const res = await post({
        level: 'productType',
        productType: 'Audited',
        commissionType: 'flat',
        commissionAmount: 4,
      });
      expect(res.status).toBe(201);
      const [audit] = await auditOf('commission_rule.created', res.body._id);
      expect(audit.actor.kind).toBe('shop');
      expect(audit.after).toMatchObject({
        level: 'productType',
        productType: 'Audited',
        commissionAmount: 4,
      });
      const events = (await eventsOf('commission_rule.created')).filter(
        (e) => e.data.object._id === res.body._id,
      );
      expect(events).toHaveLength(1);
      expect(events[0].data.object).toEqual(res.body);
    });

    it('DELETE answers {_id, deleted}, then 404; audited and emitted; the interval is free again', async () => {
      const pid = productId();
      const res = await post({
        level: 'product',
        productId: pid,
        commissionType: 'flat',
        commissionAmount: 1,
      });
      const del = await t.api.delete(`${RULES}/${res.body._id}`, { token: shop.token });
      expect(del.status).toBe(200);
      expect(del.body).toEqual({ _id: res.body._id, deleted: true });
      expect((await t.api.get(`${RULES}/${res.body._id}`, { token: shop.token })).status).toBe(404);
      expect((await t.api.delete(`${RULES}/${res.body._id}`, { token: shop.token })).status).toBe(404);
      const [audit] = await auditOf('commission_rule.deleted', res.body._id);
      expect(audit.before).toMatchObject({ productId: pid, commissionType: 'flat' });
      const events = (await eventsOf('commission_rule.deleted')).filter(
        (e) => e.data.object._id === res.body._id,
      );
      expect(events.map((e) => e.data.object)).toEqual([{ _id: res.body._id, deleted: true }]);
      expect(
        (await post({ level: 'product', productId: pid, commissionType: 'flat', commissionAmount: 2 }))
          .status,
      ).toBe(201);
    });
  });

  describe('dry run', () => {
    it('validates fully and writes nothing; the estimate port answers 501 until the ladder binds it', async () => {
      const pid = productId();
      const before = await total();
      expect(
        (
          await post(
            { level: 'product', productId: pid, commissionType: 'percentage', commissionAmount: 101 },
            shop,
            '?dryRun=true',
          )
        ).status,
      ).toBe(422);
      const first = await post({
        level: 'product',
        productId: pid,
        commissionType: 'flat',
        commissionAmount: 1,
      });
      const clash = await post(
        { level: 'product', productId: pid, commissionType: 'flat', commissionAmount: 2 },
        shop,
        '?dryRun=true',
      );
      expect(clash.status).toBe(409);
      expect(clash.body.conflictingRuleId).toBe(first.body._id);
      const valid = await post(
        { level: 'product', productId: productId(), commissionType: 'flat', commissionAmount: 2 },
        shop,
        '?dryRun=true',
      );
      expect(valid.status).toBe(501);
      expect(valid.body.error).toMatch(/not available/);
      expect(
        (
          await t.api.put(
            `${RULES}/${first.body._id}?dryRun=true`,
            { level: 'product', productId: pid, commissionType: 'flat', commissionAmount: 3 },
            { token: shop.token },
          )
        ).status,
      ).toBe(501);
      expect((await t.api.get(`${RULES}/${first.body._id}`, { token: shop.token })).body).toEqual(first.body);
      expect(await total()).toBe(before + 1);
      expect(
        (
          await post(
            { level: 'product', productId: pid, commissionType: 'flat', commissionAmount: 1 },
            shop,
            '?dryRun=maybe',
          )
        ).status,
      ).toBe(422);
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

  describe('dry run with an estimator bound (as the ladder will bind it)', () => {
    let t2: TestApp;
    const seen: any[] = [];
    beforeAll(async () => {
      t2 = await startApp((b) =>
        b.overrideProvider(RuleImpactEstimator).useValue({
          evaluate: async (_scope: unknown, candidate: unknown) => {
            seen.push(candidate);
            return { affectedLines: 2, payoutDelta: -1.5 };
          },
        }),
      );
    });
    // Last in the file: closing a second app ends the connections the two share.
    afterAll(() => t2.close());

    it('POST answers 200 {rule as it would be, affectedLines, payoutDelta}; PUT too; nothing written', async () => {
      const o = { token: shop.token };
      const before = await total();
      const pid = productId();
      const body = {
        level: 'product',
        productId: pid,
        vendorId: vendorA,
        commissionType: 'flat',
        commissionAmount: 2,
      };
      const res = await t2.api.post(`${RULES}?dryRun=true`, body, o);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        affectedLines: 2,
        payoutDelta: -1.5,
        rule: {
          _id: null,
          level: 'product',
          productId: pid,
          vendorId: vendorA,
          commissionAmount: 2,
          flatAmount: null,
        },
      });
      expect(String(seen[0].vendorId)).toBe(vendorA);
      expect(seen[0]._id).toBeNull();
      const created = await t2.api.post(RULES, body, o);
      expect(created.status).toBe(201);
      const put = await t2.api.put(
        `${RULES}/${created.body._id}?dryRun=true`,
        { ...body, commissionAmount: 3 },
        o,
      );
      expect(put.status).toBe(200);
      expect(put.body.rule).toMatchObject({
        _id: created.body._id,
        commissionAmount: 3,
        createdAt: created.body.createdAt,
      });
      expect(String(seen[1]._id)).toBe(created.body._id);
      expect((await t2.api.get(`${RULES}/${created.body._id}`, o)).body).toEqual(created.body);
      expect(await total()).toBe(before + 1);
    });

    it('a dry run with an Idempotency-Key replays its 200; a create with one replays its 201', async () => {
      const body = { level: 'product', productId: productId(), commissionType: 'flat', commissionAmount: 2 };
      const dry = { token: shop.token, headers: { 'idempotency-key': `dry-${body.productId}` } };
      const first = await t2.api.post(`${RULES}?dryRun=true`, body, dry);
      const again = await t2.api.post(`${RULES}?dryRun=true`, body, dry);
      expect([first.status, again.status]).toEqual([200, 200]);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.body).toEqual(first.body);
      const real = { token: shop.token, headers: { 'idempotency-key': `real-${body.productId}` } };
      const created = await t2.api.post(RULES, body, real);
      const replayed = await t2.api.post(RULES, body, real);
      expect([created.status, replayed.status]).toEqual([201, 201]);
      expect(replayed.body).toEqual(created.body);
      expect(
        (await t2.api.get(`${RULES}?productId=${body.productId}`, { token: shop.token })).body.total,
      ).toBe(1);
    });
  });
});
