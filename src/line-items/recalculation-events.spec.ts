import { eventIdFor } from '../event-port/fan-out';
import { JobsService } from '../jobs/jobs.service';
import { asReal, SHOP } from '../../test/fakes/fake';
import { FakeEventRecorder, sinkInto } from '../../test/fakes/events.fake';
import { FakeJobs } from '../../test/fakes/jobs.fake';
import { RecalculationEventsFinisher } from './recalculation-events';

describe('line_items.recalculated and its finisher (the job settling write marks it pending)', () => {
  const SETTLED = new Date('2026-11-20T10:00:00.000Z');
  const BEFORE = new Date(SETTLED.getTime() + 120_000);
  let jobs: FakeJobs;
  let recorder: FakeEventRecorder;
  let finisher: RecalculationEventsFinisher;

  beforeEach(() => {
    jobs = new FakeJobs();
    jobs.now = () => SETTLED;
    recorder = new FakeEventRecorder();
    finisher = new RecalculationEventsFinisher(sinkInto(recorder), asReal<JobsService>(jobs));
  });

  it('a settled recalculation whose part died before its event: one line_items.recalculated with the job, the marker goes', async () => {
    const id = await jobs.create(SHOP, 'recalculation', 3, 2);
    await jobs.partFinished(SHOP, id, 0, { done: 2, failed: 0 });
    expect(await finisher.finish(BEFORE, 500)).toBe(0); // not settled: nothing pending
    expect(await jobs.partFinished(SHOP, id, 1, { done: 1, failed: 0 })).toBe(true);

    expect(await finisher.finish(BEFORE, 500)).toBe(1);
    expect([...recorder.stored.values()]).toEqual([
      {
        id: eventIdFor(`line_items.recalculated:${id}`),
        shopId: SHOP.shopId,
        type: 'line_items.recalculated',
        createdAt: SETTLED,
        object: expect.objectContaining({ id, state: 'completed', total: 3, done: 3, failed: 0 }),
      },
    ]);
    expect((await jobs.withPendingEvent(SHOP, id)).pendingAt).toBeNull();
    expect(await finisher.finish(BEFORE, 500)).toBe(0);
  });

  it('a by-SKU update job settles without a marker (it has no such event); a failed record keeps the marker', async () => {
    const update = await jobs.create(SHOP, 'line-item-update', 1, 1);
    await jobs.partFinished(SHOP, update, 0, { done: 1, failed: 0 });
    const recalc = await jobs.create(SHOP, 'recalculation', 1, 1);
    await jobs.partFinished(SHOP, recalc, 0, { done: 0, failed: 1, error: 'x' });
    recorder.failing = true;
    expect(await finisher.finish(BEFORE, 500)).toBe(1);
    expect((await jobs.withPendingEvent(SHOP, recalc)).pendingAt).toEqual(SETTLED);
    recorder.failing = false;
    await finisher.finish(BEFORE, 500);
    expect(recorder.ofType('line_items.recalculated').map((e) => e.object.state)).toEqual(['failed']);
    expect(await finisher.finish(BEFORE, 500)).toBe(0);
  });

  it('a by-SKU update that recalculated its lines has the event too (marked in its settling write)', async () => {
    const update = await jobs.create(SHOP, 'line-item-update', 1, 1);
    expect(await jobs.partFinished(SHOP, update, 0, { done: 3, failed: 0 }, true)).toBe(true);
    expect((await jobs.withPendingEvent(SHOP, update)).pendingAt).toEqual(SETTLED);
    expect(await finisher.finish(BEFORE, 500)).toBe(1);
    const [event] = recorder.ofType('line_items.recalculated');
    expect(event.object).toMatchObject({ id: update, state: 'completed' });
    expect(await finisher.finish(BEFORE, 500)).toBe(0);
  });
});
