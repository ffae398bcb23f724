import { Types } from 'mongoose';
import { eventIdFor } from '../event-port/fan-out';
import { asReal, FixedClock, SHOP } from '../../test/fakes/fake';
import { FakeEventRecorder, sinkInto } from '../../test/fakes/events.fake';
import { FakeTransfersRepository } from '../../test/fakes/transfers.fake';
import { TransferEventsFinisher } from './transfer-events';
import type { TransferStateChange } from './transfer.schema';
import type { TransferState } from './transfer-states';
import { SystemTransferEventsRepository } from './system-transfers.repository';
import { TransfersRepository } from './transfers.repository';
import { TransfersService } from './transfers.service';

describe('transfer.paid|failed and their finisher (each move to paid/failed/reversed marks its event)', () => {
  const T0 = new Date('2026-11-20T10:00:00.000Z');
  const at = (s: number) => new Date(T0.getTime() + s * 1000);
  const BEFORE = at(600);
  let repo: FakeTransfersRepository;
  let recorder: FakeEventRecorder;
  let finisher: TransferEventsFinisher;
  let service: TransfersService;

  beforeEach(() => {
    repo = new FakeTransfersRepository();
    recorder = new FakeEventRecorder();
    const sink = sinkInto(recorder);
    finisher = new TransferEventsFinisher(
      sink,
      asReal<SystemTransferEventsRepository>(repo),
      asReal<TransfersRepository>(repo),
    );
    // moved() reads nothing but the repository and the sink
    const none = {} as never;
    service = new TransfersService(
      asReal<TransfersRepository>(repo),
      none,
      none,
      none,
      none,
      none,
      none,
      new FixedClock(T0),
      sink,
    );
  });

  const change = (from: TransferState | null, to: TransferState, s: number): TransferStateChange => ({
    from,
    to,
    at: at(s),
    by: 'test',
    note: null,
  });

  const transfer = async () =>
    (
      await repo.insertOnce(
        SHOP,
        {
          batchId: new Types.ObjectId(),
          vendorId: new Types.ObjectId(),
          vendorName: 'acme',
          method: 'stripe_connect',
          destination: 'acct_1',
          recipientType: null,
          amount: 81.9,
          currency: 'USD',
        },
        change(null, 'pending', 0),
      )
    ).transfer;

  it('paid then reversed, both lost by their requests: the sweeper records both moves once (the oldest pending marker covers the later)', async () => {
    const t = await transfer();
    await repo.move(SHOP, t._id, 'sent', change('pending', 'sent', 1));
    expect((await repo.findById(SHOP, t._id))?.eventPendingAt).toBeUndefined(); // `sent` is told to nobody
    await repo.move(SHOP, t._id, 'paid', change('sent', 'paid', 2));
    await repo.move(SHOP, t._id, 'reversed', change('paid', 'reversed', 3));
    expect((await repo.findById(SHOP, t._id))?.eventPendingAt).toEqual(at(2)); // $min: the older move

    expect(await finisher.finish(BEFORE, 500)).toBe(1);
    expect([...recorder.stored.values()].map((e) => [e.id, e.type, e.createdAt])).toEqual([
      [eventIdFor(`transfer.paid:${t._id}:3`), 'transfer.paid', at(2)],
      [eventIdFor(`transfer.failed:${t._id}:4`), 'transfer.failed', at(3)],
    ]);
    expect(recorder.ofType('transfer.failed')[0].object).toMatchObject({
      _id: String(t._id),
      state: 'reversed',
    });
    expect((await repo.findById(SHOP, t._id))?.eventPendingAt).toBeUndefined();
    expect(await finisher.finish(BEFORE, 500)).toBe(0);
  });

  it('the request records its move and clears the marker; with an older move still pending it leaves the marker to the sweeper', async () => {
    const t = await transfer();
    await repo.move(SHOP, t._id, 'sent', change('pending', 'sent', 1));
    const paid = (await repo.move(SHOP, t._id, 'paid', change('sent', 'paid', 2)))!;
    await service.moved(SHOP, paid);
    expect(recorder.stored.has(eventIdFor(`transfer.paid:${t._id}:3`))).toBe(true);
    expect((await repo.findById(SHOP, t._id))?.eventPendingAt).toBeUndefined();
    expect(await finisher.finish(BEFORE, 500)).toBe(0);

    // the reversal's request dies before recording; a later request cannot clear what it did not record
    await repo.move(SHOP, t._id, 'reversed', change('paid', 'reversed', 3));
    expect(await finisher.finish(at(3), 500)).toBe(0); // within the grace period: left alone
    expect(await finisher.finish(BEFORE, 500)).toBe(1);
    expect(recorder.ofType('transfer.failed').map((e) => e.id)).toEqual([
      eventIdFor(`transfer.failed:${t._id}:4`),
    ]);
    expect(recorder.stored.size).toBe(2);
  });

  it('a move since the finisher read the transfer keeps the marker (the clearing is conditional on the version read)', async () => {
    const t = await transfer();
    const failed = (await repo.move(SHOP, t._id, 'failed', change('pending', 'failed', 1)))!;
    await repo.move(SHOP, t._id, 'pending', change('failed', 'pending', 2)); // an operator retry
    expect(await repo.eventsRecorded(SHOP, failed, failed.eventPendingAt!)).toBe(0);
    expect((await repo.findById(SHOP, t._id))?.eventPendingAt).toEqual(at(1));

    // it fails again and that request records its own move: the older lost one keeps the marker
    const again = (await repo.move(SHOP, t._id, 'failed', change('pending', 'failed', 3)))!;
    await service.moved(SHOP, again);
    expect(recorder.stored.size).toBe(1);
    expect((await repo.findById(SHOP, t._id))?.eventPendingAt).toEqual(at(1));
    expect(await finisher.finish(BEFORE, 500)).toBe(1);
    expect(recorder.ofType('transfer.failed').map((e) => e.id)).toEqual([
      eventIdFor(`transfer.failed:${t._id}:4`),
      eventIdFor(`transfer.failed:${t._id}:2`),
    ]);
    expect((await repo.findById(SHOP, t._id))?.eventPendingAt).toBeUndefined();
  });
});
