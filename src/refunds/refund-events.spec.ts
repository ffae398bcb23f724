import { Types } from 'mongoose';
import { eventIdFor } from '../event-port/fan-out';
import { asReal, SHOP } from '../../test/fakes/fake';
import { FakeEventRecorder, FakeLineItemEventMarkers, sinkInto } from '../../test/fakes/events.fake';
import { FakeLineItemsRepository, lineItem } from '../../test/fakes/line-items.fake';
import type { LineItem } from '../line-items/line-item.schema';
import { LineItemEventMarkers } from '../line-items/line-item-event-markers.repository';
import { LineItemsRepository } from '../line-items/line-items.repository';
import { RefundEvents } from './refund-events';

/** The oracle: decimal strings to BigInt cents and back, independent of the money module. */
const cents = (s: string): bigint => BigInt(s.replace('.', ''));
const dollars = (c: bigint): number => Number(c) / 100;

describe('refund.recorded and its finisher (pending-event markers of refund rows)', () => {
  const T0 = new Date('2026-11-20T10:00:00.000Z');
  const T1 = new Date('2026-11-20T10:00:05.000Z');
  const BEFORE = new Date(T1.getTime() + 120_000);
  const acme = new Types.ObjectId();
  const bolt = new Types.ObjectId();
  let lines: FakeLineItemsRepository;
  let recorder: FakeEventRecorder;
  let events: RefundEvents;

  beforeEach(() => {
    lines = new FakeLineItemsRepository();
    recorder = new FakeEventRecorder();
    events = new RefundEvents(
      sinkInto(recorder),
      asReal<LineItemsRepository>(lines),
      asReal<LineItemEventMarkers>(new FakeLineItemEventMarkers(lines)),
    );
  });

  const row = (refundId: string, line: number, payout: string, vendorId: Types.ObjectId | null, at: Date) =>
    lines.add(
      lineItem({
        orderId: 7001,
        lineItemId: line,
        type: 'refund',
        refundId,
        refundLineItemId: `${refundId}-${line}`,
        vendorId,
        payout: Number(payout),
        eventPendingAt: at,
      } as Partial<LineItem> & { orderId: number; lineItemId: number }),
    )[0];

  /** Two cuts of one order: one row at T0; at T1 two of acme, one of bolt, one of no vendor. */
  const twoCuts = () => {
    lines.add(lineItem({ orderId: 7001, lineItemId: 1, vendorId: acme, eventPendingAt: undefined }));
    return {
      a: row('r1', 1, '-45.00', acme, T0),
      b1: row('r2', 1, '-12.35', acme, T1),
      b2: row('r2', 2, '-7.66', acme, T1),
      b3: row('r2', 3, '-3.33', bolt, T1),
      b4: row('r2', 4, '-1.00', null, T1),
    };
  };

  it('every marked cut becomes one event per vendor, keyed by its refund lines, its payout summed to the cent; every marker goes', async () => {
    const { a, b1, b2, b3, b4 } = twoCuts();
    expect(await events.finish(BEFORE, 500)).toBe(5);

    const byKey = new Map([...recorder.stored.values()].map((e) => [e.id, e]));
    expect(byKey.size).toBe(3);
    const first = byKey.get(eventIdFor(`refund.recorded:7001:${acme}:r1:r1-1`))!;
    expect(first).toMatchObject({ type: 'refund.recorded', createdAt: T0 });
    expect(first.object).toMatchObject({ orderId: '7001', vendorId: String(acme), refundIds: ['r1'] });
    expect(first.object.payout).toBe(dollars(cents('-45.00')));
    const acmeT1 = byKey.get(eventIdFor(`refund.recorded:7001:${acme}:r2:r2-1,r2:r2-2`))!;
    expect(acmeT1.createdAt).toEqual(T1);
    expect(acmeT1.object.payout).toBe(dollars(cents('-12.35') + cents('-7.66'))); // −20.01
    expect((acmeT1.object.refundRows as Array<{ _id: string }>).map((r) => r._id)).toEqual([
      String(b1._id),
      String(b2._id),
    ]);
    const boltT1 = byKey.get(eventIdFor(`refund.recorded:7001:${bolt}:r2:r2-3`))!;
    expect(boltT1.object.payout).toBe(dollars(cents('-3.33')));
    // the row of no vendor reports nothing, and its marker goes with its cut's
    for (const r of [a, b1, b2, b3, b4]) expect(lines.get(r._id).eventPendingAt).toBeUndefined();
    expect(await events.finish(BEFORE, 500)).toBe(0);
  });

  it('the request records its own cut (and clears its markers); the finisher then adds only the cut a crash left', async () => {
    const { a, b1 } = twoCuts();
    await events.recorded(SHOP, 7001, T1);
    expect(recorder.stored.size).toBe(2);
    expect(lines.get(b1._id).eventPendingAt).toBeUndefined();
    expect(lines.get(a._id).eventPendingAt).toEqual(T0);

    expect(await events.finish(BEFORE, 500)).toBe(1);
    expect(recorder.stored.size).toBe(3);
    expect(recorder.calls.flat()).toHaveLength(3); // no event recorded twice
  });

  it('a cut whose request recorded its events but died before clearing the marker records nothing new', async () => {
    twoCuts();
    await events.recorded(SHOP, 7001, T1);
    const ids = [...recorder.stored.keys()];
    // as if the clearing write never happened
    for (const r of lines.docs) if (r.refundId === 'r2') r.eventPendingAt = T1;
    await events.finish(BEFORE, 500);
    expect(recorder.ofType('refund.recorded')).toHaveLength(3);
    expect([...recorder.stored.keys()].filter((id) => ids.includes(id))).toHaveLength(2);
  });

  it('unmarked refund rows emit nothing', async () => {
    lines.add(
      lineItem({
        orderId: 7002,
        lineItemId: 1,
        type: 'refund',
        refundId: 'x',
        refundLineItemId: 'x1',
        vendorId: acme,
      }),
    );
    expect(await events.finish(BEFORE, 500)).toBe(0);
    expect(recorder.calls).toHaveLength(0);
  });
});
