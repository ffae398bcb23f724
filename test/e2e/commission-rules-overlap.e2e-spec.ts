/* eslint-disable @typescript-eslint/no-explicit-any */
import { createVendor } from '../support/catalog';
import { RULES, RulesFixture } from '../support/commission-rules';

describe('commission rules: overlap and list (e2e)', () => {
  let f: RulesFixture;
  let t: RulesFixture['t'];
  let shop: RulesFixture['shop'];
  let other: RulesFixture['other'];
  let vendorA: string;
  let vendorB: string;
  const productId = () => f.productId();
  const post = (...a: Parameters<RulesFixture['post']>) => f.post(...a);
  const total = (...a: Parameters<RulesFixture['total']>) => f.total(...a);

  beforeAll(async () => {
    f = await RulesFixture.start();
    ({ t, shop, other, vendorA, vendorB } = f);
  });
  afterAll(() => t.close());

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
});
