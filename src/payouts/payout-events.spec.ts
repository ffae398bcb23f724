import { Types } from 'mongoose';
import { PayoutAdjustmentsRepository } from '../adjustments/payout-adjustments.repository';
import { eventIdFor } from '../event-port/fan-out';
import { asReal, SHOP } from '../../test/fakes/fake';
import { FakeEventRecorder, sinkInto } from '../../test/fakes/events.fake';
import { FakePayoutAdjustmentsRepository, FakePayoutBatchesRepository } from '../../test/fakes/payouts.fake';
import { PayoutBatchesRepository } from './payout-batches.repository';
import { PayoutEvents } from './payout-events';
import { SystemPayoutBatchesRepository } from './system-payout-batches.repository';

const cents = (s: string): bigint => BigInt(s.replace('.', ''));
const dollars = (c: bigint): number => Number(c) / 100;

describe('payout_batch.* and their finisher (the settling write marks them pending)', () => {
  const SETTLED = new Date('2026-11-20T10:00:00.000Z');
  const BEFORE = new Date(SETTLED.getTime() + 120_000);
  const vendorId = new Types.ObjectId();
  let batches: FakePayoutBatchesRepository;
  let adjustments: FakePayoutAdjustmentsRepository;
  let recorder: FakeEventRecorder;
  let events: PayoutEvents;

  beforeEach(() => {
    batches = new FakePayoutBatchesRepository();
    adjustments = new FakePayoutAdjustmentsRepository();
    recorder = new FakeEventRecorder();
    events = new PayoutEvents(
      sinkInto(recorder),
      asReal<PayoutAdjustmentsRepository>(adjustments),
      asReal<PayoutBatchesRepository>(batches),
      asReal<SystemPayoutBatchesRepository>(batches),
    );
  });

  /** A batch run to its settling write (the fake's, like the repository's, sets the marker). */
  const settle = async (periodEnd: string, status: 'completed' | 'carried_forward', total: string) => {
    const b = await batches.findOrCreate(
      SHOP,
      { vendorId, periodEnd },
      { vendorName: 'acme', cutoff: SETTLED },
    );
    await batches.acquire(SHOP, b._id, 'lease', SETTLED, BEFORE);
    const t = dollars(cents(total));
    return (await batches.complete(
      SHOP,
      b._id,
      'lease',
      {
        lineItemCount: 2,
        lineItemTotal: t,
        refundCount: 0,
        refundTotal: 0,
        adjustmentCount: 1,
        adjustmentTotal: 0,
        total: t,
        closingBalance: status === 'completed' ? 0 : t,
      },
      SETTLED,
      status,
    ))!;
  };

  it('a settled batch whose events a crash left unrecorded: payout_batch.paid and each adjustment it paid, once; the marker goes', async () => {
    const paid = await settle('2026-11-19', 'completed', '81.90');
    const adj = Object.assign(adjustments.add(vendorId, 12.5, SETTLED), {
      createdAt: SETTLED,
      updatedAt: SETTLED,
    });
    await adjustments.markPaid(SHOP, [adj], String(paid._id), SETTLED, SETTLED);
    const carried = await settle('2026-11-20', 'carried_forward', '-27.00');

    expect(await events.finish(BEFORE, 500)).toBe(2);
    expect([...recorder.stored.values()].map((e) => [e.id, e.type, e.createdAt])).toEqual([
      [eventIdFor(`payout_batch.paid:${paid._id}`), 'payout_batch.paid', SETTLED],
      [eventIdFor(`payout_adjustment.paid:${adj._id}:${paid._id}`), 'payout_adjustment.paid', SETTLED],
      [eventIdFor(`payout_batch.carried_forward:${carried._id}`), 'payout_batch.carried_forward', SETTLED],
    ]);
    expect(recorder.ofType('payout_batch.paid')[0].object).toMatchObject({
      _id: String(paid._id),
      status: 'completed',
      total: dollars(cents('81.90')),
    });
    expect(recorder.ofType('payout_batch.carried_forward')[0].object).toMatchObject({
      closingBalance: dollars(cents('-27.00')),
    });
    expect((await batches.findById(SHOP, paid._id))?.eventPendingAt).toBeUndefined();
    expect((await batches.findById(SHOP, carried._id))?.eventPendingAt).toBeUndefined();
    expect(await events.finish(BEFORE, 500)).toBe(0);
  });

  it('the run records them itself and clears the marker: the sweeper finds nothing; a marker left after recording adds nothing', async () => {
    const paid = await settle('2026-11-19', 'completed', '10.00');
    await events.batchSettled(SHOP, paid);
    expect(recorder.stored.size).toBe(1);
    expect((await batches.findById(SHOP, paid._id))?.eventPendingAt).toBeUndefined();
    expect(await events.finish(BEFORE, 500)).toBe(0);

    // died between recording and clearing: the same id again, stored once
    batches.docs[0].eventPendingAt = SETTLED;
    expect(await events.finish(BEFORE, 500)).toBe(1);
    expect(recorder.stored.size).toBe(1);
    expect(recorder.calls).toHaveLength(2);
  });

  it('a failed record keeps the marker; an unsettled batch has none', async () => {
    await batches.findOrCreate(
      SHOP,
      { vendorId, periodEnd: '2026-11-18' },
      { vendorName: 'acme', cutoff: SETTLED },
    );
    const paid = await settle('2026-11-19', 'completed', '10.00');
    recorder.failing = true;
    await events.batchSettled(SHOP, paid);
    expect(await events.finish(BEFORE, 500)).toBe(1);
    expect((await batches.findById(SHOP, paid._id))?.eventPendingAt).toEqual(SETTLED);
    recorder.failing = false;
    expect(await events.finish(BEFORE, 500)).toBe(1);
    expect(recorder.stored.size).toBe(1);
    expect(await events.finish(BEFORE, 500)).toBe(0);
  });
});
