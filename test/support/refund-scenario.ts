/* eslint-disable @typescript-eslint/no-explicit-any */
import { shopScope } from '../../src/common/tenancy';
import { PayoutReconcileService } from '../../src/payouts/payout-reconcile.service';
import { SellerTaxReconcile } from '../../src/reports/seller-tax-reconcile.service';
import type { TestApp } from './app';
import { createShop } from './factory';
import { createVendor } from './payout-fixtures';
import { DAY } from './test-clock';
import { platformId, SendOptions, sendWebhook, shopifyOrder, waitForWebhooks } from './webhooks';

// The refund e2e files' oracle (BigInt cents, half-up away from zero), written apart from the
// money function, and their scenario: a shop with vendors at 10 % and the steps every test takes.
export const c = (amount: string | number): bigint => BigInt(Math.round(Number(amount) * 100));
export const half = (n: bigint, d: bigint): bigint => {
  const neg = n < 0n !== d < 0n;
  const a = n < 0n ? -n : n;
  const b = d < 0n ? -d : d;
  const q = (2n * a + b) / (2n * b);
  return neg ? -q : q;
};
export const amount = (cents: bigint): number => Number(cents) / 100;
/** Payout of a line at a percentage commission (no settings): sales − half-up(sales × rate / 100). */
export const payoutOf = (price: string, qty: number, rate: number): bigint => {
  const sales = c(price) * BigInt(qty);
  return sales - half(sales * BigInt(rate), 100n);
};
/** A refund row of k of n units (not the last): −half-up(figure × k / n). */
export const share = (figure: bigint, k: number, n: number): bigint => -half(figure * BigInt(k), BigInt(n));

export const ymd = (d: Date) => d.toISOString().slice(0, 10);
export const day = (offset: number) => new Date(Date.now() + offset * DAY);

/** A shop with vendors at 10 % (their commission), and the steps every refund scenario takes. */
export async function refundScenario(t: TestApp, prefix: string, vendorNames = ['alpha']) {
  const shop = await createShop(t, prefix);
  const vendors: Array<{ _id: string; vendorName: string }> = [];
  for (const name of vendorNames) {
    vendors.push(
      await createVendor(t, shop, `${prefix} ${name}`, {
        commissionType: 'percentage',
        commissionAmount: 10,
      }),
    );
  }
  const send = async (topic: string, payload: unknown, opts: SendOptions = {}) => {
    const res = await sendWebhook(t, shop, topic, payload, opts);
    expect(res.status).toBe(200);
    await waitForWebhooks(t, shop, [res.webhookId]);
    return res;
  };
  const order = async (
    lines: Array<{ vendor?: number; price: string; quantity: number }>,
    createdAt: Date,
    extra: Record<string, unknown> = {},
  ) => {
    const payload = shopifyOrder({
      createdAt,
      financialStatus: 'paid',
      lineItems: lines.map((l) => ({
        id: platformId(),
        vendor: vendors[l.vendor ?? 0].vendorName,
        price: l.price,
        quantity: l.quantity,
      })),
      ...extra,
    });
    return payload;
  };
  const batch = async (until: Date, vendorIndex = 0) => {
    const res = await t.api.post(
      '/v1/payouts/batches',
      { until: ymd(until), vendorId: vendors[vendorIndex]._id },
      { token: shop.token },
    );
    expect(res.status).toBe(202);
    const id = res.body.batchIds[0];
    for (let i = 0; i < 200; i++) {
      const b = await t.api.get(`/v1/payouts/batches/${id}`, { token: shop.token });
      if (['completed', 'carried_forward', 'failed'].includes(b.body.status)) return b.body;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('batch did not settle');
  };
  const balance = async (vendorIndex = 0) => {
    const res = await t.api.get(`/v1/vendors/${vendors[vendorIndex]._id}/balance`, { token: shop.token });
    expect(res.status).toBe(200);
    return res.body;
  };
  const rows = async (query = '') => {
    const res = await t.api.get(`/v1/payouts?limit=250${query}`, { token: shop.token });
    expect(res.status).toBe(200);
    return res.body.payouts as any[];
  };
  /**
   * payouts:reconcile's services: every vendor balance proven against the rows, then the seller tax
   * report's stored quarters (the same order as the command).
   */
  const reconcile = async () => {
    const proof = await t.app.get(PayoutReconcileService).reconcile(shopScope(shop.shopId));
    expect(proof.vendors.filter((v) => !v.ok)).toEqual([]);
    const tax = await t.app.get(SellerTaxReconcile).reconcile(shopScope(shop.shopId));
    expect(tax.differences).toEqual([]);
    return proof;
  };
  /** The same proof, returned as it is (a test that expects a difference). */
  const reconcileRaw = () => t.app.get(PayoutReconcileService).reconcile(shopScope(shop.shopId));
  return { shop, vendors, send, order, batch, balance, rows, reconcile, reconcileRaw };
}
