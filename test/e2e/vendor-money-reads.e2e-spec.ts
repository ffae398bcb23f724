/* eslint-disable @typescript-eslint/no-explicit-any */
import { startApp, TestApp } from '../support/app';
import { createVendor, vendorToken } from '../support/catalog';
import { cents, fmt } from '../support/cents';
import { createMerchantKey, createShop, TestShop } from '../support/factory';
import { seedOrder } from '../support/payout-fixtures';
import { payBatch, transferIn } from '../support/transfers';

describe('vendor money: GET /payouts/summary, GET /payouts/transactions (e2e)', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;
  let acmeToken: string;
  let globexToken: string;
  let otherToken: string;
  let merchantToken: string;
  /** Acme's transfers in creation order: id, amount, final state. */
  const transfers: Array<{ _id: string; batchId: string; amount: string; state: string }> = [];

  beforeAll(async () => {
    t = await startApp();
    shop = await createShop(t, 'vmoney');
    other = await createShop(t, 'vmoney-other');
    const acme = await createVendor(t, shop, 'Acme', { commissionType: 'percentage', commissionAmount: 10 });
    const globex = await createVendor(t, shop, 'Globex');
    const otherAcme = await createVendor(t, other, 'Acme');
    acmeToken = await vendorToken(t, shop, acme._id);
    globexToken = await vendorToken(t, shop, globex._id);
    otherToken = await vendorToken(t, other, otherAcme._id);
    merchantToken = (await createMerchantKey(t, shop)).token;
    // Rows the balance counts: a paid order (due) and an order whose money is not captured (pending).
    const day = new Date(Date.UTC(2026, 0, 5, 12));
    await seedOrder(t, shop, { createdAt: day, lines: [{ vendor: 'Acme', price: 10.05, quantity: 3 }] });
    await seedOrder(t, shop, {
      createdAt: day,
      financialStatus: 'pending',
      lines: [{ vendor: 'Acme', price: 20.01 }],
    });
    // Transfers on the manual rail: two confirmed paid, one awaiting its bank reference, one failed.
    for (const [amount, end] of [
      ['99.90', 'paid'],
      ['0.10', 'paid'],
      ['12.34', 'awaiting_reference'],
      ['5.55', 'failed'],
    ] as const) {
      const created = await payBatch(t, shop, acme._id, Number(amount));
      await transferIn(t, shop, created._id, 'awaiting_reference');
      const path = `/v1/payouts/transfers/${created._id}`;
      if (end === 'paid') {
        const res = await t.api.post(
          `${path}/confirm`,
          { reference: `REF-${amount}` },
          { token: shop.token },
        );
        expect(res.status).toBe(200);
      } else if (end === 'failed') {
        const res = await t.api.post(
          `${path}/fail`,
          { reason: 'Returned by the bank' },
          { token: shop.token },
        );
        expect(res.status).toBe(200);
      }
      transfers.push({ _id: created._id, batchId: created.batchId, amount, state: end });
    }
    await payBatch(t, other, otherAcme._id, 7);
  });
  afterAll(() => t.close());

  const get = (path: string, token: string) => t.api.get(path, { token });

  it.each(['/payouts/transactions', '/v2/payouts/transactions'])(
    '%s: the vendor’s transfers newest first, in the documented shape',
    async (path) => {
      const res = await get(path, acmeToken);
      expect(res.status).toBe(200);
      expect(res.body.data.totalCount).toBe(4);
      const items = res.body.data.items;
      expect(items.map((i: any) => i._id)).toEqual([...transfers].reverse().map((x) => x._id));
      for (const item of items) {
        const mine = transfers.find((x) => x._id === item._id)!;
        expect(Object.keys(item).sort()).toEqual(
          ['_id', 'amount', 'batchId', 'createdAt', 'currency', 'method', 'paidAt', 'state'].sort(),
        );
        expect(item).toMatchObject({
          batchId: mine.batchId,
          currency: 'USD',
          method: 'manual',
          state: mine.state,
        });
        expect(cents(String(item.amount))).toBe(cents(mine.amount));
        expect(item.paidAt === null).toBe(mine.state !== 'paid');
      }
    },
  );

  it('pages the transactions with cursors', async () => {
    const first = await get('/payouts/transactions?first=3', acmeToken);
    expect(first.body.data.items).toHaveLength(3);
    expect(first.body.data.pageInfo.hasNextPage).toBe(true);
    const after = encodeURIComponent(first.body.data.pageInfo.endCursor);
    const rest = await get(`/payouts/transactions?first=3&after=${after}`, acmeToken);
    expect(rest.body.data.items.map((i: any) => i._id)).toEqual([transfers[0]._id]);
    expect((await get('/payouts/transactions?first=101', acmeToken)).status).toBe(422);
    expect((await get('/payouts/transactions?after=garbled', acmeToken)).status).toBe(422);
  });

  it('summary: totalReceived = Σ paid transfers, totalPending = the balance’s due + pending, to the cent', async () => {
    const res = await get('/payouts/summary', acmeToken);
    expect(res.status).toBe(200);
    const s = res.body.data;
    // the oracle, in BigInt cents over what this test created
    const received = transfers.filter((x) => x.state === 'paid').reduce((a, x) => a + cents(x.amount), 0n);
    expect(fmt(cents(String(s.totalReceived)))).toBe(fmt(received));
    expect(fmt(received)).toBe('100.00');
    // due: 3 × 10.05 at 10% → 30.15 − 3.02 (half-up of 3.015) = 27.13, plus the failed transfer credited
    // back (5.55); pending: 20.01 − 2.00 = 18.01
    const line = (price: bigint, qty: bigint) => {
      const sales = price * qty;
      return sales - (sales * 10n * 2n + 100n) / 200n;
    };
    const due = line(1005n, 3n) + cents('5.55');
    const pending = line(2001n, 1n);
    expect(fmt(cents(String(s.totalPending)))).toBe(fmt(due + pending));
    const balance = (await get('/v2/balance', acmeToken)).body.data;
    expect(fmt(cents(String(s.totalPending)))).toBe(
      fmt(cents(String(balance.due)) + cents(String(balance.pending))),
    );
    expect(s.currency).toBe('USD');
    const newestPaid = transfers[1];
    const tx = (await get('/payouts/transactions', acmeToken)).body.data.items.find(
      (i: any) => i._id === newestPaid._id,
    );
    expect(s.previousPayout).toEqual({ amount: 0.1, date: tx.paidAt, batchId: newestPaid.batchId });
    expect(s.nextPayout).toBeNull();
    expect((await get('/v2/payouts/summary', acmeToken)).body.data).toEqual(s);
  });

  it('another vendor or another shop’s vendor sees none of it', async () => {
    const g = await get('/payouts/summary', globexToken);
    expect(g.body.data).toMatchObject({ totalReceived: 0, totalPending: 0, previousPayout: null });
    expect((await get('/payouts/transactions', globexToken)).body.data).toMatchObject({
      items: [],
      totalCount: 0,
    });
    const o = await get('/payouts/transactions', otherToken);
    expect(o.body.data.totalCount).toBe(1);
    expect(o.body.data.items[0].amount).toBe(7);
    expect((await get('/payouts/summary', otherToken)).body.data.totalReceived).toBe(0);
  });

  it('shop and merchant tokens get 403', async () => {
    for (const path of [
      '/payouts/summary',
      '/v2/payouts/summary',
      '/payouts/transactions',
      '/v2/payouts/transactions',
    ]) {
      for (const token of [shop.token, merchantToken]) {
        const res = await get(path, token);
        expect(res.status).toBe(403);
        expect(res.body.error.code).toBe('FORBIDDEN');
      }
    }
  });
});
