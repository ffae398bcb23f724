import type { VendorTally } from '../line-items/vendor-tally.service';
import { Logger } from '@nestjs/common';
import { Types } from 'mongoose';
import { asReal, FakeQueue, FixedClock, OTHER_SHOP, SHOP } from '../../test/fakes/fake';
import {
  FakeLineItemsRepository,
  FakeSummaries,
  FakeVendorTally,
  lineItem,
} from '../../test/fakes/line-items.fake';
import {
  FakePayoutAdjustmentsRepository,
  FakePayoutBatchesRepository,
  FakeVendorBalancesRepository,
} from '../../test/fakes/payouts.fake';
import type { VendorBalancesRepository } from '../balances/vendor-balances.repository';
import { FakeVendorsRepository, vendor } from '../../test/fakes/vendors.fake';
import type { PayoutAdjustmentsRepository } from '../adjustments/payout-adjustments.repository';
import { ValidationError } from '../common/errors';
import type { PayoutRowsRepository } from '../line-items/payout-rows.repository';
import type { OrderSummaryRefresher } from '../line-items/order-summary.refresher';
import { Jobs } from '../queues/jobs';
import type { VendorsRepository } from '../vendors/vendors.repository';
import type { Queue } from 'bull';
import type { PayoutBatchesRepository } from './payout-batches.repository';
import { BatchBusyError, PayoutBatchRunner } from './payout-batch-runner';
import type { PayoutEngineOptions } from './payout-engine.options';
import { PayoutEngine } from './payout-engine.service';
import type { PaidBatch, TransfersService } from '../transfers/transfers.service';

/** The transfers service at the engine's boundary: records each hand-over; can fail the next one. */
class FakeTransfers implements Pick<TransfersService, 'createForPaidBatch'> {
  readonly calls: PaidBatch[] = [];
  failNext = false;
  async createForPaidBatch(_scope: unknown, batch: PaidBatch) {
    if (this.failNext) {
      this.failNext = false;
      throw new Error('process died before the transfer was created');
    }
    this.calls.push(batch);
    return {} as Awaited<ReturnType<TransfersService['createForPaidBatch']>>;
  }
  batchIds(): string[] {
    return this.calls.map((c) => String(c.batchId));
  }
}

const UNTIL = '2026-11-20';
const before = (day: number) => new Date(`2026-11-${String(day).padStart(2, '0')}T10:00:00.000Z`);

describe('PayoutEngine (repositories faked)', () => {
  beforeAll(() => Logger.overrideLogger(false)); // failed runs are logged: expected here
  let lineItems: FakeLineItemsRepository;
  let batches: FakePayoutBatchesRepository;
  let adjustments: FakePayoutAdjustmentsRepository;
  let vendors: FakeVendorsRepository;
  let summaries: FakeSummaries;
  let balances: FakeVendorBalancesRepository;
  let queue: FakeQueue;
  let transfers: FakeTransfers;
  let engine: PayoutEngine;

  /** The engine and its batch runner over the fakes, sharing one clock. */
  const build = (options: PayoutEngineOptions): PayoutEngine => {
    const clock = new FixedClock();
    const runner = new PayoutBatchRunner(
      asReal<PayoutBatchesRepository>(batches),
      asReal<PayoutRowsRepository>(lineItems),
      asReal<PayoutAdjustmentsRepository>(adjustments),
      asReal<OrderSummaryRefresher>(summaries),
      clock,
      options,
      asReal<VendorBalancesRepository>(balances),
      asReal<TransfersService>(transfers),
      asReal<VendorTally>(new FakeVendorTally()),
    );
    return new PayoutEngine(
      asReal<PayoutBatchesRepository>(batches),
      asReal<PayoutRowsRepository>(lineItems),
      asReal<PayoutAdjustmentsRepository>(adjustments),
      asReal<VendorsRepository>(vendors),
      clock,
      asReal<Queue>(queue),
      runner,
    );
  };

  beforeEach(() => {
    lineItems = new FakeLineItemsRepository();
    batches = new FakePayoutBatchesRepository();
    adjustments = new FakePayoutAdjustmentsRepository();
    vendors = new FakeVendorsRepository();
    summaries = new FakeSummaries();
    balances = new FakeVendorBalancesRepository();
    queue = new FakeQueue();
    transfers = new FakeTransfers();
    engine = build({ chunkSize: 2, leaseMs: 60_000 });
  });

  /** A paid order line owed `amount` to the vendor. */
  function owed(
    vendorId: Types.ObjectId,
    amount: number,
    createdAt = before(10),
    orderId = lineItems.docs.length + 1,
  ) {
    const [li] = lineItems.add(
      lineItem({
        orderId,
        lineItemId: orderId * 10,
        vendorId,
        payout: amount,
        balance: amount,
        orderCreatedAt: createdAt,
      }),
    );
    return li;
  }

  const runAll = async (input: { vendorId?: string; until: string }) =>
    Promise.all(
      (await engine.trigger(SHOP, input)).map((b) => engine.run(SHOP, String(b._id), { final: false })),
    );

  it('pays each vendor its payable lines and adjustments up to the cut-off, with totals from what it marked', async () => {
    const [acme, globex] = vendors.add(vendor('acme'), vendor('globex'));
    const lines = [owed(acme._id, 10.01), owed(acme._id, 0.1), owed(acme._id, 0.2), owed(globex._id, 5)];
    const later = owed(acme._id, 7, new Date('2026-11-21T00:00:00.000Z'));
    const pending = owed(acme._id, 50);
    Object.assign(lineItems.get(pending._id), { financialStatus: 'pending', inPayouts: false });
    adjustments.add(acme._id, -2.5, before(15));
    adjustments.add(acme._id, 4, new Date('2026-11-21T00:00:00.000Z'));

    const queued = await engine.trigger(SHOP, { until: UNTIL });
    expect(queued.map((b) => b.vendorName)).toEqual(['acme', 'globex']);
    expect(queue.named(Jobs.RunPayoutBatch)).toEqual(
      queued.map((b) => ({ shopId: SHOP.shopId, batchId: String(b._id) })),
    );
    const [a, g] = await Promise.all(queued.map((b) => engine.run(SHOP, String(b._id), { final: false })));

    expect(a).toMatchObject({
      status: 'completed',
      lineItemCount: 3,
      lineItemTotal: 10.31,
      adjustmentCount: 1,
      adjustmentTotal: -2.5,
      total: 7.81,
      runs: 1,
    });
    expect(g).toMatchObject({ status: 'completed', lineItemCount: 1, total: 5 });
    for (const li of lines) {
      expect(lineItems.get(li._id)).toMatchObject({
        balance: 0,
        paid: li.payout,
        payoutStatus: 'paid',
        frozen: true,
      });
    }
    expect(lineItems.get(later._id)).toMatchObject({ batchId: null, balance: 7 });
    expect(lineItems.get(pending._id)).toMatchObject({ batchId: null, balance: 50 });
    expect(summaries.refreshed.flat().sort()).toEqual([1, 2, 3, 4]);
  });

  it('answers the same batch to a repeated trigger and pays nothing twice', async () => {
    const [acme] = vendors.add(vendor('acme'));
    owed(acme._id, 12);
    const [first] = await runAll({ until: UNTIL });
    const [again] = await runAll({ vendorId: String(acme._id), until: UNTIL });
    expect(String(again._id)).toBe(String(first._id));
    expect(again).toMatchObject({ status: 'completed', total: 12, runs: 1 });
    expect(batches.docs).toHaveLength(1);
  });

  it('hands a completed positive batch to the transfers service once, with its total', async () => {
    const [acme] = vendors.add(vendor('acme'));
    owed(acme._id, 12.34);
    owed(acme._id, 0.66);
    const [batch] = await runAll({ until: UNTIL });
    expect(batch).toMatchObject({ status: 'completed', total: 13, transferDue: false });
    expect(transfers.calls).toEqual([{ batchId: batch._id, vendorId: acme._id, amount: 13 }]);
    // A repeated run of the settled batch (a retried job) hands nothing over again.
    await engine.run(SHOP, String(batch._id), { final: false });
    expect(transfers.calls).toHaveLength(1);
  });

  it('a crash between completing and the hand-over: the batch stays transferDue and a rerun or the sweeper repairs it', async () => {
    const [acme] = vendors.add(vendor('acme'));
    owed(acme._id, 20);
    const [queued] = await engine.trigger(SHOP, { until: UNTIL });
    transfers.failNext = true;
    await expect(engine.run(SHOP, String(queued._id), { final: false })).rejects.toThrow('process died');
    expect(batches.docs[0]).toMatchObject({ status: 'completed', total: 20, transferDue: true });
    expect(transfers.calls).toHaveLength(0);
    // The retried job finds the batch completed and hands it over (the early-return path).
    await engine.run(SHOP, String(queued._id), { final: false });
    expect(transfers.batchIds()).toEqual([String(queued._id)]);
    expect(batches.docs[0].transferDue).toBe(false);
    // The sweeper's repair of the same batch, now done, changes nothing.
    await engine.handOverTransfer(SHOP, { ...batches.docs[0] });
    expect(transfers.calls).toHaveLength(1);
    // …while a batch still marked is handed over by the sweeper's call.
    transfers.failNext = true;
    await expect(engine.handOverTransfer(SHOP, { ...batches.docs[0], transferDue: true })).rejects.toThrow();
    await engine.handOverTransfer(SHOP, { ...batches.docs[0], transferDue: true });
    expect(transfers.calls).toHaveLength(2);
  });

  it('a run that crashes between two claim chunks is completed by the next run, nothing lost or doubled', async () => {
    const [acme] = vendors.add(vendor('acme'));
    const lines = [1.11, 2.22, 3.33, 4.44, 5.55].map((amount) => owed(acme._id, amount));
    const claims: number[] = [];
    lineItems.afterClaim = (items) => {
      claims.push(items.length);
      if (claims.length === 1) throw new Error('process died after the first chunk');
    };
    const [batch] = await engine.trigger(SHOP, { until: UNTIL });

    await expect(engine.run(SHOP, String(batch._id), { final: false })).rejects.toThrow('process died');
    expect(batches.docs[0]).toMatchObject({ status: 'queued', leaseId: null, decision: null });
    expect(batches.docs[0].lastError).toMatch(/errorId/);
    expect(lines.filter((li) => lineItems.get(li._id).batchId === String(batch._id))).toHaveLength(2);
    expect(lines.filter((li) => lineItems.get(li._id).frozen)).toHaveLength(0);

    const done = await engine.run(SHOP, String(batch._id), { final: false });
    expect(claims).toEqual([2, 2, 1]);
    expect(done).toMatchObject({
      status: 'completed',
      runs: 2,
      lineItemCount: 5,
      lineItemTotal: 16.65,
      total: 16.65,
    });
    for (const li of lines) expect(lineItems.get(li._id)).toMatchObject({ paid: li.payout, balance: 0 });
  });

  it('a final failed attempt leaves the batch failed; a later trigger resumes and completes it', async () => {
    const [acme] = vendors.add(vendor('acme'));
    owed(acme._id, 10);
    adjustments.add(acme._id, -5, before(12));
    let crashes = 1;
    batches.beforeComplete = () => {
      if (crashes-- > 0) throw new Error('crash before completing');
    };
    const [batch] = await engine.trigger(SHOP, { until: UNTIL });
    await expect(engine.run(SHOP, String(batch._id), { final: true })).rejects.toThrow();
    expect(batches.docs[0].status).toBe('failed');

    const [requeued] = await engine.trigger(SHOP, { until: UNTIL });
    expect(requeued).toMatchObject({ status: 'queued' });
    const done = await engine.run(SHOP, String(batch._id), { final: false });
    expect(done).toMatchObject({
      status: 'completed',
      runs: 2,
      lineItemTotal: 10,
      adjustmentTotal: -5,
      total: 5,
    });
  });

  it('refuses a second concurrent run of the same batch, and schedules it for when the lease ends', async () => {
    const [acme] = vendors.add(vendor('acme'));
    owed(acme._id, 10);
    const [batch] = await engine.trigger(SHOP, { until: UNTIL });
    const now = new FixedClock().now();
    const leaseUntil = new Date(now.getTime() + 20_000);
    await batches.acquire(SHOP, batch._id, 'other-run', now, leaseUntil);
    const busy = await engine.run(SHOP, String(batch._id), { final: false }).catch((e: unknown) => e);
    expect(busy).toBeInstanceOf(BatchBusyError);
    expect((busy as BatchBusyError).leaseUntil).toEqual(leaseUntil);

    await engine.retryWhenFree(SHOP, String(batch._id), leaseUntil);
    const later = queue.jobs.at(-1)!;
    expect(later).toMatchObject({
      name: Jobs.RunPayoutBatch,
      data: { shopId: SHOP.shopId, batchId: String(batch._id) },
      opts: { jobId: `${String(batch._id)}:after:${leaseUntil.getTime()}`, delay: 21_000 },
    });
  });

  describe('after a crash (the run died holding its lease)', () => {
    /** A batch left `running` by a run that never came back, its lease ending at `leaseUntil`. */
    async function abandoned(leaseUntil: Date) {
      const [acme] = vendors.add(vendor('acme'));
      owed(acme._id, 10);
      const [batch] = await engine.trigger(SHOP, { until: UNTIL });
      await batches.acquire(SHOP, batch._id, 'dead-run', new Date(leaseUntil.getTime() - 30_000), leaseUntil);
      queue.jobs.length = 0;
      return batch;
    }
    const now = () => new FixedClock().now().getTime();

    it('a trigger resumes at once when the lease has lapsed (a job of its own, not the dead run’s)', async () => {
      const lapsed = new Date(now() - 1);
      const batch = await abandoned(lapsed);
      const [again] = await engine.trigger(SHOP, { until: UNTIL });
      expect(again.status).toBe('running');
      expect(queue.jobs).toEqual([
        expect.objectContaining({
          name: Jobs.RunPayoutBatch,
          opts: expect.objectContaining({
            jobId: `${String(batch._id)}:resume:${lapsed.getTime()}`,
            delay: 0,
          }),
        }),
      ]);
      const done = await engine.run(SHOP, String(batch._id), { final: false });
      expect(done).toMatchObject({ status: 'completed', runs: 2, total: 10 });
    });

    it('the sweeper resumes a running batch only once its lease lapsed, and re-queues a queued one', async () => {
      const batch = await abandoned(new Date(now() + 10_000));
      const live = (await batches.findById(SHOP, batch._id))!;
      expect(await engine.resumeStalled(SHOP, live)).toBe(false);
      expect(queue.jobs).toHaveLength(0);
      batches.docs[0].leaseUntil = new Date(now() - 1);
      expect(await engine.resumeStalled(SHOP, (await batches.findById(SHOP, batch._id))!)).toBe(true);
      expect(queue.jobs[0].opts?.jobId).toMatch(/:resume:/);

      batches.docs[0].status = 'queued';
      queue.jobs.length = 0;
      expect(await engine.resumeStalled(SHOP, (await batches.findById(SHOP, batch._id))!)).toBe(true);
      expect(queue.jobs[0].opts?.jobId).toBe(String(batch._id));
    });
  });

  it('a heartbeat renews the lease while a slow chunk runs', async () => {
    const [acme] = vendors.add(vendor('acme'));
    owed(acme._id, 10);
    const quick = build({ chunkSize: 2, leaseMs: 600 });
    const claim = lineItems.claimForBatch.bind(lineItems);
    lineItems.claimForBatch = async (...args: Parameters<typeof claim>) => {
      await new Promise((r) => setTimeout(r, 700));
      return claim(...args);
    };
    const renew = jest.spyOn(batches, 'renew');
    const [batch] = await quick.trigger(SHOP, { until: UNTIL });
    await quick.run(SHOP, String(batch._id), { final: false });
    // ≥ 2 renewals by the heartbeat (every 200 ms) during the chunk, plus the one after it
    expect(renew.mock.calls.length).toBeGreaterThanOrEqual(3);
  });

  describe('vendor policy (isPayable)', () => {
    it('pays a deactivated vendor what it earned, by trigger for all vendors and by name', async () => {
      const [gone] = vendors.add(vendor('gone', { active: false }));
      owed(gone._id, 20);
      const [all] = await runAll({ until: UNTIL });
      expect(all).toMatchObject({ vendorName: 'gone', status: 'completed', total: 20 });

      owed(gone._id, 3, before(19));
      const [named] = await runAll({ vendorId: String(gone._id), until: '2026-11-21' });
      expect(named).toMatchObject({ status: 'completed', total: 3 });
    });

    it('makes no batch for lines whose vendor is not a vendor of the shop', async () => {
      const [foreign] = vendors.add(vendor('foreign', {}, OTHER_SHOP));
      owed(foreign._id, 9);
      expect(await engine.trigger(SHOP, { until: UNTIL })).toEqual([]);
      await expect(
        engine.trigger(SHOP, { vendorId: String(foreign._id), until: UNTIL }),
      ).rejects.toBeInstanceOf(ValidationError);
      expect(queue.jobs).toHaveLength(0);
    });
  });

  describe('netting (DESIGN §8)', () => {
    /** A refund row of the vendor owing `amount` back. */
    function refundRow(vendorId: Types.ObjectId, amount: number, createdAt = before(12)) {
      const orderId = lineItems.docs.length + 1;
      const [li] = lineItems.add(
        lineItem({
          orderId,
          lineItemId: orderId * 10,
          type: 'refund',
          refundId: `r${orderId}`,
          refundLineItemId: `rl${orderId}`,
          financialStatus: 'refund',
          vendorId,
          payout: -amount,
          balance: -amount,
          orderCreatedAt: createdAt,
        }),
      );
      return li;
    }

    it('a net of zero or below pays nothing and carries it forward; the next batch nets it', async () => {
      const [acme] = vendors.add(vendor('acme'));
      const sale = owed(acme._id, 18);
      const refund = refundRow(acme._id, 45);
      const [first] = await runAll({ until: '2026-11-15' });
      expect(first).toMatchObject({
        status: 'carried_forward',
        total: 0,
        net: -27,
        openingBalance: 0,
        closingBalance: -27,
        lineItemCount: 0,
      });
      for (const li of [sale, refund]) {
        expect(lineItems.get(li._id)).toMatchObject({ batchId: null, frozen: false, paid: 0 });
      }
      expect(await balances.find(SHOP, acme._id)).toMatchObject({ carriedForward: -27, paidToDateCents: 0 });
      expect(transfers.calls).toHaveLength(0); // a carried-forward batch sends nothing

      const later = owed(acme._id, 30, before(18));
      const [second] = await runAll({ until: UNTIL });
      expect(second).toMatchObject({
        status: 'completed',
        total: 3,
        net: 3,
        openingBalance: -27,
        closingBalance: 0,
        lineItemCount: 3,
        refundCount: 1,
        refundTotal: -45,
      });
      expect(lineItems.get(refund._id)).toMatchObject({
        paid: -45,
        balance: 0,
        payoutStatus: 'paid',
        frozen: true,
      });
      expect(lineItems.get(later._id)).toMatchObject({ paid: 30, balance: 0 });
      expect(await balances.find(SHOP, acme._id)).toMatchObject({ carriedForward: 0, paidToDateCents: 300 });
      expect(transfers.calls.map((c) => c.amount)).toEqual([3]);
    });

    it('another batch of the same vendor waits while one runs (netting needs the vendor to itself)', async () => {
      const [acme] = vendors.add(vendor('acme'));
      owed(acme._id, 10);
      const [batch] = await engine.trigger(SHOP, { until: UNTIL });
      await balances.lock(
        SHOP,
        acme._id,
        new Types.ObjectId(),
        new FixedClock().now(),
        new Date(Date.now() + 3_600_000),
      );
      await expect(engine.run(SHOP, String(batch._id), { final: false })).rejects.toBeInstanceOf(
        BatchBusyError,
      );
      expect(batches.docs[0]).toMatchObject({ status: 'queued', decision: null });
    });

    it('pays an adjustment only while it is still dated within the cut-off when marked', async () => {
      const [acme] = vendors.add(vendor('acme'));
      owed(acme._id, 10);
      const moved = adjustments.add(acme._id, 5, before(12));
      adjustments.beforeMarkPaid = () => {
        moved.customItemDate = new Date('2026-11-25T00:00:00.000Z'); // an edit lands mid-batch
      };
      const [batch] = await runAll({ until: UNTIL });
      expect(batch).toMatchObject({ status: 'completed', total: 10, adjustmentCount: 0 });
      expect(moved).toMatchObject({ status: 'UNPAID' });
    });
  });

  it('refuses a period that has not ended yet', async () => {
    await expect(engine.trigger(SHOP, { until: '2026-11-22' })).rejects.toBeInstanceOf(ValidationError);
  });
});
