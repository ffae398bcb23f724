/* eslint-disable @typescript-eslint/no-explicit-any */
import { startApp, TestApp } from '../support/app';
import { RuleImpactEstimator } from '../../src/commissions/rule-impact-estimator';
import { RULES, RulesFixture } from '../support/commission-rules';

describe('commission rules: replace, delete, dry run (e2e)', () => {
  let f: RulesFixture;
  let t: RulesFixture['t'];
  let shop: RulesFixture['shop'];
  let vendorA: string;
  const productId = () => f.productId();
  const post = (...a: Parameters<RulesFixture['post']>) => f.post(...a);
  const total = (...a: Parameters<RulesFixture['total']>) => f.total(...a);
  const auditOf = (action: string, id: string) => f.auditOf(action, id);
  const eventsOf = (type: string) => f.eventsOf(type);

  beforeAll(async () => {
    f = await RulesFixture.start();
    ({ t, shop, vendorA } = f);
  });
  afterAll(() => t.close());

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
      const [audit] = await auditOf('commission_rule.update', a.body._id);
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
      const [audit] = await auditOf('commission_rule.create', res.body._id);
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
      const [audit] = await auditOf('commission_rule.delete', res.body._id);
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
    it('validates fully and writes nothing; a rule no line is priced by changes nothing (the ladder estimates)', async () => {
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
      expect(valid.status).toBe(200);
      expect(valid.body).toMatchObject({ affectedLines: 0, affectedLineSample: [], payoutDelta: 0 });
      const replace = await t.api.put(
        `${RULES}/${first.body._id}?dryRun=true`,
        { level: 'product', productId: pid, commissionType: 'flat', commissionAmount: 3 },
        { token: shop.token },
      );
      expect(replace.status).toBe(200);
      expect(replace.body).toMatchObject({
        rule: { _id: first.body._id, commissionAmount: 3 },
        affectedLines: 0,
      });
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

  describe('dry run with an estimator bound in its place', () => {
    let t2: TestApp;
    const seen: any[] = [];
    beforeAll(async () => {
      t2 = await startApp((b) =>
        b.overrideProvider(RuleImpactEstimator).useValue({
          evaluate: async (_scope: unknown, candidate: unknown) => {
            seen.push(candidate);
            return { affectedLines: 2, affectedLineSample: [], payoutDelta: -1.5 };
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
