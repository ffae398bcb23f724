import { Logger } from '@nestjs/common';
import { FakeEventRecorder, sinkInto } from '../../test/fakes/events.fake';
import { type FakeUnionPart, SHOP } from '../../test/fakes/fake';
import { EventSink, type SourcedEvent } from './event-sink';
import { eventIdFor } from './fan-out';

describe('EventSink: the endpoints read of an emit, made in the caller’s own read', () => {
  beforeAll(() => Logger.overrideLogger(false)); // "no events module in this process" is logged
  const event: SourcedEvent = {
    key: 'order.received:1001',
    type: 'order.received',
    createdAt: new Date('2026-11-27T10:00:00.000Z'),
    object: { orderId: '1001' },
  };
  const endpoint = { _id: 'we_1', enabledEvents: ['order.received'] };

  it('offers the recorder’s endpoints part, and hands the rows read with it to the recorder', async () => {
    const recorder = new FakeEventRecorder();
    recorder.endpoints = [endpoint];
    const sink = sinkInto(recorder);
    const part = sink.endpointsPart(SHOP) as FakeUnionPart;
    expect(part).not.toBeNull();
    const rows = part.rows();
    expect(rows).toEqual([endpoint]);

    expect(await sink.emit(SHOP, [event], rows)).toBe(true);
    expect(recorder.endpointsGiven).toEqual([[endpoint]]);
    expect(recorder.calls).toEqual([[eventIdFor(event.key)]]);
  });

  it('hands an empty read on as read (no endpoint: nothing to read again)', async () => {
    const recorder = new FakeEventRecorder();
    await sinkInto(recorder).emit(SHOP, [event], []);
    expect(recorder.endpointsGiven).toEqual([[]]);
  });

  it('leaves the read to the recorder when the caller made none', async () => {
    const recorder = new FakeEventRecorder();
    await sinkInto(recorder).emit(SHOP, [event]);
    expect(recorder.endpointsGiven).toEqual([undefined]);
  });

  it('offers no part, and records nothing, without an events module in the process', async () => {
    const sink = new EventSink();
    expect(sink.endpointsPart(SHOP)).toBeNull();
    expect(await sink.emit(SHOP, [event], [])).toBe(false);
  });
});
