/* eslint-disable @typescript-eslint/no-explicit-any */
import { startApp, TestApp } from './app';
import { createVendor, vendorToken } from './catalog';
import { createMerchantKey, createShop, TestShop } from './factory';
import { shopifyRefund } from './refunds';
import { deliver, platformId, shopifyFulfillment, shopifyOrder } from './webhooks';

/** What the fixture created, kept independently of the API: the counts' and filters' oracle. */
export interface MadeOrder {
  key: string;
  order: Record<string, any>;
  cancelled: boolean;
  financialStatus: string;
  lines: Array<{
    id: number;
    vendor: 'Acme' | 'Globex';
    price: string;
    quantity: number;
    fulfilled: boolean;
  }>;
}

/**
 * The shop the vendor orders suites read (DESIGN §12, issue 30 part 2): vendors Acme (10 %) and
 * Globex (20 %) with vendor tokens, a merchant key, five orders (o1: two Acme lines and a Globex
 * line, two of them fulfilled and one unit refunded; o2 pending; o3 cancelled; o4 with a custom
 * name; o5 Globex only), Acme paid out up to the 10th, and another shop with its own Acme order.
 */
export class VendorOrdersFixture {
  t!: TestApp;
  shop!: TestShop;
  other!: TestShop;
  mkToken!: string;
  acme!: { _id: string };
  globex!: { _id: string };
  acmeToken!: string;
  globexToken!: string;
  /** The other shop's order (a vendor named Acme there too). */
  foreign!: Record<string, any>;
  /** Acme's payout batch up to the 10th. */
  batchId!: string;
  /** The orders' day; `at(minutes)` is usable before the fixture starts (in `it.each` tables). */
  static readonly BASE = Date.UTC(2026, 0, 5);
  static at(minutes: number): Date {
    return new Date(VendorOrdersFixture.BASE + minutes * 60_000);
  }
  readonly base = VendorOrdersFixture.BASE;
  readonly made: MadeOrder[] = [];

  static async start(): Promise<VendorOrdersFixture> {
    const f = new VendorOrdersFixture();
    await f.seed();
    return f;
  }

  at(minutes: number): Date {
    return VendorOrdersFixture.at(minutes);
  }

  byKey(key: string): MadeOrder {
    return this.made.find((m) => m.key === key)!;
  }

  get(path: string, token: string) {
    return this.t.api.get(path, { token });
  }

  /** The order ids of a V2 list answer, sorted. */
  ids(res: any, key = 'items'): number[] {
    return res.body.data[key].map((o: any) => o.orderId).sort();
  }

  idsOf(...keys: string[]): number[] {
    return keys.map((k) => this.byKey(k).order.id).sort();
  }

  /** The oracle of GET /orders/counts: over the vendor's lines (or all), a cancelled order only there. */
  expectedCounts(vendor?: 'Acme' | 'Globex') {
    const out = { unfulfilled: 0, partial: 0, fulfilled: 0, cancelled: 0 };
    for (const m of this.made) {
      const lines = m.lines.filter((l) => !vendor || l.vendor === vendor);
      if (lines.length === 0) continue;
      if (m.cancelled) out.cancelled++;
      else {
        const done = lines.filter((l) => l.fulfilled).length;
        out[done === lines.length ? 'fulfilled' : done > 0 ? 'partial' : 'unfulfilled']++;
      }
    }
    return out;
  }

  private async make(
    key: string,
    minutes: number,
    lines: MadeOrder['lines'],
    opts: { financialStatus?: string; cancelled?: boolean; name?: string } = {},
  ): Promise<MadeOrder> {
    const order = shopifyOrder({
      createdAt: this.at(minutes),
      financialStatus: opts.financialStatus ?? 'paid',
      cancelledAt: opts.cancelled ? this.at(minutes + 1) : null,
      name: opts.name,
      customer: { firstName: 'Jane', lastName: `Doe-${key}`, email: `${key}@example.com` },
      lineItems: lines.map((l) => ({
        id: l.id,
        sku: `${l.vendor}-${l.id % 1000}`,
        vendor: l.vendor,
        price: l.price,
        quantity: l.quantity,
      })),
    });
    await deliver(this.t, this.shop, 'orders/create', order);
    const m: MadeOrder = {
      key,
      order,
      cancelled: !!opts.cancelled,
      financialStatus: opts.financialStatus ?? 'paid',
      lines,
    };
    this.made.push(m);
    return m;
  }

  private async fulfil(m: MadeOrder, index: number, when: Date, trackingNumber: string) {
    await deliver(
      this.t,
      this.shop,
      'fulfillments/create',
      shopifyFulfillment({
        orderId: m.order.id,
        lineItemIds: [m.lines[index].id],
        createdAt: when,
        trackingCompany: 'UPS',
        trackingNumber,
      }),
    );
    m.lines[index].fulfilled = true;
  }

  private async seed(): Promise<void> {
    const line = (vendor: 'Acme' | 'Globex', price: string, quantity: number) => ({
      id: platformId(),
      vendor,
      price,
      quantity,
      fulfilled: false,
    });
    const t = (this.t = await startApp());
    const base = this.base;
    this.shop = await createShop(t, 'vorders');
    this.other = await createShop(t, 'vorders-other');
    this.mkToken = (await createMerchantKey(t, this.shop)).token;
    this.acme = await createVendor(t, this.shop, 'Acme', {
      commissionType: 'percentage',
      commissionAmount: 10,
    });
    this.globex = await createVendor(t, this.shop, 'Globex', {
      commissionType: 'percentage',
      commissionAmount: 20,
    });
    this.acmeToken = await vendorToken(t, this.shop, this.acme._id);
    this.globexToken = await vendorToken(t, this.shop, this.globex._id);
    await createVendor(t, this.other, 'Acme', { commissionType: 'percentage', commissionAmount: 10 });

    // o1: two Acme lines and one Globex line; Acme's first and Globex's line get fulfilled.
    const o1 = await this.make('o1', 1, [
      line('Acme', '10.00', 2),
      line('Acme', '7.35', 3),
      line('Globex', '5.00', 1),
    ]);
    await this.make('o2', 2, [line('Acme', '3.00', 1)], { financialStatus: 'pending' });
    await this.make('o3', 3, [line('Acme', '4.00', 1)], { cancelled: true });
    const o4 = await this.make('o4', 4, [line('Acme', '6.00', 1)], { name: `EU-${platformId() % 100000}` });
    await this.make('o5', 5, [line('Globex', '8.00', 1)], { financialStatus: 'pending' });
    await this.fulfil(o1, 0, new Date(base + 86_400_000), 'TRACK-A1');
    await this.fulfil(o1, 2, new Date(base + 86_400_000 + 60_000), 'TRACK-G1');
    await this.fulfil(o4, 0, new Date(base + 86_400_000), 'TRACK-A4');
    // One of the two units of o1's first Acme line is refunded two days in.
    await deliver(
      t,
      this.shop,
      'refunds/create',
      shopifyRefund({
        orderId: o1.order.id,
        processedAt: new Date(base + 2 * 86_400_000),
        lines: [{ lineItemId: o1.lines[0].id, quantity: 1 }],
      }),
    );
    // Acme is paid out up to the 10th (its paid orders' rows and the refund row).
    const batch = await t.api.post(
      '/v1/payouts/batches',
      { vendorId: this.acme._id, until: '2026-01-10' },
      { token: this.shop.token },
    );
    expect(batch.status).toBe(202);
    this.batchId = batch.body.batchIds[0];
    for (let i = 0; i < 200; i++) {
      const b = await t.api.get(`/v1/payouts/batches/${this.batchId}`, { token: this.shop.token });
      if (b.body.status === 'completed') break;
      if (i === 199) throw new Error(`batch did not complete: ${b.text}`);
      await new Promise((r) => setTimeout(r, 100));
    }

    this.foreign = shopifyOrder({
      createdAt: this.at(1),
      financialStatus: 'paid',
      lineItems: [{ sku: 'X', vendor: 'Acme', price: '1.00', quantity: 1 }],
    });
    await deliver(t, this.other, 'orders/create', this.foreign);
  }
}
