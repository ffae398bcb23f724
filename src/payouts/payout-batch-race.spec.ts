import { Logger } from '@nestjs/common';
import type { Queue } from 'bull';
import { Types } from 'mongoose';
import { asReal, FakeQueue, FixedClock, SHOP } from '../../test/fakes/fake';
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
import { FakeVendorsRepository, vendor } from '../../test/fakes/vendors.fake';
import { cents, num } from '../../test/support/cents';
import type { PayoutAdjustmentsRepository } from '../adjustments/payout-adjustments.repository';
import type { VendorBalancesRepository } from '../balances/vendor-balances.repository';
import type { PayoutRowsRepository } from '../line-items/payout-rows.repository';
import type { OrderSummaryRefresher } from '../line-items/order-summary.refresher';
import type { VendorTally } from '../line-items/vendor-tally.service';
import type { PaidBatch, TransfersService } from '../transfers/transfers.service';
import type { VendorsRepository } from '../vendors/vendors.repository';
import type { PayoutBatch } from './payout-batch.schema';
import type { PayoutBatchesRepository } from './payout-batches.repository';
import { PayoutBatchRunner } from './payout-batch-runner';
import { PayoutEngine } from './payout-engine.service';

/** The transfers service at the engine's boundary: records each hand-over. */
class FakeTransfers implements Pick<TransfersService, 'createForPaidBatch'> {
  readonly calls: PaidBatch[] = [];
  async createForPaidBatch(_scope: unknown, batch: PaidBatch) {
    this.calls.push(batch);
    return {} as Awaited<ReturnType<TransfersService['createForPaidBatch']>>;
  }
}

const UNTIL = '2026-11-20';
/** A stored 2-dp amount in BigInt cents (the oracle's unit). */
const toCents = (n: number): bigint => cents(n.toFixed(2));
const DAY = (d: number) => new Date(`2026-11-${String(d).padStart(2, '0')}T10:00:00.000Z`);

/**
 * Issue 28, finding 4: an UNPAID adjustment edited, deleted or added between a batch's pay decision
 * and its marking. The hook wraps the batches repository's `decide`: it lands right after the run
 * stored its decision, before anything is marked. Whatever lands there, the batch pays
 * exactly the net of what it marked, never a net of zero or below, and the vendor's debt is kept.
 */
describe('PayoutBatchRunner: an adjustment changed between the pay decision and the marking', () => {
  beforeAll(() => Logger.overrideLogger(false));
  let lineItems: FakeLineItemsRepository;
  let batches: FakePayoutBatchesRepository;
  let adjustments: FakePayoutAdjustmentsRepository;
  let vendors: FakeVendorsRepository;
  let balances: FakeVendorBalancesRepository;
  let transfers: FakeTransfers;
  let engine: PayoutEngine;
  let acme: { _id: Types.ObjectId };

  beforeEach(() => {
    lineItems = new FakeLineItemsRepository();
    batches = new FakePayoutBatchesRepository();
    adjustments = new FakePayoutAdjustmentsRepository();
    vendors = new FakeVendorsRepository();
    balances = new FakeVendorBalancesRepository();
    transfers = new FakeTransfers();
    const clock = new FixedClock();
    const runner = new PayoutBatchRunner(
      asReal<PayoutBatchesRepository>(batches),
      asReal<PayoutRowsRepository>(lineItems),
      asReal<PayoutAdjustmentsRepository>(adjustments),
      asReal<OrderSummaryRefresher>(new FakeSummaries()),
      clock,
      { chunkSize: 2, leaseMs: 60_000 },
      asReal<VendorBalancesRepository>(balances),
      asReal<TransfersService>(transfers),
      asReal<VendorTally>(new FakeVendorTally()),
    );
    engine = new PayoutEngine(
      asReal<PayoutBatchesRepository>(batches),
      asReal<PayoutRowsRepository>(lineItems),
      asReal<PayoutAdjustmentsRepository>(adjustments),
      asReal<VendorsRepository>(vendors),
      clock,
      asReal<Queue>(new FakeQueue()),
      runner,
    );
    [acme] = vendors.add(vendor('acme'));
  });

  /** Paid order lines owed to acme: 30.00 + 20.00 = 50.00 of sales. */
  function sales(): void {
    ['30.00', '20.00'].forEach((amount, i) =>
      lineItems.add(
        lineItem({
          orderId: i + 1,
          lineItemId: (i + 1) * 10,
          vendorId: acme._id,
          payout: Number(amount),
          balance: Number(amount),
          orderCreatedAt: DAY(10 + i),
        }),
      ),
    );
  }

  /** Runs the period's batch once (a hook may land between decision and marking). */
  async function runBatch(): Promise<PayoutBatch> {
    const [queued] = await engine.trigger(SHOP, { until: UNTIL });
    return engine.run(SHOP, String(queued._id), { final: false }).catch(async (err: unknown) => {
      const now = await batches.findById(SHOP, queued._id);
      throw new Error(`${String(err)} (batch ${JSON.stringify(now)})`);
    });
  }

  /** Runs `edit` right after each stored pay decision (before anything is marked), `times` times. */
  function between(edit: () => void, times = 1): void {
    const decide = batches.decide.bind(batches);
    let left = times;
    batches.decide = async (...args: Parameters<typeof decide>) => {
      const decided = await decide(...args);
      if (decided?.decision === 'pay' && left-- > 0) edit();
      return decided;
    };
  }

  /**
   * The invariants every outcome must keep (BigInt cents): the completed batch's total is the sum of
   * exactly what carries its id and is positive; its transfer is that total; its decided net is that
   * total; the vendor's paid-to-date is what was paid.
   */
  function expectExact(batch: PayoutBatch): void {
    const id = String(batch._id);
    const markedRows = lineItems.docs.filter((li) => li.batchId === id && li.frozen);
    const markedAdjustments = adjustments.docs.filter((a) => a.batchId === id && a.status === 'PAID');
    const marked = [...markedRows.map((li) => li.batchPaidAmount!), ...markedAdjustments.map((a) => a.amount)]
      .map(toCents)
      .reduce((s, c) => s + c, 0n);
    if (batch.status === 'completed') {
      expect(toCents(batch.total)).toBe(marked);
      expect(marked > 0n).toBe(true);
      expect(batch.net).toBe(batch.total);
      expect(transfers.calls.map((c) => c.amount)).toEqual([batch.total]);
    } else {
      expect(batch.status).toBe('carried_forward');
      expect(marked).toBe(0n);
      expect(batch.total).toBe(0);
      expect(transfers.calls).toEqual([]);
    }
  }

  it('a deduction deepened from −40.00 to −80.00 after the decision to pay 10.00: nothing is paid, the debt is kept', async () => {
    sales();
    const deduction = adjustments.add(acme._id, -40, DAY(12));
    between(() => Object.assign(deduction, { amount: -80 }));

    const batch = await runBatch();

    expect(batch).toMatchObject({ status: 'carried_forward', total: 0, net: -30, closingBalance: -30 });
    expectExact(batch);
    // The −80.00 stays owed (UNPAID, not swallowed by a batch), the sales stay due for the next batch.
    expect(deduction).toMatchObject({ status: 'UNPAID', batchId: 'NA', amount: -80 });
    expect(lineItems.docs.map((li) => [li.batchId, li.frozen, li.paid])).toEqual([
      [null, false, 0],
      [null, false, 0],
    ]);
    expect(await balances.find(SHOP, acme._id)).toMatchObject({ paidToDateCents: 0, carriedForward: -30 });
  });

  it('a deduction deleted after the decision: the decision is made again and pays the 50.00 now owed', async () => {
    sales();
    const deduction = adjustments.add(acme._id, -40, DAY(12));
    between(() => adjustments.docs.splice(adjustments.docs.indexOf(deduction), 1));

    const batch = await runBatch();

    expect(batch).toMatchObject({ status: 'completed', total: 50, net: 50, adjustmentCount: 0 });
    expectExact(batch);
    expect(await balances.find(SHOP, acme._id)).toMatchObject({ paidToDateCents: 5000, carriedForward: 0 });
  });

  it('a deduction eased from −40.00 to −20.00 after the decision: pays 30.00, the net it marked', async () => {
    sales();
    const deduction = adjustments.add(acme._id, -40, DAY(12));
    between(() => Object.assign(deduction, { amount: -20 }));

    const batch = await runBatch();

    expect(batch).toMatchObject({ status: 'completed', total: 30, net: 30, adjustmentTotal: -20 });
    expect(deduction).toMatchObject({ status: 'PAID', batchId: String(batch._id), amount: -20 });
    expectExact(batch);
  });

  it('a deduction of −80.00 created after the decision to pay 10.00 is not swallowed: it stays owed', async () => {
    sales();
    adjustments.add(acme._id, -40, DAY(12));
    let late: { status: string; amount: number } | undefined;
    between(() => (late = adjustments.add(acme._id, -80, DAY(13))));

    const batch = await runBatch();

    expect(batch).toMatchObject({ status: 'completed', total: 10, net: 10, adjustmentTotal: -40 });
    expectExact(batch);
    expect(late).toMatchObject({ status: 'UNPAID', amount: -80 });
  });

  it('an edit that lands on every attempt: the run gives up (retried later) without paying anything', async () => {
    sales();
    const deduction = adjustments.add(acme._id, -40, DAY(12));
    let edits = 0;
    let editing = true;
    // an operator (or a script) editing it again and again, each time right after a decision
    between(() => {
      if (editing) deduction.amount = ++edits % 2 ? -41 : -40;
    }, Infinity);
    const [queued] = await engine.trigger(SHOP, { until: UNTIL });

    await expect(engine.run(SHOP, String(queued._id), { final: false })).rejects.toThrow(/changed/);

    expect(await batches.findById(SHOP, queued._id)).toMatchObject({ status: 'queued', decision: null });
    expect(deduction).toMatchObject({ status: 'UNPAID', batchId: 'NA' });
    // the rows stay held by the batch, unpaid (as after any failed attempt), for its next run
    expect(lineItems.docs.map((li) => [li.frozen, li.paid])).toEqual([
      [false, 0],
      [false, 0],
    ]);
    expect(transfers.calls).toEqual([]);
    // The next attempt, with nobody editing, pays what is owed then.
    editing = false;
    const done = await engine.run(SHOP, String(queued._id), { final: false });
    expect(done).toMatchObject({ status: 'completed', total: num(5000n + toCents(deduction.amount)) });
    expectExact(done);
  });

  it('a run killed after marking the adjustments (before paying the rows) is finished by the next run as decided', async () => {
    sales();
    adjustments.add(acme._id, -40, DAY(12));
    const pay = lineItems.payClaimed.bind(lineItems);
    let crashes = 1;
    lineItems.payClaimed = async (...args: Parameters<typeof pay>) => {
      if (crashes-- > 0) throw new Error('kill -9 before the rows were paid');
      return pay(...args);
    };
    const [queued] = await engine.trigger(SHOP, { until: UNTIL });
    await expect(engine.run(SHOP, String(queued._id), { final: false })).rejects.toThrow('kill -9');
    expect(await batches.findById(SHOP, queued._id)).toMatchObject({
      status: 'queued',
      decision: 'pay',
      net: 10,
    });

    const done = await engine.run(SHOP, String(queued._id), { final: false });

    expect(done).toMatchObject({ status: 'completed', total: 10, net: 10, runs: 2 });
    expectExact(done);
  });
});
