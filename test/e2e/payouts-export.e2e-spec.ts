import { startApp, TestApp } from '../support/app';
import { cents, fmt, line } from '../support/cents';
import { csvObjects } from '../support/csv';
import { createShop } from '../support/factory';
import { createVendor } from '../support/payout-fixtures';
import { sendWebhook, shopifyOrder, waitForWebhooks } from '../support/webhooks';

/**
 * GET /v1/payouts as CSV at size: every page of 10,000 rows streamed, seeded through the real
 * ingestion path (100 signed orders of 100 lines: ~15 s here; a bulk insert would skip the money
 * calculation the figures are checked against).
 */
describe('GET /v1/payouts as CSV: 10,000 rows (e2e)', () => {
  let t: TestApp;
  const csv = (path: string, token: string) => t.api.get(path, { token, headers: { accept: 'text/csv' } });

  beforeAll(async () => {
    process.env.QUEUE_PREFIX = `${process.env.QUEUE_PREFIX ?? 'mp-test'}-export-${process.pid}`;
    t = await startApp();
  });

  afterAll(() => t.close());

  it('exports 10,000 rows: every page, header, count, Σ payout to the cent', async () => {
    const big = await createShop(t, 'stmt-big');
    await createVendor(t, big, 'Bulk Vendor', { commissionType: 'percentage', commissionAmount: 10 });
    // Seeded through the real ingestion path: 100 signed orders of 100 lines each.
    let expected = 0n;
    const ids: string[] = [];
    for (let o = 0; o < 100; o += 10) {
      const sent = await Promise.all(
        Array.from({ length: 10 }, (_, k) => {
          const i = o + k;
          const lineItems = Array.from({ length: 100 }, (_, j) => {
            const price = fmt(BigInt(((i * 100 + j) * 37) % 9000) + 101n);
            const quantity = (j % 3) + 1;
            expected += line(price, quantity, 10n).payout;
            return {
              title: j % 10 === 0 ? `=SUM(${j})` : j % 10 === 1 ? `Item ${j}\nsecond line` : `Item ${j}`,
              vendor: 'Bulk Vendor',
              price,
              quantity,
            };
          });
          const order = shopifyOrder({
            createdAt: new Date(Date.UTC(2026, 1, 1, 0, i)),
            financialStatus: 'paid',
            lineItems,
          });
          return sendWebhook(t, big, 'orders/create', order);
        }),
      );
      for (const s of sent) expect(s.status).toBe(200);
      ids.push(...sent.map((s) => s.webhookId));
    }
    await waitForWebhooks(t, big, ids, 120_000);
    const json = await t.api.get('/v1/payouts?limit=1', { token: big.token });
    expect(json.body.total).toBe(10_000);
    const res = await csv('/v1/payouts', big.token);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    const { rows } = csvObjects(res.text);
    expect(rows).toHaveLength(10_000);
    expect(new Set(rows.map((r) => r.rowId)).size).toBe(10_000);
    expect(fmt(rows.reduce((x, r) => x + cents(r.payout), 0n))).toBe(fmt(expected));
    expect(rows.filter((r) => r.lineItemName.startsWith("'=SUM(")).length).toBe(1000);
    // a bare LF inside a title: quoted (the reader throws on a bare LF outside quotes)
    expect(rows.filter((r) => r.lineItemName.endsWith('\nsecond line')).length).toBe(1000);
    const dates = rows.map((r) => r.date);
    expect([...dates].sort().reverse()).toEqual(dates); // newest first
    const typed = await csv('/v1/payouts?type=refund', big.token);
    expect(csvObjects(typed.text).rows).toHaveLength(0);
  }, 240_000);
});
