import { randomUUID } from 'node:crypto';
import { startApp, TestApp } from '../support/app';
import { createMerchantKey, createShop, TestShop } from '../support/factory';

/**
 * Issue 18, items 4 and 6 (the credential half): bounded users list and merchant keys, Idempotency-
 * Keys of the exact credential, and the audit trail's own request id beside the caller's.
 */
describe('security: per-credential scope and bounds (e2e)', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;

  beforeAll(async () => {
    t = await startApp();
    shop = await createShop(t, 'sec-scope');
    other = await createShop(t, 'sec-scope-other');
  });
  afterAll(() => t.close());

  describe('GET /v1/users pages', () => {
    let vendorId: string;
    const emails: string[] = [];

    beforeAll(async () => {
      const v = await t.api.post(
        '/v1/vendors',
        { vendorName: 'Paged Users', commissionType: 'flat', commissionAmount: 1 },
        { token: shop.token },
      );
      vendorId = v.body.vendor._id;
      for (let i = 0; i < 5; i++) {
        const email = `paged-${i}-${Date.now().toString(36)}@example.com`;
        const u = await t.api.post(
          '/v1/users',
          { vendorId, email, password: 'paged-pass-123' },
          { token: shop.token },
        );
        expect(u.status).toBe(200);
        emails.push(email);
      }
      // another shop's user never appears in this shop's list
      const ov = await t.api.post(
        '/v1/vendors',
        { vendorName: 'Other Paged', commissionType: 'flat', commissionAmount: 1 },
        { token: other.token },
      );
      await t.api.post(
        '/v1/users',
        {
          vendorId: ov.body.vendor._id,
          email: `other-${Date.now()}@example.com`,
          password: 'paged-pass-123',
        },
        { token: other.token },
      );
    });

    it('limit/offset with total and nextOffset; the users array keeps the spec shape', async () => {
      const first = await t.api.get('/v1/users?limit=2', { token: shop.token });
      expect(first.status).toBe(200);
      expect(first.body).toEqual({
        total: 5,
        nextOffset: 2,
        users: [expect.any(Object), expect.any(Object)],
      });
      expect(Object.keys(first.body.users[0]).sort()).toEqual(
        ['createdAt', 'email', 'lastLoggedIn', 'userId', 'vendorId', 'vendorName'].sort(),
      );
      const second = await t.api.get('/v1/users?limit=2&offset=2', { token: shop.token });
      const last = await t.api.get('/v1/users?limit=2&offset=4', { token: shop.token });
      expect(second.body.nextOffset).toBe(4);
      expect(last.body).toMatchObject({ total: 5, nextOffset: null });
      expect(last.body.users).toHaveLength(1);
      const seen = [...first.body.users, ...second.body.users, ...last.body.users].map(
        (u: { email: string }) => u.email,
      );
      // newest first, each user once, none of the other shop's
      expect(seen).toEqual([...emails].reverse());
      const all = await t.api.get('/v1/users', { token: shop.token });
      expect(all.body).toMatchObject({ total: 5, nextOffset: null });
    });

    it('out-of-range paging → 422', async () => {
      for (const q of ['limit=0', 'limit=251', 'offset=-1', 'limit=abc']) {
        const res = await t.api.get(`/v1/users?${q}`, { token: shop.token });
        expect(res.status).toBe(422);
        expect(res.body).toEqual({ error: expect.any(String) });
      }
    });
  });

  describe('merchant keys', () => {
    it('the 26th active key of a shop → 409; revoking one frees a place', async () => {
      const s = await createShop(t, 'sec-keycap');
      const ids: string[] = [];
      for (let i = 0; i < 25; i++) {
        const res = await t.api.post('/v1/merchant-keys', { name: `k${i}` }, { token: s.token });
        expect(res.status).toBe(200);
        ids.push(res.body.id);
      }
      const refused = await t.api.post('/v1/merchant-keys', { name: 'k25' }, { token: s.token });
      expect(refused.status).toBe(409);
      expect(refused.body).toEqual({ error: expect.stringContaining('25 active merchant keys') });
      const list = await t.api.get('/v1/merchant-keys?limit=250', { token: s.token });
      expect(list.body.total).toBe(25);
      expect((await t.api.delete(`/v1/merchant-keys/${ids[0]}`, { token: s.token })).status).toBe(200);
      expect((await t.api.post('/v1/merchant-keys', { name: 'k26' }, { token: s.token })).status).toBe(200);
      // another shop is not affected
      expect((await t.api.post('/v1/merchant-keys', {}, { token: other.token })).status).toBe(200);
    });
  });

  describe('Idempotency-Key belongs to the exact credential', () => {
    it('two merchant keys of one shop using the same key both succeed, independently', async () => {
      const a = await createMerchantKey(t, shop);
      const b = await createMerchantKey(t, shop);
      const key = `same-${randomUUID()}`;
      const post = (token: string, vendorName: string) =>
        t.api.post(
          '/v2/vendors',
          { vendorName, commissionType: 'flat', commissionAmount: 2 },
          { token, headers: { 'idempotency-key': key } },
        );
      const fromA = await post(a.token, `Idem A ${key}`);
      const fromB = await post(b.token, `Idem B ${key}`); // another body: no 422 mismatch
      expect(fromA.status).toBe(201);
      expect(fromB.status).toBe(201);
      expect(fromB.headers.get('idempotent-replayed')).toBeNull();
      expect(fromB.body.data._id).not.toBe(fromA.body.data._id);
      // the same body under the same key from B is not A's stored answer either
      const c = await createMerchantKey(t, shop);
      const fromC = await post(c.token, `Idem A ${key}`);
      expect(fromC.headers.get('idempotent-replayed')).toBeNull();
      expect(fromC.status).toBe(409); // its own run: the name is taken
      // each key still replays its own answer
      const againA = await post(a.token, `Idem A ${key}`);
      expect(againA.status).toBe(201);
      expect(againA.headers.get('idempotent-replayed')).toBe('true');
      expect(againA.body.data._id).toBe(fromA.body.data._id);
    });
  });

  describe('audit trail request ids', () => {
    it("records our request id and the caller's x-request-id apart", async () => {
      const theirs = `caller-${randomUUID()}`;
      const res = await t.api.post(
        '/v1/vendors',
        { vendorName: `Audited ids ${theirs}`, commissionType: 'flat', commissionAmount: 3 },
        { token: shop.token, headers: { 'x-request-id': theirs } },
      );
      expect(res.status).toBe(200);
      // the caller's well-formed id is echoed (finding 13c); ours is what the audit records
      expect(res.headers.get('x-request-id')).toBe(theirs);
      const audited = async (vendorId: string) => {
        const events = await t.api.get(`/v1/audit-events?action=vendor.create&resourceId=${vendorId}`, {
          token: shop.token,
        });
        expect(events.status).toBe(200);
        expect(events.body.events).toEqual([
          expect.objectContaining({
            requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
            clientRequestId: theirs,
          }),
        ]);
        return events.body.events[0].requestId as string;
      };
      const ours = await audited(res.body.vendor._id);
      // a caller cannot name another request's id as ours: the same header twice gives two ids
      const again = await t.api.post(
        '/v1/vendors',
        { vendorName: `Audited ids 2 ${theirs}`, commissionType: 'flat', commissionAmount: 3 },
        { token: shop.token, headers: { 'x-request-id': theirs } },
      );
      expect(await audited(again.body.vendor._id)).not.toBe(ours);
    });
  });
});
