import { asReal, FixedClock } from '../../test/fakes/fake';
import type { JobsConfig } from '../config/configuration';
import { EventSink } from '../event-port/event-sink';
import { EventsService } from './events.service';
import { EventsSweeper } from './events-sweeper.service';
import { SystemEventsRepository } from './system-events.repository';

describe('EventsSweeper runs the registered finishers', () => {
  const NOW = new Date('2026-11-20T10:00:00.000Z');
  const nothingElse = asReal<SystemEventsRepository>({
    pendingFanout: async () => [],
    dueDeliveries: async () => [],
    purgeBefore: async () => 0,
  });
  const cfg = { redriveAfterMs: 120_000 } as JobsConfig;

  it('every finisher, with the grace period as its horizon, batch after batch while batches come back full; a failing one does not stop the others', async () => {
    const sink = new EventSink();
    const calls: Array<[string, Date, number]> = [];
    let left = 1200; // markers of the first finisher: 500 + 500 + 200
    sink.finisher({
      name: 'many',
      finish: async (before, limit) => {
        calls.push(['many', before, limit]);
        const n = Math.min(left, limit);
        left -= n;
        return n;
      },
    });
    sink.finisher({
      name: 'broken',
      finish: async () => {
        calls.push(['broken', NOW, 0]);
        throw new Error('store gone');
      },
    });
    sink.finisher({
      name: 'idle',
      finish: async (before, limit) => (calls.push(['idle', before, limit]), 0),
    });
    const sweeper = new EventsSweeper(nothingElse, asReal<EventsService>({}), sink, new FixedClock(NOW), cfg);

    const report = await sweeper.sweep();
    expect(report.finished).toBe(1200);
    const horizon = new Date(NOW.getTime() - 120_000);
    expect(calls).toEqual([
      ['many', horizon, 500],
      ['many', horizon, 500],
      ['many', horizon, 500],
      ['broken', NOW, 0],
      ['idle', horizon, 500],
    ]);
  });
});
