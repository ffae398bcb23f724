import { Logger } from '@nestjs/common';
import { FakeEventRecorder, sinkInto } from '../../test/fakes/events.fake';
import { SHOP } from '../../test/fakes/fake';
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

  it('records while a recorder is registered, and hands the endpoints the caller read to it', async () => {
    const recorder = new FakeEventRecorder();
    const sink = sinkInto(recorder);
    expect(sink.recording).toBe(true);
    const rows = [endpoint];

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

  it('is not recording, and records nothing, without an events module in the process', async () => {
    const sink = new EventSink();
    expect(sink.recording).toBe(false);
    expect(await sink.emit(SHOP, [event], [])).toBe(false);
  });
});
