import { getModelToken } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { PayoutAdjustment } from '../../src/adjustments/payout-adjustment.schema';
import { payoutsCommands } from '../../src/cli/payouts.commands';
import { sumAmounts as sumMoney } from '../../src/common/money';
import { type ShopScope, shopScope } from '../../src/common/tenancy';
import { LineItem } from '../../src/line-items/line-item.schema';
import type { PayableLineItem } from '../../src/line-items/line-item-views';
import { PayoutReconcileService } from '../../src/payouts/payout-reconcile.service';
import { PayoutRowsRepository } from '../../src/line-items/payout-rows.repository';
import { PayoutBatch } from '../../src/payouts/payout-batch.schema';
import { BatchTotals, PayoutBatchesRepository } from '../../src/payouts/payout-batches.repository';
import { PayoutEngineOptions } from '../../src/payouts/payout-engine.options';
import { PAYOUT_JOB_ATTEMPTS } from '../../src/payouts/payout-engine.service';
import { startApp, TestApp } from '../support/app';
import { createMerchantKey, createShop, TestShop } from '../support/factory';
import { createVendor, seedOrder } from '../support/payout-fixtures';
import { DAY } from '../support/test-clock';

// This file injects failures into payout runs: its jobs must run only in its own app, not in the
// app of another test file running in parallel on the same Redis (and it must not run theirs).
process.env.QUEUE_PREFIX = `${process.env.QUEUE_PREFIX ?? 'mp-test'}-payout-engine`;

/** Where a run is made to crash: after the n-th marking write of the run, or before completing. */
type CrashPlan = { point: 'after-mark'; call: number; times: number } | { point: 'complete'; times: number };

/**
 * The real repositories at the engine's boundary, except that a planned write crashes: `claimForBatch`
 * writes and then throws (a process dying between two chunks), `complete` throws before writing.
 */
class Crashes {
  plan: CrashPlan | null = null;
  /** Runs right after a run stored its decision (before anything is marked): a race's other side. */
  afterDecide: (() => Promise<void>) | null = null;
  /** Sizes of the marking writes, in order (one per chunk). */
  marks: number[] = [];
  /** Marking writes since the current run started. */
  private runMarks = 0;

  startRun(): void {
    this.runMarks = 0;
  }

  afterMark(size: number): void {
    this.marks.push(size);
    const call = this.runMarks++;
    const p = this.plan;
    if (p?.point === 'after-mark' && p.times > 0 && p.call === call) {
      p.times--;
      throw new Error('injected crash after a marking write');
    }
  }

  beforeComplete(): void {
    const p = this.plan;
    if (p?.point === 'complete' && p.times > 0) {
      p.times--;
      throw new Error('injected crash before completing');
    }
  }
}

class CrashingLineItems extends PayoutRowsRepository {
  constructor(
    model: Model<LineItem>,
    private readonly crashes: Crashes,
  ) {
    super(model);
  }

  override async claimForBatch(scope: ShopScope, items: PayableLineItem[], batchId: string) {
    await super.claimForBatch(scope, items, batchId);
    this.crashes.afterMark(items.length);
  }
}

class CrashingBatches extends PayoutBatchesRepository {
  constructor(
    model: Model<PayoutBatch>,
    private readonly crashes: Crashes,
  ) {
    super(model);
  }

  override acquire(scope: ShopScope, id: Types.ObjectId, leaseId: string, now: Date, until: Date) {
    this.crashes.startRun();
    return super.acquire(scope, id, leaseId, now, until);
  }

  override async decide(...args: Parameters<PayoutBatchesRepository['decide']>) {
    const decided = await super.decide(...args);
    const race = this.crashes.afterDecide;
    if (race && decided?.decision === 'pay') {
      this.crashes.afterDecide = null;
      await race();
    }
    return decided;
  }

  override complete(
    scope: ShopScope,
    id: Types.ObjectId,
    leaseId: string,
    totals: BatchTotals,
    at: Date,
    status?: 'completed' | 'carried_forward',
  ) {
    this.crashes.beforeComplete();
    return super.complete(scope, id, leaseId, totals, at, status);
  }
}

const day = (offsetDays: number) => new Date(Date.now() + offsetDays * DAY);
const ymd = (d: Date) => d.toISOString().slice(0, 10);
/** payout = price × quantity: no commission, shop settings at their 0 defaults. */
const ZERO = { commissionType: 'percentage' as const, commissionAmount: 0 };

describe('payout engine (e2e)', () => {
  let t: TestApp;
  let crashes: Crashes;
  let items: Model<LineItem>;
  let adjustments: Model<PayoutAdjustment>;

  beforeAll(async () => {
    crashes = new Crashes();
    t = await startApp((b) =>
      b
        .overrideProvider(PayoutRowsRepository)
        .useFactory({
          factory: (model: Model<LineItem>) => new CrashingLineItems(model, crashes),
          inject: [getModelToken(LineItem.name)],
        })
        .overrideProvider(PayoutBatchesRepository)
        .useFactory({
          factory: (model: Model<PayoutBatch>) => new CrashingBatches(model, crashes),
          inject: [getModelToken(PayoutBatch.name)],
        })
        .overrideProvider(PayoutEngineOptions)
        .useValue({ chunkSize: 2, leaseMs: 60_000 }),
    );
    items = t.app.get(getModelToken(LineItem.name));
    adjustments = t.app.get(getModelToken(PayoutAdjustment.name));
  });
  afterAll(() => t.close());
  beforeEach(() => {
    crashes.plan = null;
    crashes.afterDecide = null;
    crashes.marks = [];
  });

  const lineItemsOf = (shop: TestShop) =>
    items
      .find({ shopId: new Types.ObjectId(shop.shopId) })
      .lean<LineItem[]>()
      .exec();
  const adjustmentsOf = (shop: TestShop) =>
    adjustments
      .find({ shopId: new Types.ObjectId(shop.shopId) })
      .lean<PayoutAdjustment[]>()
      .exec();

  async function trigger(shop: TestShop, body: Record<string, unknown>) {
    const res = await t.api.post('/v1/payouts/batches', body, { token: shop.token });
    expect(res.status).toBe(202);
    return res.body as { batchIds: string[]; batches: Array<Record<string, unknown>> };
  }

  async function settled(shop: TestShop, id: string, timeoutMs = 20_000) {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const res = await t.api.get(`/v1/payouts/batches/${id}`, { token: shop.token });
      expect(res.status).toBe(200);
      if (['completed', 'carried_forward', 'failed'].includes(res.body.status)) return res.body;
      if (Date.now() > end) throw new Error(`batch ${id} still ${res.body.status}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Every batch total equals what carries its id; every paid line is paid exactly its payout once. */
  async function reconcile(shop: TestShop) {
    const lines = await lineItemsOf(shop);
    const adjs = await adjustmentsOf(shop);
    const batches = (await t.api.get('/v1/payouts/batches?limit=250', { token: shop.token })).body.batches;
    for (const b of batches.filter((x: { status: string }) => x.status === 'completed')) {
      const mine = lines.filter((l) => l.batchId === b._id);
      const mineAdj = adjs.filter((a) => a.batchId === b._id);
      expect(b.lineItemCount).toBe(mine.length);
      expect(b.lineItemTotal).toBe(sumMoney(mine.map((l) => l.batchPaidAmount!)));
      expect(b.adjustmentCount).toBe(mineAdj.length);
      expect(b.adjustmentTotal).toBe(sumMoney(mineAdj.map((a) => a.amount)));
      expect(b.total).toBe(sumMoney([b.lineItemTotal, b.adjustmentTotal]));
      for (const l of mine) {
        expect(String(l.vendorId)).toBe(b.vendorId);
        expect(l).toMatchObject({ balance: 0, paid: l.payout, payoutStatus: 'paid', frozen: true });
        expect(l.batchPaidAmount).toBe(l.payout);
      }
      for (const a of mineAdj) expect(a.status).toBe('PAID');
    }
    for (const l of lines.filter((x) => x.batchId === null)) {
      expect(l).toMatchObject({ paid: 0, frozen: false, payoutStatus: 'unpaid' });
      expect(l.balance).toBe(l.payout);
    }
    // The operator's reconcile (payouts:reconcile) proves the maintained balances too.
    const proof = await t.app.get(PayoutReconcileService).reconcile(shopScope(shop.shopId));
    expect(proof.vendors.filter((v) => !v.ok)).toEqual([]);
    return { lines, adjs, batches };
  }

  describe('money reconciliation over two vendors and two periods', () => {
    let shop: TestShop;
    let other: TestShop;
    let v1: { _id: string; vendorName: string };
    let v2: { _id: string; vendorName: string };
    let otherVendor: { _id: string; vendorName: string };
    const until1 = ymd(day(-10));
    const until2 = ymd(day(0));

    beforeAll(async () => {
      shop = await createShop(t, 'eng');
      other = await createShop(t, 'eng-other');
      const mk = await createMerchantKey(t, shop);
      v1 = await createVendor(t, shop, 'Engine One', ZERO);
      v2 = await createVendor(t, shop, 'Engine Two', ZERO);
      otherVendor = await createVendor(t, other, 'Engine Other', ZERO);
      const cut1 = new Date(`${until1}T23:59:59.999Z`);
      const order = (vendor: string, price: number, createdAt: Date, extra: Record<string, unknown> = {}) =>
        seedOrder(t, shop, { createdAt, lines: [{ vendor: vendor, price }], ...extra });
      // v1, period 1: five lines (three chunks of 2), amounts whose float sum is not exact
      for (const [i, price] of [10.01, 0.1, 0.2, 33.33, 19.99].entries()) {
        await order(v1.vendorName, price, new Date(cut1.getTime() - i * DAY));
      }
      await order(v1.vendorName, 5, cut1); // exactly at the cut-off instant: included
      await order(v1.vendorName, 7.77, new Date(cut1.getTime() + 1)); // one millisecond later: next period
      // never paid: order not paid, zero balance, a cancelled order whose payment was voided
      await order(v1.vendorName, 50, day(-20), { financialStatus: 'pending' });
      await order(v1.vendorName, 0, day(-20));
      await order(v2.vendorName, 9, day(-20), { financialStatus: 'voided', cancelled: true });
      // v2: one line each period
      await order(v2.vendorName, 100.45, day(-15));
      await order(v2.vendorName, 0.55, day(-1));
      await seedOrder(t, other, {
        createdAt: day(-20),
        lines: [{ vendor: otherVendor.vendorName, price: 11 }],
      });
      const adj = async (vendorId: string, amount: number, type: string, when: Date) => {
        const r = await t.api.post(
          '/v2/payout-adjustments',
          { vendorId, amount, type, customItemDate: when.toISOString() },
          { token: mk.token },
        );
        expect(r.status).toBe(201);
      };
      await adj(v1._id, 25, 'DEDUCTION', day(-12));
      await adj(v1._id, 3.3, 'ADDITION', cut1);
      await adj(v1._id, 4, 'ADDITION', day(-2)); // period 2
      await adj(v2._id, 0.45, 'DEDUCTION', day(-30));
    });

    it('pays every vendor up to the first period end, with totals equal to what was paid', async () => {
      const res = await trigger(shop, { until: until1 });
      expect(res.batches.map((b) => b.vendorName).sort()).toEqual([v1.vendorName, v2.vendorName]);
      const done = await Promise.all(res.batchIds.map((id) => settled(shop, id)));
      const b1 = done.find((b) => b.vendorId === v1._id);
      const b2 = done.find((b) => b.vendorId === v2._id);
      expect(b1).toMatchObject({
        status: 'completed',
        periodEnd: until1,
        cutoff: `${until1}T23:59:59.999Z`,
        lineItemCount: 6,
        lineItemTotal: 68.63,
        adjustmentCount: 2,
        adjustmentTotal: -21.7,
        total: 46.93,
        runs: 1,
        lastError: null,
      });
      expect(b2).toMatchObject({
        status: 'completed',
        lineItemCount: 1,
        lineItemTotal: 100.45,
        adjustmentTotal: -0.45,
        total: 100,
      });
      // three marking chunks of two for vendor one, one for vendor two
      expect(crashes.marks.sort()).toEqual([1, 2, 2, 2]);
      await reconcile(shop);

      const paidRows = (await t.api.get(`/v1/payouts?vendorId=${v1._id}&status=paid`, { token: shop.token }))
        .body;
      expect(paidRows.total).toBe(6);
      expect(
        paidRows.payouts.every(
          (r: { balance: number; batchId: string }) => r.balance === 0 && r.batchId === b1._id,
        ),
      ).toBe(true);
      // the other shop is untouched
      const otherLines = await lineItemsOf(other);
      expect(otherLines[0]).toMatchObject({ paid: 0, balance: 11, batchId: null, frozen: false });
      expect((await t.api.get(`/v1/payouts/batches/${b1._id}`, { token: other.token })).status).toBe(404);
      expect((await t.api.get('/v1/payouts/batches', { token: other.token })).body.total).toBe(0);
    });

    it('a second trigger for the same period answers the same batches and pays nothing twice', async () => {
      const before = await lineItemsOf(shop);
      const again = await trigger(shop, { until: until1 });
      const one = await trigger(shop, { vendorId: v1._id, until: until1 });
      const first = (await t.api.get('/v1/payouts/batches', { token: shop.token })).body.batches;
      expect(first).toHaveLength(2);
      expect(new Set([...again.batchIds, ...one.batchIds])).toEqual(
        new Set(first.map((b: { _id: string }) => b._id)),
      );
      expect(again.batches.every((b) => b.status === 'completed')).toBe(true);
      const after = await lineItemsOf(shop);
      expect(after.map((l) => [l.paid, l.balance, l.batchId])).toEqual(
        before.map((l) => [l.paid, l.balance, l.batchId]),
      );
    });

    it('the next period pays only what is new, and everything sums up across batches', async () => {
      const res = await trigger(shop, { until: until2 });
      const done = await Promise.all(res.batchIds.map((id) => settled(shop, id)));
      expect(done.find((b) => b.vendorId === v1._id)).toMatchObject({
        lineItemCount: 1,
        lineItemTotal: 7.77,
        adjustmentTotal: 4,
        total: 11.77,
      });
      expect(done.find((b) => b.vendorId === v2._id)).toMatchObject({
        lineItemCount: 1,
        lineItemTotal: 0.55,
        adjustmentCount: 0,
        total: 0.55,
      });
      const { lines, adjs, batches } = await reconcile(shop);
      const payable = lines.filter((l) => l.financialStatus === 'paid' && l.payout > 0);
      expect(payable.every((l) => l.batchId !== null)).toBe(true);
      expect(sumMoney(batches.map((b: { total: number }) => b.total))).toBe(
        sumMoney([...payable.map((l) => l.payout), ...adjs.map((a) => a.amount)]),
      );
      expect(adjs.every((a) => a.status === 'PAID')).toBe(true);
      const pending = lines.find((l) => l.financialStatus === 'pending')!;
      expect(pending).toMatchObject({ batchId: null, paid: 0, balance: 50 });
    });
  });

  describe('crash part-way', () => {
    async function setup(prefix: string, payouts: number[]) {
      const shop = await createShop(t, prefix);
      const v = await createVendor(t, shop, `${prefix} vendor`, ZERO);
      for (const [i, price] of payouts.entries()) {
        await seedOrder(t, shop, { createdAt: day(-3 - i), lines: [{ vendor: v.vendorName, price }] });
      }
      return { shop, v };
    }

    it('a job that fails after the first chunk is retried and completes; nothing paid twice or lost', async () => {
      const { shop, v } = await setup('crash', [1.11, 2.22, 3.33, 4.44, 5.55]);
      crashes.plan = { point: 'after-mark', call: 0, times: 1 };
      const res = await trigger(shop, { vendorId: v._id, until: ymd(day(0)) });
      const batch = await settled(shop, res.batchIds[0]);
      expect(batch).toMatchObject({
        status: 'completed',
        runs: 2,
        lineItemCount: 5,
        lineItemTotal: 16.65,
        total: 16.65,
        lastError: null,
      });
      // run 1 marked chunk 0 then crashed; run 2 marked the remaining three lines in two chunks
      expect(crashes.marks).toEqual([2, 2, 1]);
      await reconcile(shop);
    });

    it('a batch whose every attempt fails reads failed; triggering it again resumes and completes it', async () => {
      const { shop, v } = await setup('crash-final', [10, 20, 30]);
      const mk = await createMerchantKey(t, shop);
      await t.api.post(
        '/v2/payout-adjustments',
        { vendorId: v._id, amount: 5, type: 'DEDUCTION', customItemDate: day(-1).toISOString() },
        { token: mk.token },
      );
      crashes.plan = { point: 'complete', times: 99 };
      const res = await trigger(shop, { vendorId: v._id, until: ymd(day(0)) });
      const failed = await settled(shop, res.batchIds[0], 45_000);
      expect(failed.status).toBe('failed');
      expect(failed.runs).toBe(PAYOUT_JOB_ATTEMPTS);
      expect(failed.lastError).toMatch(/errorId/);
      expect(failed.lastError).not.toMatch(/injected/);
      // everything was marked before the failure point, once
      const marked = await lineItemsOf(shop);
      expect(marked.every((l) => l.batchId === failed._id && l.balance === 0)).toBe(true);
      expect((await t.api.get(`/v1/payouts/batches?status=failed`, { token: shop.token })).body.total).toBe(
        1,
      );

      crashes.plan = null;
      const again = await trigger(shop, { vendorId: v._id, until: ymd(day(0)) });
      expect(again.batchIds).toEqual(res.batchIds);
      expect(again.batches[0].status).toBe('queued');
      const done = await settled(shop, res.batchIds[0]);
      expect(done).toMatchObject({
        status: 'completed',
        runs: PAYOUT_JOB_ATTEMPTS + 1,
        lineItemCount: 3,
        lineItemTotal: 60,
        adjustmentCount: 1,
        adjustmentTotal: -5,
        total: 55,
        lastError: null,
      });
      await reconcile(shop);
    });

    it('the CLI payouts:run runs the same engine in-process and prints the batches', async () => {
      const { shop, v } = await setup('cli-run', [12.5, 0.5]);
      crashes.plan = { point: 'after-mark', call: 0, times: 1 };
      const cmd = payoutsCommands.find((c) => c.name === 'payouts:run')!;
      const first = (await cmd.run(t.app, { domain: shop.shopDomain, until: ymd(day(0)) })) as {
        batches: Array<{ status: string; _id: string }>;
      };
      expect(first.batches).toHaveLength(1);
      expect(first.batches[0].status).toBe('failed');
      const second = (await cmd.run(t.app, {
        domain: shop.shopDomain,
        until: ymd(day(0)),
        vendor: v._id,
      })) as {
        shopDomain: string;
        batchIds: string[];
        batches: Array<{ status: string; total: number; runs: number }>;
      };
      expect(second.shopDomain).toBe(shop.shopDomain);
      expect(second.batchIds).toEqual([first.batches[0]._id]);
      expect(second.batches[0]).toMatchObject({ status: 'completed', total: 13, runs: 2 });
      await reconcile(shop);
    });
  });

  describe('an adjustment edited between the pay decision and the marking (issue 28)', () => {
    /** Sales of 50.00 (30.00 + 20.00) and a DEDUCTION of 40.00: the decision is to pay 10.00. */
    async function setup(prefix: string) {
      const shop = await createShop(t, prefix);
      const mk = await createMerchantKey(t, shop);
      const v = await createVendor(t, shop, `${prefix} vendor`, ZERO);
      await seedOrder(t, shop, { createdAt: day(-3), lines: [{ vendor: v.vendorName, price: 30 }] });
      await seedOrder(t, shop, { createdAt: day(-2), lines: [{ vendor: v.vendorName, price: 20 }] });
      const created = await t.api.post(
        '/v2/payout-adjustments',
        { vendorId: v._id, amount: 40, type: 'DEDUCTION', customItemDate: day(-1).toISOString() },
        { token: mk.token },
      );
      expect(created.status).toBe(201);
      const adjustment = `/v2/payout-adjustments/${created.body.data._id}`;
      return { shop, mk, v, adjustment };
    }

    it('deepened to −80.00 over HTTP after the decision to pay 10.00: nothing is paid, the vendor still owes it', async () => {
      const { shop, mk, v, adjustment } = await setup('race-edit');
      let edited = 0;
      crashes.afterDecide = async () => {
        const r = await t.api.patch(adjustment, { amount: 80 }, { token: mk.token });
        edited = r.status;
      };
      const res = await trigger(shop, { vendorId: v._id, until: ymd(day(0)) });
      const batch = await settled(shop, res.batchIds[0]);
      expect(edited).toBe(200); // the edit landed while the batch ran
      expect(batch).toMatchObject({ status: 'carried_forward', total: 0, net: -30, closingBalance: -30 });
      const after = await t.api.get(adjustment, { token: mk.token });
      expect(after.body.data).toMatchObject({ status: 'UNPAID', amount: -80 });
      const { lines } = await reconcile(shop);
      expect(lines.every((l) => l.batchId === null && !l.frozen)).toBe(true);
      const balance = await t.api.get(`/v1/vendors/${v._id}/balance`, { token: shop.token });
      expect(balance.body).toMatchObject({ paidToDate: 0, carriedForward: -30 });
    });

    it('deleted over HTTP after the decision: decided again, the batch pays the 50.00 it marked', async () => {
      const { shop, mk, v, adjustment } = await setup('race-delete');
      let deleted = 0;
      crashes.afterDecide = async () => {
        deleted = (await t.api.delete(adjustment, { token: mk.token })).status;
      };
      const res = await trigger(shop, { vendorId: v._id, until: ymd(day(0)) });
      const batch = await settled(shop, res.batchIds[0]);
      expect(deleted).toBe(200);
      expect(batch).toMatchObject({ status: 'completed', total: 50, net: 50, adjustmentCount: 0 });
      await reconcile(shop);
    });
  });

  describe('vendor policy (isPayable)', () => {
    it('a deactivated vendor is still paid what it earned before', async () => {
      const shop = await createShop(t, 'eng-inactive');
      const mk = await createMerchantKey(t, shop);
      const v = await createVendor(t, shop, 'Retired Vendor', ZERO);
      await seedOrder(t, shop, { createdAt: day(-2), lines: [{ vendor: v.vendorName, price: 42.5 }] });
      const deactivated = await t.api.delete(`/v2/vendors/${v._id}`, { token: mk.token });
      expect(deactivated.status).toBe(200);
      expect(deactivated.body.data.active).toBe(false);

      const res = await trigger(shop, { until: ymd(day(0)) });
      expect(res.batches.map((b) => b.vendorId)).toEqual([v._id]);
      const batch = await settled(shop, res.batchIds[0]);
      expect(batch).toMatchObject({ status: 'completed', lineItemCount: 1, total: 42.5 });
      await reconcile(shop);
    });
  });

  describe('trigger validation and visibility', () => {
    let shop: TestShop;
    let other: TestShop;
    let v: { _id: string };
    beforeAll(async () => {
      shop = await createShop(t, 'eng-val');
      other = await createShop(t, 'eng-val-other');
      v = await createVendor(t, shop, 'Val Vendor');
    });

    it.each([
      [{}],
      [{ until: 'yesterday' }],
      [{ until: '2025-02-30' }],
      [{ until: ymd(day(2)) }],
      [{ until: '2025-01-01', vendorId: 'nope' }],
      [{ until: '2025-01-01', vendorId: '6740b9f1c2a4e15b3c9d0a99' }],
      [{ until: '2025-01-01', extra: true }],
    ])('refuses %j → 422', async (body) => {
      const res = await t.api.post('/v1/payouts/batches', body, { token: shop.token });
      expect(res.status).toBe(422);
      expect(typeof res.body.error).toBe('string');
    });

    it('refuses another shop’s vendor, and concurrent triggers share one batch', async () => {
      const res = await t.api.post(
        '/v1/payouts/batches',
        { until: '2025-01-01', vendorId: v._id },
        { token: other.token },
      );
      expect(res.status).toBe(422);
      const [a, b] = await Promise.all([
        trigger(shop, { vendorId: v._id, until: '2025-01-01' }),
        trigger(shop, { vendorId: v._id, until: '2025-01-01' }),
      ]);
      expect(a.batchIds).toEqual(b.batchIds);
      const batch = await settled(shop, a.batchIds[0]);
      // nothing due: a net of 0.00 pays nothing and reads carried_forward (DESIGN §8)
      expect(batch).toMatchObject({
        status: 'carried_forward',
        total: 0,
        net: 0,
        closingBalance: 0,
        lineItemCount: 0,
        adjustmentCount: 0,
      });
      expect(
        (await t.api.get(`/v1/payouts/batches?vendorId=${v._id}`, { token: shop.token })).body,
      ).toMatchObject({
        total: 1,
        nextOffset: null,
      });
    });

    it('a trigger with nothing payable for any vendor queues nothing; unknown batch ids are 404', async () => {
      const fresh = await createShop(t, 'eng-empty');
      const res = await trigger(fresh, { until: '2025-01-01' });
      expect(res).toEqual({ batchIds: [], batches: [] });
      for (const id of ['6740b9f1c2a4e15b3c9d0a99', 'bad']) {
        expect((await t.api.get(`/v1/payouts/batches/${id}`, { token: fresh.token })).status).toBe(404);
      }
      expect((await t.api.get('/v1/payouts/batches?status=done', { token: fresh.token })).status).toBe(422);
    });
  });
});
