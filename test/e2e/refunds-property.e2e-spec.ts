/* eslint-disable @typescript-eslint/no-explicit-any */
import fc from 'fast-check';
import { shopScope } from '../../src/common/tenancy';
import { PayoutReconcileService } from '../../src/payouts/payout-reconcile.service';
import { startApp, TestApp } from '../support/app';
import { createShop } from '../support/factory';
import { createVendor } from '../support/payout-fixtures';
import { shopifyRefund } from '../support/refunds';
import { DAY } from '../support/test-clock';
import { nextVersion, platformId, sendWebhook, shopifyOrder, waitForWebhooks } from '../support/webhooks';

// A property over HTTP (bounded runs: each event is a real webhook or batch): random sequences of
// orders, refunds, duplicate deliveries, cancellations and batches for two vendors. After every
// event the reconcile invariants hold; at every batch nothing is paid twice, a batch never pays a
// negative total, and a paid batch pays exactly what was due (so Σ paid never exceeds what was
// earned net up to its cut-off).
process.env.QUEUE_PREFIX = `${process.env.QUEUE_PREFIX ?? 'mp-test'}-refunds-property`;

type Event =
  | { kind: 'order'; vendor: number; cents: number; qty: number }
  | { kind: 'refund'; pick: number; units: number }
  | { kind: 'duplicate'; pick: number }
  | { kind: 'cancel'; pick: number }
  | { kind: 'batch'; vendor: number };

const event: fc.Arbitrary<Event> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('order' as const),
      vendor: fc.integer({ min: 0, max: 1 }),
      cents: fc.integer({ min: 1, max: 99_999 }),
      qty: fc.integer({ min: 1, max: 4 }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('refund' as const),
      pick: fc.nat(),
      units: fc.integer({ min: 1, max: 4 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('duplicate' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat() }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('batch' as const), vendor: fc.integer({ min: 0, max: 1 }) }),
  },
);

const c = (v: number): bigint => BigInt(Math.round(v * 100));
const ymd = (d: Date) => d.toISOString().slice(0, 10);

describe('refunds and netting: a property over random event sequences (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  it('reconcile holds after every event; batches never pay twice, never negative, never more than due', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(event, { minLength: 3, maxLength: 9 }), async (events) => {
        const shop = await createShop(t, 'rf-prop');
        const vendors = [
          await createVendor(t, shop, 'prop a', { commissionType: 'percentage', commissionAmount: 10 }),
          await createVendor(t, shop, 'prop b', { commissionType: 'percentage', commissionAmount: 7 }),
        ];
        const orders: Array<{ payload: any; refunded: number }> = [];
        const sent: Array<{ topic: string; payload: any; webhookId: string }> = [];
        const send = async (topic: string, payload: any, webhookId?: string) => {
          const res = await sendWebhook(t, shop, topic, payload, webhookId ? { webhookId } : {});
          expect(res.status).toBe(200);
          await waitForWebhooks(t, shop, [res.webhookId]);
          sent.push({ topic, payload, webhookId: res.webhookId });
        };
        const start = Date.now() - 40 * DAY;
        for (const [step, e] of events.entries()) {
          const at = new Date(start + step * DAY);
          if (e.kind === 'order') {
            const payload = shopifyOrder({
              createdAt: at,
              financialStatus: 'paid',
              lineItems: [
                {
                  id: platformId(),
                  vendor: vendors[e.vendor].vendorName,
                  price: (e.cents / 100).toFixed(2),
                  quantity: e.qty,
                },
              ],
            });
            orders.push({ payload, refunded: 0 });
            await send('orders/create', payload);
          } else if ((e.kind === 'refund' || e.kind === 'cancel') && orders.length > 0) {
            const o = orders[e.pick % orders.length];
            const line = o.payload.line_items[0];
            const left = line.quantity - o.refunded;
            if (left === 0) continue;
            const units = e.kind === 'cancel' ? left : Math.min(e.units, left);
            o.refunded += units;
            const refund = shopifyRefund({
              orderId: o.payload.id,
              processedAt: at,
              lines: [{ lineItemId: line.id, quantity: units }],
            });
            if (e.kind === 'refund') await send('refunds/create', refund);
            else {
              o.payload = nextVersion(o.payload, {
                financial_status: 'refunded',
                cancelled_at: at.toISOString(),
                refunds: [...(o.payload.refunds ?? []), refund],
              });
              await send('orders/cancelled', o.payload);
            }
          } else if (e.kind === 'duplicate' && sent.length > 0) {
            const d = sent[e.pick % sent.length];
            // a new delivery of the same content (a platform retry has a new webhook id)
            await send(d.topic === 'orders/create' ? 'orders/updated' : d.topic, d.payload);
          } else if (e.kind === 'batch') {
            const v = vendors[e.vendor];
            const before = (await t.api.get(`/v1/vendors/${v._id}/balance`, { token: shop.token })).body;
            const res = await t.api.post(
              '/v1/payouts/batches',
              { until: ymd(at), vendorId: v._id },
              { token: shop.token },
            );
            expect(res.status).toBe(202);
            let b: any;
            for (let i = 0; i < 200; i++) {
              b = (await t.api.get(`/v1/payouts/batches/${res.body.batchIds[0]}`, { token: shop.token }))
                .body;
              if (['completed', 'carried_forward', 'failed'].includes(b.status)) break;
              await new Promise((r) => setTimeout(r, 50));
            }
            expect(b.status).not.toBe('failed');
            expect(b.total).toBeGreaterThanOrEqual(0);
            const rows = (await t.api.get(`/v1/payouts?limit=250&vendorId=${v._id}`, { token: shop.token }))
              .body.payouts as any[];
            // nothing paid twice or in part: a row is paid its whole payout once, or not at all
            for (const r of rows) expect([0n, c(r.payout)]).toContain(c(r.paid));
            const due = rows.filter((r) => r.batchId === null && r.date <= b.cutoff);
            if (b.status === 'completed') {
              // a paid batch pays exactly what was due: every row up to its cut-off is settled
              expect(due.filter((r) => r.balance !== 0)).toEqual([]);
              expect(c(b.total)).toBe(c(before.due));
              expect(b.total).toBeGreaterThan(0);
            } else {
              expect(b.net).toBeLessThanOrEqual(0);
              expect(b.total).toBe(0);
            }
            const after = (await t.api.get(`/v1/vendors/${v._id}/balance`, { token: shop.token })).body;
            const paidOnRows = rows.reduce((n, r) => n + c(r.paid), 0n);
            expect(c(after.paidToDate)).toBe(paidOnRows);
          }
          const proof = await t.app.get(PayoutReconcileService).reconcile(shopScope(shop.shopId));
          expect(proof.vendors.filter((v) => !v.ok)).toEqual([]);
        }
      }),
      { numRuns: 15, interruptAfterTimeLimit: 50_000 },
    );
  }, 120_000);
});
