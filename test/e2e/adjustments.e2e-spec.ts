import { startApp, TestApp } from '../support/app';
import { vendorToken } from '../support/catalog';
import { createMerchantKey, createShop, TestMerchantKey, TestShop } from '../support/factory';
import { createVendor, renameVendor } from '../support/payout-fixtures';
import { DAY } from '../support/test-clock';

const BASE = '/v2/payout-adjustments';

describe('V2 payout adjustments (e2e)', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;
  let mk: TestMerchantKey;
  let vendor: { _id: string; vendorName: string };
  let vendor2: { _id: string; vendorName: string };
  let foreignVendor: { _id: string; vendorName: string };

  const post = (body: unknown, token = mk.token) => t.api.post(BASE, body, { token });

  beforeAll(async () => {
    t = await startApp();
    shop = await createShop(t, 'adj');
    other = await createShop(t, 'adj-other');
    mk = await createMerchantKey(t, shop);
    vendor = await createVendor(t, shop, 'Adj Alpha');
    vendor2 = await createVendor(t, shop, 'Adj Beta');
    foreignVendor = await createVendor(t, other, 'Adj Foreign');
  });
  afterAll(() => t.close());

  describe('create', () => {
    it('stores the amount signed by type, copies the vendor name, defaults and server fields', async () => {
      const before = Date.now();
      const ded = await post({
        vendorId: vendor._id,
        amount: 25,
        type: 'DEDUCTION',
        comments: 'Return shipping',
      });
      expect(ded.status).toBe(201);
      expect(ded.body.success).toBe(true);
      const a = ded.body.data;
      expect(a).toMatchObject({
        shopId: shop.shopId,
        vendorId: vendor._id,
        vendorName: vendor.vendorName,
        amount: -25,
        type: 'DEDUCTION',
        status: 'UNPAID',
        batchId: 'NA',
        comments: 'Return shipping',
      });
      expect(a.customId).toMatch(/^ADJ-\d{6}$/);
      expect(new Date(a.customItemDate).getTime()).toBeGreaterThanOrEqual(before - 1000);
      expect(new Date(a.customItemDate).getTime()).toBeLessThanOrEqual(Date.now() + 1000);

      const add = await post({ vendorId: vendor._id, amount: 25.5, type: 'ADDITION' });
      expect(add.status).toBe(201);
      expect(add.body.data).toMatchObject({ amount: 25.5, type: 'ADDITION', comments: '' });
      expect(add.body.data.customId).not.toBe(a.customId);
      expect(Number(add.body.data.customId.slice(4))).toBe(Number(a.customId.slice(4)) + 1);
    });

    it('customId is a per-shop sequence', async () => {
      const mk2 = await createMerchantKey(t, other);
      const res = await post({ vendorId: foreignVendor._id, amount: 1, type: 'ADDITION' }, mk2.token);
      expect(res.status).toBe(201);
      expect(res.body.data.customId).toBe('ADJ-000001');
    });

    it('keeps the customItemDate given', async () => {
      const res = await post({
        vendorId: vendor2._id,
        amount: 10,
        type: 'ADDITION',
        customItemDate: '2025-03-15T10:00:00.000Z',
      });
      expect(res.status).toBe(201);
      expect(res.body.data.customItemDate).toBe('2025-03-15T10:00:00.000Z');
    });

    it.each([
      ['status', { status: 'PAID' }],
      ['batchId', { batchId: 'abc' }],
      ['customId', { customId: 'MINE-1' }],
      ['shopId', { shopId: '6740b9f1c2a4e15b3c9d0a10' }],
    ])('refuses a server-set field in the body: %s → 422', async (field, extra) => {
      const res = await post({ vendorId: vendor._id, amount: 5, type: 'ADDITION', ...extra });
      expect(res.status).toBe(422);
      expect(res.body.success).toBe(false);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.message).toContain(field);
    });

    it.each([
      ['zero amount', { amount: 0, type: 'ADDITION' }],
      ['negative amount', { amount: -5, type: 'DEDUCTION' }],
      ['amount as a string', { amount: '5', type: 'ADDITION' }],
      ['more than 2 decimals', { amount: 1.005, type: 'ADDITION' }],
      ['a denormal amount', { amount: 5e-324, type: 'ADDITION' }],
      ['an amount over the maximum', { amount: 1e12, type: 'ADDITION' }],
      ['unknown type', { amount: 5, type: 'BONUS' }],
      ['missing type', { amount: 5 }],
      ['bad customItemDate', { amount: 5, type: 'ADDITION', customItemDate: 'yesterday' }],
    ])('refuses %s → 422', async (_name, body) => {
      const res = await post({ vendorId: vendor._id, ...body });
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    });

    it('refuses a vendor of another shop, an unknown vendor and a malformed id → 422', async () => {
      for (const vendorId of [foreignVendor._id, '6740b9f1c2a4e15b3c9d0a99', 'nope']) {
        const res = await post({ vendorId, amount: 5, type: 'ADDITION' });
        expect(res.status).toBe(422);
        expect(res.body.error.code).toBe('VALIDATION_ERROR');
      }
    });

    it('keeps the vendor name of creation after the vendor is renamed', async () => {
      const v = await createVendor(t, shop, 'Adj Renamed Before');
      const created = await post({ vendorId: v._id, amount: 7, type: 'ADDITION' });
      await renameVendor(t, shop, v._id, 'adj renamed after');
      const read = await t.api.get(`${BASE}/${created.body.data._id}`, { token: mk.token });
      expect(read.status).toBe(200);
      expect(read.body.data.vendorName).toBe('adj renamed before');
      const later = await post({ vendorId: v._id, amount: 7, type: 'ADDITION' });
      expect(later.body.data.vendorName).toBe('adj renamed after');
    });
  });

  describe('credentials', () => {
    it('a shop token works too; a vendor token is refused with 403; no token 401', async () => {
      const res = await post({ vendorId: vendor._id, amount: 3, type: 'ADDITION' }, shop.token);
      expect(res.status).toBe(201);
      const vendorTok = await vendorToken(t, shop, vendor._id);
      for (const r of [
        await t.api.get(BASE, { token: vendorTok }),
        await post({ vendorId: vendor._id, amount: 3, type: 'ADDITION' }, vendorTok),
        await t.api.get(`${BASE}/${res.body.data._id}`, { token: vendorTok }),
      ]) {
        expect(r.status).toBe(403);
        expect(r.body.error.code).toBe('FORBIDDEN');
      }
      expect((await t.api.get(BASE)).status).toBe(401);
    });
  });

  describe('list', () => {
    let s: TestShop;
    let token: string;
    let va: { _id: string };
    let vb: { _id: string };

    beforeAll(async () => {
      s = await createShop(t, 'adj-list');
      token = (await createMerchantKey(t, s)).token;
      va = await createVendor(t, s, 'List A');
      vb = await createVendor(t, s, 'List B');
      const rows: Array<[{ _id: string }, number, string, string]> = [
        [va, 10, 'ADDITION', '2025-01-31T23:59:59.999Z'],
        [va, 20, 'DEDUCTION', '2025-02-01T00:00:00.000Z'],
        [vb, 30, 'ADDITION', '2025-02-14T12:00:00.000Z'],
        [vb, 40, 'DEDUCTION', '2025-02-28T23:59:59.999Z'],
        [va, 50, 'ADDITION', '2025-03-01T00:00:00.000Z'],
      ];
      for (const [v, amount, type, customItemDate] of rows) {
        const r = await t.api.post(BASE, { vendorId: v._id, amount, type, customItemDate }, { token });
        expect(r.status).toBe(201);
      }
    });

    it('pages newest first with total, page and limit', async () => {
      const p1 = await t.api.get(`${BASE}?limit=2`, { token });
      expect(p1.status).toBe(200);
      expect(p1.body.data).toMatchObject({ total: 5, page: 1, limit: 2 });
      expect(p1.body.data.items.map((a: { amount: number }) => a.amount)).toEqual([50, -40]);
      const p3 = await t.api.get(`${BASE}?limit=2&page=3`, { token });
      expect(p3.body.data).toMatchObject({ total: 5, page: 3, limit: 2 });
      expect(p3.body.data.items.map((a: { amount: number }) => a.amount)).toEqual([10]);
      const p4 = await t.api.get(`${BASE}?limit=2&page=4`, { token });
      expect(p4.body.data).toMatchObject({ total: 5, page: 4, items: [] });
      const dflt = await t.api.get(BASE, { token });
      expect(dflt.body.data).toMatchObject({ total: 5, page: 1, limit: 20 });
    });

    it('filters by vendor, status, type and an inclusive date range', async () => {
      const amounts = async (q: string) =>
        (await t.api.get(`${BASE}?${q}`, { token })).body.data.items
          .map((a: { amount: number }) => a.amount)
          .sort((x: number, y: number) => x - y);
      expect(await amounts(`vendorId=${va._id}`)).toEqual([-20, 10, 50]);
      expect(await amounts('type=DEDUCTION')).toEqual([-40, -20]);
      expect(await amounts('status=UNPAID')).toHaveLength(5);
      expect(await amounts('status=PAID')).toEqual([]);
      expect(await amounts('start=2025-02-01&end=2025-02-28')).toEqual([-40, -20, 30]);
      expect(await amounts('end=2025-01-31')).toEqual([10]);
      expect(await amounts('start=2025-03-01')).toEqual([50]);
      expect(await amounts(`vendorId=${vb._id}&type=ADDITION&start=2025-02-14&end=2025-02-14`)).toEqual([30]);
    });

    it.each([
      'page=0',
      'limit=0',
      'limit=101',
      'status=DONE',
      'type=X',
      'start=2025-02-30',
      'start=2025-03-01&end=2025-02-01',
      'vendorId=zzz',
      'unknown=1',
    ])('refuses %s → 422', async (q) => {
      const res = await t.api.get(`${BASE}?${q}`, { token });
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    });

    it('another shop sees none of them', async () => {
      const res = await t.api.get(BASE, { token: mk.token });
      expect(res.body.data.items.every((a: { shopId: string }) => a.shopId === shop.shopId)).toBe(true);
      const mine = (await t.api.get(BASE, { token })).body.data.items[0];
      expect((await t.api.get(`${BASE}/${mine._id}`, { token: mk.token })).status).toBe(404);
      expect((await t.api.patch(`${BASE}/${mine._id}`, { amount: 1 }, { token: mk.token })).status).toBe(404);
      expect((await t.api.delete(`${BASE}/${mine._id}`, { token: mk.token })).status).toBe(404);
    });
  });

  describe('read, edit, delete', () => {
    it('404 for unknown and malformed ids', async () => {
      for (const id of ['6740b9f1c2a4e15b3c9d0a99', 'not-an-id']) {
        const res = await t.api.get(`${BASE}/${id}`, { token: mk.token });
        expect(res.status).toBe(404);
        expect(res.body.error.code).toBe('NOT_FOUND');
      }
    });

    it('PATCH re-signs the amount by type, keeps the rest, refuses unknown or server fields', async () => {
      const created = (await post({ vendorId: vendor._id, amount: 12, type: 'ADDITION', comments: 'x' })).body
        .data;
      const url = `${BASE}/${created._id}`;
      let res = await t.api.patch(url, { type: 'DEDUCTION' }, { token: mk.token });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        amount: -12,
        type: 'DEDUCTION',
        comments: 'x',
        customId: created.customId,
      });
      res = await t.api.patch(url, { amount: 30.25 }, { token: mk.token });
      expect(res.body.data).toMatchObject({ amount: -30.25, type: 'DEDUCTION' });
      res = await t.api.patch(
        url,
        { amount: 4, type: 'ADDITION', comments: 'fixed', customItemDate: '2025-05-05' },
        { token: mk.token },
      );
      expect(res.body.data).toMatchObject({ amount: 4, type: 'ADDITION', comments: 'fixed' });
      expect(res.body.data.customItemDate).toBe('2025-05-05T00:00:00.000Z');
      for (const body of [
        {},
        { status: 'PAID' },
        { batchId: 'b' },
        { vendorId: vendor2._id },
        { amount: -1 },
      ]) {
        const bad = await t.api.patch(url, body, { token: mk.token });
        expect(bad.status).toBe(422);
      }
      expect((await t.api.get(url, { token: mk.token })).body.data).toMatchObject({
        amount: 4,
        status: 'UNPAID',
      });
    });

    it('DELETE removes an UNPAID adjustment', async () => {
      const created = (await post({ vendorId: vendor._id, amount: 2, type: 'ADDITION' })).body.data;
      const res = await t.api.delete(`${BASE}/${created._id}`, { token: mk.token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, data: { _id: created._id, deleted: true } });
      expect((await t.api.get(`${BASE}/${created._id}`, { token: mk.token })).status).toBe(404);
      expect((await t.api.delete(`${BASE}/${created._id}`, { token: mk.token })).status).toBe(404);
    });

    it('a PAID adjustment refuses PATCH and DELETE with 409 ADJUSTMENT_PAID and stays unchanged', async () => {
      const s = await createShop(t, 'adj-paid');
      const token = (await createMerchantKey(t, s)).token;
      const v = await createVendor(t, s, 'Paid Vendor');
      const created = (
        await t.api.post(
          BASE,
          {
            vendorId: v._id,
            amount: 15,
            type: 'DEDUCTION',
            customItemDate: new Date(Date.now() - 2 * DAY).toISOString(),
          },
          { token },
        )
      ).body.data;
      // A batch pays only a positive net (DESIGN §8): an addition outweighs the deduction.
      const addition = await t.api.post(
        BASE,
        {
          vendorId: v._id,
          amount: 20,
          type: 'ADDITION',
          customItemDate: new Date(Date.now() - 2 * DAY).toISOString(),
        },
        { token },
      );
      expect(addition.status).toBe(201);
      const until = new Date().toISOString().slice(0, 10);
      const batch = await t.api.post('/v1/payouts/batches', { vendorId: v._id, until }, { token: s.token });
      expect(batch.status).toBe(202);
      const batchId = batch.body.batchIds[0];
      await waitFor(
        async () =>
          (await t.api.get(`/v1/payouts/batches/${batchId}`, { token: s.token })).body.status === 'completed',
      );
      const paid = (await t.api.get(`${BASE}/${created._id}`, { token })).body.data;
      expect(paid).toMatchObject({ status: 'PAID', batchId, amount: -15 });

      for (const res of [
        await t.api.patch(`${BASE}/${created._id}`, { amount: 99 }, { token }),
        await t.api.patch(`${BASE}/${created._id}`, { comments: 'late' }, { token }),
        await t.api.delete(`${BASE}/${created._id}`, { token }),
      ]) {
        expect(res.status).toBe(409);
        expect(res.body).toMatchObject({ success: false, error: { code: 'ADJUSTMENT_PAID' } });
      }
      const after = (await t.api.get(`${BASE}/${created._id}`, { token })).body.data;
      expect(after).toEqual(paid);
      const listed = (await t.api.get(`${BASE}?status=PAID`, { token })).body.data;
      expect(listed.items.map((a: { _id: string }) => a._id).sort()).toEqual(
        [created._id, addition.body.data._id].sort(),
      );
    });
  });
});

async function waitFor(check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('timed out waiting');
}
