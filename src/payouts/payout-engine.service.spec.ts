import { Logger } from '@nestjs/common';
import { Types } from 'mongoose';
import { asReal, FakeQueue, FixedClock, OTHER_SHOP, SHOP } from '../../test/fakes/fake';
import { FakeLineItemsRepository, FakeSummaries, lineItem } from '../../test/fakes/line-items.fake';
import { FakePayoutAdjustmentsRepository, FakePayoutBatchesRepository } from '../../test/fakes/payouts.fake';
import { FakeVendorsRepository, vendor } from '../../test/fakes/vendors.fake';
import type { PayoutAdjustmentsRepository } from '../adjustments/payout-adjustments.repository';
import { ValidationError } from '../common/errors';
import type { LineItemsRepository } from '../line-items/line-items.repository';
import type { OrderSummaryRefresher } from '../line-items/order-summary.refresher';
import { Jobs } from '../queues/jobs';
import type { VendorsRepository } from '../vendors/vendors.repository';
import type { Queue } from 'bull';
import type { PayoutBatchesRepository } from './payout-batches.repository';
import { BatchBusyError, PayoutEngine } from './payout-engine.service';

const UNTIL = '2026-11-20';
const before = (day: number) => new Date(`2026-11-${String(day).padStart(2, '0')}T10:00:00.000Z`);

describe('PayoutEngine (repositories faked)', () => {
  beforeAll(() => Logger.overrideLogger(false)); // failed runs are logged: expected here
  let lineItems: FakeLineItemsRepository;
  let batches: FakePayoutBatchesRepository;
  let adjustments: FakePayoutAdjustmentsRepository;
  let vendors: FakeVendorsRepository;
  let summaries: FakeSummaries;
  let queue: FakeQueue;
  let engine: PayoutEngine;

  beforeEach(() => {
    lineItems = new FakeLineItemsRepository();
    batches = new FakePayoutBatchesRepository();
    adjustments = new FakePayoutAdjustmentsRepository();
    vendors = new FakeVendorsRepository();
    summaries = new FakeSummaries();
    queue = new FakeQueue();
    engine = new PayoutEngine(
      asReal<PayoutBatchesRepository>(batches),
      asReal<LineItemsRepository>(lineItems),
      asReal<PayoutAdjustmentsRepository>(adjustments),
      asReal<VendorsRepository>(vendors),
      asReal<OrderSummaryRefresher>(summaries),
      new FixedClock(),
      { chunkSize: 2, leaseMs: 60_000 },
      asReal<Queue>(queue),
    );
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
    lineItems.get(pending._id).financialStatus = 'pending';
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

  it('a run that crashes between two chunks is completed by the next run, nothing lost or doubled', async () => {
    const [acme] = vendors.add(vendor('acme'));
    const lines = [1.11, 2.22, 3.33, 4.44, 5.55].map((amount) => owed(acme._id, amount));
    const marks: number[] = [];
    lineItems.afterMarkPaid = (items) => {
      marks.push(items.length);
      if (marks.length === 1) throw new Error('process died after the first chunk');
    };
    const [batch] = await engine.trigger(SHOP, { until: UNTIL });

    await expect(engine.run(SHOP, String(batch._id), { final: false })).rejects.toThrow('process died');
    expect(batches.docs[0]).toMatchObject({ status: 'queued', leaseId: null });
    expect(batches.docs[0].lastError).toMatch(/errorId/);
    expect(lines.filter((li) => lineItems.get(li._id).frozen)).toHaveLength(2);

    const done = await engine.run(SHOP, String(batch._id), { final: false });
    expect(marks).toEqual([2, 2, 1]);
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

  it('refuses a second concurrent run of the same batch', async () => {
    const [acme] = vendors.add(vendor('acme'));
    owed(acme._id, 10);
    const [batch] = await engine.trigger(SHOP, { until: UNTIL });
    await batches.acquire(SHOP, batch._id, 'other-run', new Date(), new Date(Date.now() + 60_000));
    await expect(engine.run(SHOP, String(batch._id), { final: false })).rejects.toBeInstanceOf(
      BatchBusyError,
    );
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

  it('refuses a period that has not ended yet', async () => {
    await expect(engine.trigger(SHOP, { until: '2026-11-22' })).rejects.toBeInstanceOf(ValidationError);
  });
});
