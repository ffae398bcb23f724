import { startApp, TestApp } from '../support/app';
import { createMerchantKey, createShop, TestShop } from '../support/factory';

interface SkuRow {
  sku: string;
  costOfGoods: number | null;
  commissionType: string | null;
  commissionAmount: number | null;
}

describe('commissions (e2e)', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;

  const upload = (skus: unknown, s: TestShop = shop) =>
    t.api.post('/v1/commissions/sku', { skus }, { token: s.token });
  const stored = async (s: TestShop = shop): Promise<Map<string, SkuRow>> => {
    const res = await t.api.get('/v1/commissions/sku', { token: s.token });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    return new Map((res.body.skus as SkuRow[]).map((r) => [r.sku, r]));
  };

  beforeAll(async () => {
    t = await startApp();
    shop = await createShop(t, 'comm');
    other = await createShop(t, 'comm-other');
  });
  afterAll(() => t.close());

  describe('POST /v1/commissions/sku', () => {
    it('writes the valid elements of a mixed upload and reports the invalid ones by index', async () => {
      const first = await upload([
        { sku: 'OLD-1', commissionType: 'flat', commissionRate: 2, costOfGoods: 5 },
      ]);
      expect(first.body).toEqual({ success: true, received: 1, created: 1, updated: 0, errors: [] });

      const res = await upload([
        { sku: '  NEW-1  ', commissionRate: 14 }, // 0: created (trimmed, default percentage)
        { sku: 'NEW-2', commissionType: 'flat', commissionRate: 1.5, costOfGoods: 3.25 }, // 1: created
        { sku: '', commissionRate: 5 }, // 2: invalid
        { sku: 'BAD-RATE', commissionRate: -1 }, // 3: invalid
        { sku: 'NEW-1', commissionType: 'flat', commissionRate: 4 }, // 4: duplicate → update, last wins
        { sku: 'OLD-1', commissionRate: 10 }, // 5: update of an existing record, cost kept
        { sku: 'BAD-TYPE', commissionType: 'tiered' }, // 6: invalid
        { sku: 'NEW-2', costOfGoods: -2 }, // 7: invalid: NEW-2 keeps element 1's values
        { sku: 'NEW-3' }, // 8: created with the defaults
        { sku: 'BAD-COST', costOfGoods: 'free' }, // 9: invalid
        { sku: 'NEW-1', commissionType: 'percentage', commissionRate: 9 }, // 10: duplicate → update, last wins
        { sku: 'BAD-KEY', comissionRate: 3 }, // 11: invalid (misspelt key)
      ]);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        success: false,
        received: 12,
        created: 3,
        updated: 3,
        errors: [
          { index: 2, sku: '', error: 'sku must be a non-empty string' },
          { index: 3, sku: 'BAD-RATE', error: 'commissionRate must not be less than 0' },
          { index: 6, sku: 'BAD-TYPE', error: 'commissionType must be one of percentage, flat' },
          {
            index: 7,
            sku: 'NEW-2',
            error: 'costOfGoods must be a number >= 0 and <= 1000000000 with at most 2 decimal places',
          },
          {
            index: 9,
            sku: 'BAD-COST',
            error: 'costOfGoods must be a number >= 0 and <= 1000000000 with at most 2 decimal places',
          },
          { index: 11, sku: 'BAD-KEY', error: 'unknown field(s): comissionRate' },
        ],
      });
      const rows = await stored();
      expect([...rows.keys()].sort()).toEqual(['NEW-1', 'NEW-2', 'NEW-3', 'OLD-1']);
      expect(rows.get('NEW-1')).toEqual({
        sku: 'NEW-1',
        costOfGoods: null,
        commissionType: 'percentage',
        commissionAmount: 9,
      });
      expect(rows.get('NEW-2')).toEqual({
        sku: 'NEW-2',
        costOfGoods: 3.25,
        commissionType: 'flat',
        commissionAmount: 1.5,
      });
      expect(rows.get('NEW-3')).toEqual({
        sku: 'NEW-3',
        costOfGoods: null,
        commissionType: 'percentage',
        commissionAmount: 0,
      });
      expect(rows.get('OLD-1')).toEqual({
        sku: 'OLD-1',
        costOfGoods: 5,
        commissionType: 'percentage',
        commissionAmount: 10,
      });
    });

    it('counts a SKU new to the shop as one create then updates, and unchanged re-uploads as updates', async () => {
      const s = await createShop(t, 'comm-dup');
      const res = await upload(
        [
          { sku: 'D', commissionRate: 1, costOfGoods: 2 },
          { sku: 'D', commissionRate: 3 },
          { sku: 'D', commissionType: 'flat', commissionRate: 4 },
        ],
        s,
      );
      expect(res.body).toEqual({ success: true, received: 3, created: 1, updated: 2, errors: [] });
      expect((await stored(s)).get('D')).toEqual({
        sku: 'D',
        costOfGoods: 2,
        commissionType: 'flat',
        commissionAmount: 4,
      });
      const again = await upload([{ sku: 'D', commissionType: 'flat', commissionRate: 4 }], s);
      expect(again.body).toEqual({ success: true, received: 1, created: 0, updated: 1, errors: [] });
      const cleared = await upload([{ sku: 'D', costOfGoods: 0 }], s);
      expect(cleared.body).toMatchObject({ created: 0, updated: 1 });
      expect((await stored(s)).get('D')).toEqual({
        sku: 'D',
        costOfGoods: 0,
        commissionType: 'percentage',
        commissionAmount: 0,
      });
    });

    it('accepts 500 elements in one request', async () => {
      const s = await createShop(t, 'comm-500');
      const skus = Array.from({ length: 500 }, (_, i) => ({
        sku: `BULK-${i}`,
        commissionRate: i % 100,
        costOfGoods: i / 4,
      }));
      const res = await upload(skus, s);
      expect(res.body).toEqual({ success: true, received: 500, created: 500, updated: 0, errors: [] });
      const changed = await upload(
        skus.map((e, i) => (i % 50 === 7 ? { ...e, commissionRate: 1 } : e)),
        s,
      );
      expect(changed.body).toEqual({ success: true, received: 500, created: 0, updated: 500, errors: [] });
      const rows = await stored(s);
      expect(rows.size).toBe(500);
      expect(rows.get('BULK-7')).toEqual({
        sku: 'BULK-7',
        costOfGoods: 1.75,
        commissionType: 'percentage',
        commissionAmount: 1,
      });
      expect(rows.get('BULK-8')).toEqual({
        sku: 'BULK-8',
        costOfGoods: 2,
        commissionType: 'percentage',
        commissionAmount: 8,
      });
    });

    it.each([
      ['a missing skus', {}],
      ['a non-array skus', { skus: { sku: 'A' } }],
      ['a string skus', { skus: 'A,B' }],
      ['more than 500 elements', { skus: Array.from({ length: 501 }, (_, i) => ({ sku: `X${i}` })) }],
      ['an unknown top-level key', { skus: [], dryRun: true }],
    ])('refuses %s with 422 {error} and writes nothing', async (_name, body) => {
      const s = await createShop(t, 'comm-422');
      const res = await t.api.post('/v1/commissions/sku', body, { token: s.token });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ error: expect.any(String) });
      expect((await stored(s)).size).toBe(0);
    });

    it('refuses a merchant token with 403', async () => {
      const mk = await createMerchantKey(t, shop);
      expect((await t.api.post('/v1/commissions/sku', { skus: [] }, { token: mk.token })).status).toBe(403);
      expect((await t.api.get('/v1/commissions/sku', { token: mk.token })).status).toBe(403);
      expect((await t.api.get('/v1/commissions/vendor', { token: mk.token })).status).toBe(403);
    });
  });

  describe('GET /v1/commissions/sku', () => {
    it('lists only the caller’s shop, and another shop’s upload of the same SKU changes nothing here', async () => {
      expect((await upload([{ sku: 'NEW-1', commissionRate: 50 }], other)).body.created).toBe(1);
      expect((await stored()).get('NEW-1')?.commissionAmount).toBe(9);
      const theirs = await stored(other);
      expect([...theirs.keys()]).toEqual(['NEW-1']);
    });

    it('answers {skus: []} for a shop without records', async () => {
      const s = await createShop(t, 'comm-empty');
      const res = await t.api.get('/v1/commissions/sku', { token: s.token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ skus: [] });
    });

    it('streams a list larger than one chunk as one valid JSON document', async () => {
      const s = await createShop(t, 'comm-big');
      for (let b = 0; b < 3; b++) {
        const skus = Array.from({ length: 500 }, (_, i) => ({
          sku: `LONG-SKU-NAME-${b}-${String(i).padStart(4, '0')}`,
          commissionType: 'flat',
          commissionRate: 1.25,
          costOfGoods: 10.5,
        }));
        expect((await upload(skus, s)).body.created).toBe(500);
      }
      const res = await t.api.get('/v1/commissions/sku', { token: s.token });
      expect(res.text.length).toBeGreaterThan(64 * 1024);
      expect(res.body.skus).toHaveLength(1500);
      expect(new Set(res.body.skus.map((r: SkuRow) => r.sku)).size).toBe(1500);
    });
  });

  describe('GET /v1/commissions/vendor', () => {
    it('lists every active vendor of the shop; a deactivated vendor leaves the list', async () => {
      const s = await createShop(t, 'comm-vend');
      const mk = (await createMerchantKey(t, s)).token;
      const ids: string[] = [];
      for (const [vendorName, commissionType, commissionAmount] of [
        ['Bravo', 'flat', 2],
        ['Alpha', 'percentage', 12],
        ['Charlie', 'percentage', 5],
      ] as const) {
        const res = await t.api.post(
          '/v1/vendors',
          { vendorName, commissionType, commissionAmount },
          { token: s.token },
        );
        ids.push(res.body.vendor._id);
      }
      await t.api.post(
        '/v1/vendors',
        { vendorName: 'Not Mine', commissionType: 'flat', commissionAmount: 1 },
        { token: other.token },
      );
      const before = await t.api.get('/v1/commissions/vendor', { token: s.token });
      expect(before.status).toBe(200);
      expect(before.body).toEqual({
        vendors: [
          { vendorId: ids[1], vendorName: 'alpha', commissionType: 'percentage', commissionAmount: 12 },
          { vendorId: ids[0], vendorName: 'bravo', commissionType: 'flat', commissionAmount: 2 },
          { vendorId: ids[2], vendorName: 'charlie', commissionType: 'percentage', commissionAmount: 5 },
        ],
      });
      expect((await t.api.delete(`/v2/vendors/${ids[0]}`, { token: mk })).status).toBe(200);
      const after = await t.api.get('/v1/commissions/vendor', { token: s.token });
      expect(after.body.vendors.map((v: { vendorId: string }) => v.vendorId)).toEqual([ids[1], ids[2]]);
    });
  });
});
