/* eslint-disable @typescript-eslint/no-explicit-any */
import type { TestApp } from './app';
import { vendorToken } from './catalog';
import { cents, divHalfUp, fmt } from './cents';
import { createMerchantKey, createShop, TestMerchantKey, TestShop } from './factory';
import { day, refundScenario } from './refund-scenario';
import { shopifyRefund } from './refunds';

// The documents e2e files' scenario (DESIGN §14) and oracle: BigInt cents, half-up, written here
// apart from the app's money function. A shop with self-billing, two vendors at 10 % commission
// (alpha without self-billing consent, beta with it) and a 20 % tax on commissions.

export const YEAR = new Date().getUTCFullYear();
export const RATE = 10n;
export const TAX_ON_COMMISSION = 20n;
export const SHOP_TAX_ID = 'SHOP-TAX-998877';
export const BETA_TAX_ID = 'BETA-TAX-112233';
export const ADDRESS = { line1: '1 Market Street', city: 'Exampleton', postalCode: '12345', country: 'GB' };

/** One sale line's figures in cents, as DESIGN §6 defines them (percentage commission). */
export function oracleLine(price: string, qty: number, tax = '0.00') {
  const sales = cents(price) * BigInt(qty);
  const commission = divHalfUp(sales * RATE, 100n);
  const taxOnCommissions = divHalfUp(commission * TAX_ON_COMMISSION, 100n);
  return { sales, commission, taxOnCommissions, tax: cents(tax) };
}
export type OracleLine = ReturnType<typeof oracleLine>;
const sum = (xs: bigint[]) => xs.reduce((a, b) => a + b, 0n);

export const ofType = (list: any[], type: string) => list.filter((d) => d.type === type);

/** The document's lines (one per order) and totals equal the oracle's, to the cent. */
export function expectLines(
  doc: any,
  orders: Array<{ order: any; lines: OracleLine[] }>,
  pick: (l: OracleLine) => [bigint, bigint],
  sign = 1n,
): void {
  const expected = orders.map(({ order, lines }) => {
    const net = sign * sum(lines.map((l) => pick(l)[0]));
    const tax = sign * sum(lines.map((l) => pick(l)[1]));
    return { orderId: String(order.id), net: fmt(net), tax: fmt(tax), total: fmt(net + tax) };
  });
  expect(
    doc.snapshot.lines.map((l: any) => ({ orderId: l.orderId, net: l.net, tax: l.tax, total: l.total })),
  ).toEqual(expected);
  const net = sum(expected.map((e) => cents(e.net)));
  const tax = sum(expected.map((e) => cents(e.tax)));
  expect(doc.snapshot.totals).toEqual({ net: fmt(net), tax: fmt(tax), total: fmt(net + tax) });
}

export interface DocumentsScenario {
  s: Awaited<ReturnType<typeof refundScenario>>;
  other: TestShop;
  mk: TestMerchantKey;
  alpha: string;
  beta: string;
  tokAlpha: string;
  tokBeta: string;
  /** alpha: 50.00 × 2 and 19.99 × 1 */
  o1: any;
  /** alpha: 0.35 × 3 (commission 0.105 → 0.11, tax on it 0.022 → 0.02) */
  o2: any;
  /** beta: 80.00 × 1, tax 16.00 (after `betaBatch`) */
  o3?: any;
  batch1: any;
  batch2?: any;
  batchBeta?: any;
  /** GET /v1/documents with a query (limit 250). */
  docs(query: string, token?: string): Promise<any>;
  /** The batch's documents once the documents job issued them (it runs after the batch settles). */
  batchDocs(batchId: string, count: number): Promise<any[]>;
  /** o1's first line refunded in full, an adjustment of +200.00, then alpha's second batch. */
  refundBatch(): Promise<any>;
  /** beta's order o3, then beta's batch. */
  betaBatch(): Promise<any>;
}

/** The shop, its parties and alpha's first paid batch (o1, o2). */
export async function documentsScenario(t: TestApp): Promise<DocumentsScenario> {
  const s = await refundScenario(t, 'docs', ['alpha', 'beta']);
  const other = await createShop(t, 'docs-other');
  const mk = await createMerchantKey(t, s.shop);
  const [alpha, beta] = s.vendors.map((v) => v._id);
  const tokAlpha = await vendorToken(t, s.shop, alpha);
  const tokBeta = await vendorToken(t, s.shop, beta);
  const put = async (path: string, body: unknown) =>
    expect((await t.api.put(path, body, { token: s.shop.token })).status).toBe(200);
  await put('/v1/shop/settings', { taxOnCommissionRate: Number(TAX_ON_COMMISSION) });
  await put('/v1/shop/legal', {
    legalName: 'Docs Market Ltd',
    address: ADDRESS,
    vatId: 'GB111111111',
    taxId: SHOP_TAX_ID,
    selfBilling: true,
  });
  await put(`/v1/vendors/${alpha}/tax-profile`, { legalName: 'Alpha Goods', vatId: 'GB222222222' });
  await put(`/v1/vendors/${beta}/tax-profile`, {
    legalName: 'Beta Trading',
    entityType: 'business',
    address: ADDRESS,
    vatId: 'GB333333333',
    taxId: BETA_TAX_ID,
    taxIdCountry: 'GB',
    selfBillingConsent: true,
  });
  const o1 = await s.order(
    [
      { price: '50.00', quantity: 2 },
      { price: '19.99', quantity: 1 },
    ],
    day(-10),
  );
  const o2 = await s.order([{ price: '0.35', quantity: 3 }], day(-9));
  await s.send('orders/create', o1);
  await s.send('orders/create', o2);
  const batch1 = await s.batch(day(-8));
  expect(batch1.status).toBe('completed');

  const docs = async (query: string, token = s.shop.token) => {
    const res = await t.api.get(`/v1/documents?limit=250&${query}`, { token });
    expect(res.status).toBe(200);
    return res.body;
  };
  const scenario: DocumentsScenario = {
    s,
    other,
    mk,
    alpha,
    beta,
    tokAlpha,
    tokBeta,
    o1,
    o2,
    batch1,
    docs,
    async batchDocs(batchId, count) {
      for (let i = 0; i < 200; i++) {
        const body = await docs(`batchId=${batchId}`);
        if (body.total >= count) return body.documents as any[];
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`batch ${batchId}: its ${count} documents were not issued`);
    },
    async refundBatch() {
      await s.send(
        'refunds/create',
        shopifyRefund({
          orderId: o1.id,
          processedAt: day(-5),
          lines: [{ lineItemId: o1.line_items[0].id, quantity: 2 }],
        }),
      );
      // a positive adjustment keeps the batch's net positive (a paid batch)
      const adj = await t.api.post(
        '/v2/payout-adjustments',
        {
          vendorId: alpha,
          amount: 200,
          type: 'ADDITION',
          comments: 'bonus',
          customItemDate: day(-5).toISOString().slice(0, 10),
        },
        { token: mk.token },
      );
      expect(adj.status).toBe(201);
      scenario.batch2 = await s.batch(day(-4));
      expect(scenario.batch2.status).toBe('completed');
      return scenario.batch2;
    },
    async betaBatch() {
      const o3 = await s.order([{ vendor: 1, price: '80.00', quantity: 1 }], day(-3), {});
      o3.line_items[0].tax_lines = [{ title: 'VAT', price: '16.00', rate: 0.2 }];
      await s.send('orders/create', o3);
      scenario.o3 = o3;
      scenario.batchBeta = await s.batch(day(-2), 1);
      expect(scenario.batchBeta.status).toBe('completed');
      return scenario.batchBeta;
    },
  };
  return scenario;
}
