/* eslint-disable @typescript-eslint/no-explicit-any */
import { money, sumAmounts } from '../../src/common/money';
import { startApp, TestApp } from '../support/app';
import { createShop, TestShop } from '../support/factory';
import { createVendor, seedOrder } from '../support/payout-fixtures';

/**
 * The v1 endpoints a client written against the real product's documentation calls (issue 9):
 * the vendor list, vendor and user deletion, a vendor's profile, and the vendor report with totals.
 */
describe('v1 parity endpoints (e2e)', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;
  const password = 'S3cure-portal-pass';

  beforeAll(async () => {
    t = await startApp();
    shop = await createShop(t, 'parity');
    other = await createShop(t, 'parity-other');
  });

  afterAll(() => t.close());

  const get = (path: string, s: TestShop = shop) => t.api.get(path, { token: s.token });

  async function user(vendorId: string, email: string): Promise<string> {
    const res = await t.api.post('/v1/users', { vendorId, email, password }, { token: shop.token });
    expect(res.status).toBe(200);
    return res.body.user._id;
  }

  const signIn = (email: string) =>
    t.api.post('/v2/vendor/authenticate', { shopDomain: shop.shopDomain, email, password });

  describe('GET /v1/vendors', () => {
    let ids: string[];

    beforeAll(async () => {
      ids = [];
      for (const name of ['Delta', 'Alpha', 'Charlie', 'Bravo', 'Echo'])
        ids.push((await createVendor(t, shop, `List ${name}`))._id);
      await user(ids[1], 'alpha-1@example.com');
      await user(ids[1], 'alpha-2@example.com');
      await createVendor(t, other, 'List Zulu');
    });

    it('pages by name with total and nextOffset; another shop sees only its own', async () => {
      const first = await get('/v1/vendors?limit=2');
      expect(first.status).toBe(200);
      expect(first.body.total).toBeGreaterThanOrEqual(5);
      expect(first.body.nextOffset).toBe(2);
      const names: string[] = [];
      let offset: number | null = 0;
      while (offset !== null) {
        const page: any = await get(`/v1/vendors?limit=2&offset=${offset}`);
        names.push(...page.body.vendors.map((v: any) => v.vendorName));
        offset = page.body.nextOffset;
      }
      const listed = names.filter((n) => n.startsWith('list '));
      expect(listed).toEqual(['list alpha', 'list bravo', 'list charlie', 'list delta', 'list echo']);
      expect(names).not.toContain('list zulu');
      const theirs = await get('/v1/vendors', other);
      expect(theirs.body.vendors.map((v: any) => v.vendorName)).toEqual(['list zulu']);
      expect(theirs.body).toMatchObject({ total: 1, nextOffset: null });
    });

    it('users=true adds each vendor’s users, never a password or its hash', async () => {
      const res = await get('/v1/vendors?users=true&limit=250');
      const alpha = res.body.vendors.find((v: any) => v.vendorName === 'list alpha');
      expect(alpha.users.map((u: any) => u.email).sort()).toEqual([
        'alpha-1@example.com',
        'alpha-2@example.com',
      ]);
      expect(res.body.vendors.find((v: any) => v.vendorName === 'list echo').users).toEqual([]);
      expect(res.text).not.toMatch(/password|\$argon2/i);
      expect(res.text).not.toContain(password);
      expect((await get('/v1/vendors')).body.vendors[0].users).toBeUndefined();
    });

    it('limit and offset are validated like the other v1 lists', async () => {
      for (const q of ['limit=0', 'limit=251', 'offset=-1', 'active=maybe', 'users=yes'])
        expect((await get(`/v1/vendors?${q}`)).status).toBe(422);
    });
  });

  describe('DELETE /v1/vendors/{vendorId}: soft delete', () => {
    it('deactivates: out of the commission list, users refused at sign-in and on the next request; history stays', async () => {
      const v = await createVendor(t, shop, 'Gone Soon');
      await user(v._id, 'gone@example.com');
      const signedIn = await signIn('gone@example.com');
      expect(signedIn.status).toBe(200);
      const vendorToken = signedIn.body.data.token;
      expect((await t.api.get('/orders?first=1', { token: vendorToken })).status).toBe(200);
      const order = await seedOrder(t, shop, {
        createdAt: new Date('2026-10-01T10:00:00Z'),
        lines: [{ vendor: 'Gone Soon', price: 20 }],
      });

      const res = await t.api.delete(`/v1/vendors/${v._id}`, { token: shop.token });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ message: expect.any(String), vendor: { _id: v._id, active: false } });

      const commissions = await get('/v1/commissions/vendor');
      expect(commissions.body.vendors.map((c: any) => c.vendorId)).not.toContain(v._id);
      expect((await t.api.get('/orders?first=1', { token: vendorToken })).status).toBe(401);
      expect((await signIn('gone@example.com')).status).toBe(401);
      // the vendor, its line items and its payouts stay
      expect((await get(`/v1/vendors/${v._id}`)).body.vendor[0].active).toBe(false);
      const inactive = await get('/v1/vendors?active=false&limit=250');
      expect(inactive.body.vendors.map((x: any) => x._id)).toContain(v._id);
      expect(
        (await get('/v1/vendors?active=true&limit=250')).body.vendors.map((x: any) => x._id),
      ).not.toContain(v._id);
      const payouts = await get(`/v1/payouts?vendorId=${v._id}`);
      expect(payouts.body.payouts.map((p: any) => p._id)).toEqual(order.ids);
      expect((await t.api.delete(`/v1/vendors/${v._id}`, { token: shop.token })).status).toBe(200);
    });

    it('another shop’s vendor, an unknown or a malformed id → 404', async () => {
      const v = await createVendor(t, shop, 'Not Theirs');
      for (const [id, s] of [
        [v._id, other],
        ['6740c1a2e4b0f15b3c9d0a99', shop],
        ['nope', shop],
      ] as const)
        expect((await t.api.delete(`/v1/vendors/${id}`, { token: s.token })).status).toBe(404);
      expect((await get(`/v1/vendors/${v._id}`)).body.vendor[0].active).toBe(true);
    });
  });

  describe('DELETE /v1/users/{userId}', () => {
    it('the user can no longer sign in and its token is refused on the next request', async () => {
      const v = await createVendor(t, shop, 'Keeps Vendor');
      const id = await user(v._id, 'leaver@example.com');
      const token = (await signIn('leaver@example.com')).body.data.token;
      expect((await t.api.get('/orders?first=1', { token })).status).toBe(200);
      expect((await t.api.delete(`/v1/users/${id}`, { token: other.token })).status).toBe(404);
      const res = await t.api.delete(`/v1/users/${id}`, { token: shop.token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: 'User deleted' });
      expect((await t.api.get('/orders?first=1', { token })).status).toBe(401);
      expect((await signIn('leaver@example.com')).status).toBe(401);
      expect((await get(`/v1/users/${id}`)).status).toBe(404);
      expect((await t.api.delete(`/v1/users/${id}`, { token: shop.token })).status).toBe(404);
    });
  });

  describe('GET /v1/vendors/{vendorId}/profile', () => {
    it('answers {profile: [{field, value}]}; 404 for another shop', async () => {
      expect(
        (await t.api.put('/v1/shop/profile', { fields: ['taxId', 'vip'] }, { token: shop.token })).status,
      ).toBe(200);
      const v = await createVendor(t, shop, 'Profiled');
      expect((await get(`/v1/vendors/${v._id}/profile`)).body).toEqual({ profile: [] });
      await t.api.put(
        `/v1/vendors/${v._id}/profile`,
        [
          { field: 'taxId', value: 'GB123' },
          { field: 'vip', value: true },
        ],
        { token: shop.token },
      );
      expect((await get(`/v1/vendors/${v._id}/profile`)).body).toEqual({
        profile: [
          { field: 'taxId', value: 'GB123' },
          { field: 'vip', value: true },
        ],
      });
      expect((await get(`/v1/vendors/${v._id}/profile`, other)).status).toBe(404);
    });
  });

  describe('GET /v1/report/{vendorId}', () => {
    let vendorId: string;
    const prices = [19.99, 0.1, 0.2, 33.33, 7.07, 12.5, 0.01];

    beforeAll(async () => {
      vendorId = (
        await createVendor(t, shop, 'Reported', { commissionType: 'percentage', commissionAmount: 12.5 })
      )._id;
      // 7 orders on 7 days (Nov 1–7), one line each; a line of another vendor on the same days.
      for (const [i, price] of prices.entries()) {
        await seedOrder(t, shop, {
          createdAt: new Date(Date.UTC(2026, 10, 1 + i, 23, 30)),
          lines: [
            { vendor: 'Reported', price, quantity: 3 },
            { vendor: 'Profiled', price: 100 },
          ],
        });
      }
      // a hand-written deduction on one line
      const lines = (await get(`/v1/report/${vendorId}?limit=250`)).body.lineItems;
      await t.api.post(
        '/v1/lineitems/update',
        {
          items: [
            { orderId: lines[0].orderId, lineItemId: lines[0].lineItemId, fields: { deduction: 1.11 } },
          ],
        },
        { token: shop.token },
      );
    });

    it('pages the vendor’s lines in the inclusive day range, newest first', async () => {
      const page1 = await get(`/v1/report/${vendorId}?start=2026-11-02&end=2026-11-06&limit=2`);
      expect(page1.status).toBe(200);
      expect(page1.body.total).toBe(5);
      expect(page1.body.nextOffset).toBe(2);
      expect(page1.body.lineItems.map((l: any) => l.date.slice(0, 10))).toEqual(['2026-11-06', '2026-11-05']);
      const page3 = await get(`/v1/report/${vendorId}?start=2026-11-02&end=2026-11-06&limit=2&offset=4`);
      expect(page3.body.nextOffset).toBeNull();
      expect(page3.body.lineItems).toHaveLength(1);
      expect(page3.body.lineItems[0]).toEqual(
        expect.objectContaining({
          sales: expect.any(Number),
          salesAfterDiscount: expect.any(Number),
          tax: expect.any(Number),
          costOfItem: expect.any(Number),
          commissionPlan: 'vendor:percentage:12.5',
          commission: expect.any(Number),
          deduction: expect.any(Number),
          payout: expect.any(Number),
          paid: expect.any(Number),
          balance: expect.any(Number),
        }),
      );
    });

    it('totals cover the whole range (not the page), to the cent', async () => {
      const all = (await get(`/v1/report/${vendorId}?limit=250`)).body.lineItems;
      expect(all).toHaveLength(prices.length);
      const res = await get(`/v1/report/${vendorId}?limit=1`);
      const sum = (f: string) => sumAmounts(all.map((l: any) => l[f]));
      expect(res.body.totals).toEqual({
        sales: sum('sales'),
        netSales: sum('salesAfterDiscount'),
        commission: sum('commission'),
        deduction: sum('deduction'),
        payout: sum('payout'),
        paid: sum('paid'),
        balance: sum('balance'),
      });
      // independently: Σ price × 3, and the deduction written by hand
      expect(res.body.totals.sales).toBe(sumAmounts(prices.map((p) => money(p).times(3))));
      expect(res.body.totals.deduction).toBe(1.11);
      console.log(`[report] totals over ${all.length} lines: ${JSON.stringify(res.body.totals)}`);
    });

    it('an empty range reads zeros; another shop or an unknown vendor → 404; bad dates → 422', async () => {
      const empty = await get(`/v1/report/${vendorId}?start=2027-01-01&end=2027-01-31`);
      expect(empty.body).toEqual({
        total: 0,
        nextOffset: null,
        totals: { sales: 0, netSales: 0, commission: 0, deduction: 0, payout: 0, paid: 0, balance: 0 },
        lineItems: [],
      });
      expect((await get(`/v1/report/${vendorId}`, other)).status).toBe(404);
      expect((await get('/v1/report/6740c1a2e4b0f15b3c9d0a99')).status).toBe(404);
      expect((await get(`/v1/report/${vendorId}?start=2026-13-01`)).status).toBe(422);
      expect((await get(`/v1/report/${vendorId}?start=2026-11-05&end=2026-11-01`)).status).toBe(422);
    });
  });
});
