import { Types } from 'mongoose';
import {
  FakeAuditEvents,
  FakeAuditIntents,
  FakeAuditRepairStore,
  FakeOutbox,
  FakeOutboxDocs,
  fakeAuditTrail,
} from '../../test/fakes/audit.fake';
import { FixedClock, SHOP } from '../../test/fakes/fake';
import { OperationContexts } from '../common/context/operation-context';
import type { AuditConfig } from '../config/configuration';
import type { AuditRecord, AuditStamp } from './audit-record';
import { AuditRepairService } from './audit-repair.service';
import type { AuditTrail } from './audit-trail.service';

const GRACE_MS = 60_000;

/**
 * The audit trail's crash safety with typed fakes: a request's write and its outbox entry are one
 * document update (FakeOutboxDocs.write); the request's relay (AuditTrail.commit) and the repair job
 * (AuditRepairService) then move entries to the trail. Whatever step a "crash" skips, every write
 * ends up with exactly one event and no event exists without its write.
 */
describe('audit relay and repair (typed fakes)', () => {
  let clock: FixedClock;
  let docs: FakeOutboxDocs;
  let events: FakeAuditEvents;
  let intents: FakeAuditIntents;
  let store: FakeAuditRepairStore;
  let trail: AuditTrail;
  let outbox: FakeOutbox;
  let repair: AuditRepairService;

  beforeEach(() => {
    clock = new FixedClock(new Date('2026-11-21T12:00:00.000Z'));
    docs = new FakeOutboxDocs();
    events = new FakeAuditEvents();
    intents = new FakeAuditIntents();
    store = new FakeAuditRepairStore(docs, events, intents);
    trail = fakeAuditTrail(clock, events, intents);
    outbox = new FakeOutbox(docs);
    repair = new AuditRepairService(store, clock, { repairAfterMs: GRACE_MS } as AuditConfig);
  });

  /** Runs `fn` as a request of a merchant credential (so AuditTrail.begin gives a stamp). */
  function asRequest<T>(fn: () => T): T {
    return OperationContexts.run({ id: 'req-1', kind: 'http', actor: { kind: 'merchant', id: 'key-1' } }, fn);
  }

  /** One audited write of `value` to a new or existing document; the request then "dies" or relays. */
  function write(id: Types.ObjectId, value: number): { stamp: AuditStamp; event: AuditRecord } {
    const stamp = asRequest(() => trail.begin())!;
    const before = docs.get(id)?.data ?? {};
    const event = trail.changed(
      SHOP,
      stamp,
      'vendor.update',
      { type: 'vendor', id },
      { ...before },
      {
        ...before,
        value,
      },
    )!;
    docs.write(new Types.ObjectId(SHOP.shopId), id, { value }, stamp, event);
    return { stamp, event };
  }

  const later = (ms = GRACE_MS + 1) => clock.set(new Date(clock.now().getTime() + ms));

  it('outside a credentialed request nothing is stamped, so nothing is recorded', () => {
    expect(trail.begin()).toBeNull();
  });

  it('the request relays its event and empties the outbox: nothing left to repair', async () => {
    const id = new Types.ObjectId();
    const { stamp, event } = write(id, 1);
    await trail.commit(SHOP, outbox, stamp, [event], [id]);
    expect([...events.events.values()]).toEqual([event]);
    expect(docs.get(id)!.auditOutbox).toBeUndefined();
    later();
    expect(await repair.repair()).toEqual({
      relayed: 0,
      cleared: 0,
      deletionsConfirmed: 0,
      deletionsDropped: 0,
    });
    expect(events.events.size).toBe(1);
  });

  it('a request that died after its write: the repair stores the event, once the grace period has passed', async () => {
    const id = new Types.ObjectId();
    const { event } = write(id, 1); // … and the process dies here
    expect(events.events.size).toBe(0);
    expect((await repair.repair()).relayed).toBe(0); // still within the grace period
    later();
    const report = await repair.repair();
    expect(report).toMatchObject({ relayed: 1, cleared: 1 });
    expect([...events.events.values()]).toEqual([event]);
    expect(docs.get(id)!.auditOutbox).toBeUndefined();
  });

  it('a request that died after storing the event but before emptying the outbox: stored once', async () => {
    const id = new Types.ObjectId();
    const { event } = write(id, 1);
    events.insert([event]); // relay step 1 done; the process dies before step 2
    later();
    await repair.repair();
    expect(events.events.size).toBe(1);
    expect(events.duplicates).toBe(1);
    expect(docs.get(id)!.auditPending).toBeUndefined();
  });

  it('a relay that fails (database gone) is not an error for the request: the repair finishes it', async () => {
    const id = new Types.ObjectId();
    const { stamp, event } = write(id, 1);
    events.failNext = true;
    await expect(trail.commit(SHOP, outbox, stamp, [event], [id])).resolves.toBeUndefined();
    expect(events.events.size).toBe(0);
    later();
    await repair.repair();
    expect([...events.events.values()]).toEqual([event]);
  });

  it('an event is stored only for a write that reached its document (check mode)', async () => {
    const reached = new Types.ObjectId();
    const missed = new Types.ObjectId();
    const { stamp, event } = write(reached, 1);
    // The same stamp's event for a document whose guarded write matched nothing: never written.
    const ghost = trail.changed(
      SHOP,
      stamp,
      'vendor.update',
      { type: 'vendor', id: missed },
      {},
      { value: 9 },
    )!;
    await trail.commit(SHOP, outbox, stamp, [event, ghost], 'check');
    expect([...events.events.keys()]).toEqual([String(event._id)]);
  });

  it('two writes to one document before either relays: the fast path leaves both to the repair, which loses neither', async () => {
    const id = new Types.ObjectId();
    const first = write(id, 1);
    const second = write(id, 2);
    // The first request relays: its event is stored, but the outbox also holds the second's entry,
    // so it must not be emptied.
    await trail.commit(SHOP, outbox, first.stamp, [first.event], [id]);
    expect(docs.get(id)!.auditPending).toBe(2);
    // The second request dies before relaying.
    later();
    await repair.repair();
    expect([...events.events.keys()].sort()).toEqual(
      [String(first.event._id), String(second.event._id)].sort(),
    );
    expect(docs.get(id)!.auditOutbox).toBeUndefined();
  });

  it('a write that lands between the repair reading an outbox and emptying it is kept for the next run', async () => {
    const id = new Types.ObjectId();
    const first = write(id, 1);
    later();
    let late: { event: AuditRecord } | undefined;
    store.beforeClear = () => {
      store.beforeClear = () => undefined;
      late = write(id, 2); // a concurrent request writes (and dies)
    };
    const report = await repair.repair();
    expect(report).toMatchObject({ relayed: 1, cleared: 0 });
    expect(docs.get(id)!.auditPending).toBe(2); // not emptied: it no longer holds only what was read
    later();
    await repair.repair();
    expect([...events.events.keys()].sort()).toEqual(
      [String(first.event._id), String(late!.event._id)].sort(),
    );
    expect(docs.get(id)!.auditOutbox).toBeUndefined();
  });

  describe('deletions (the document and its outbox go)', () => {
    async function intendDelete(id: Types.ObjectId) {
      const stamp = asRequest(() => trail.begin());
      return trail.intendDelete(
        SHOP,
        stamp,
        'user.delete',
        { type: 'user', id },
        { email: 'a@b.c' },
        'users',
      );
    }

    it('finished by the request: the event, no pending deletion left', async () => {
      const id = new Types.ObjectId();
      docs.write(
        new Types.ObjectId(SHOP.shopId),
        id,
        { email: 'a@b.c' },
        asRequest(() => trail.begin())!,
        null,
      );
      const pending = await intendDelete(id);
      docs.docs.splice(docs.docs.indexOf(docs.get(id)!), 1);
      await trail.finishDelete(SHOP, pending, true);
      expect(events.events.size).toBe(1);
      expect(intents.intents).toHaveLength(0);
    });

    it('the request died after deleting: the repair finds the resource gone and stores the event', async () => {
      const id = new Types.ObjectId();
      const pending = await intendDelete(id);
      later();
      expect(await repair.repair()).toMatchObject({ deletionsConfirmed: 1, deletionsDropped: 0 });
      expect([...events.events.values()]).toEqual([pending!.record]);
      expect(intents.intents).toHaveLength(0);
    });

    it('the request died before deleting: the resource is still there, so no event', async () => {
      const id = new Types.ObjectId();
      docs.write(
        new Types.ObjectId(SHOP.shopId),
        id,
        { email: 'a@b.c' },
        asRequest(() => trail.begin())!,
        null,
      );
      await intendDelete(id);
      later();
      expect(await repair.repair()).toMatchObject({ deletionsConfirmed: 0, deletionsDropped: 1 });
      expect(events.events.size).toBe(0);
      expect(intents.intents).toHaveLength(0);
    });

    it('two requests that set out to delete one resource store one deletion event', async () => {
      const id = new Types.ObjectId();
      const a = await intendDelete(id); // dies before deleting
      const b = await intendDelete(id);
      await trail.finishDelete(SHOP, b, true);
      later();
      await repair.repair();
      expect(a!.record._id.equals(b!.record._id)).toBe(true);
      expect(events.events.size).toBe(1);
      expect(intents.intents).toHaveLength(0);
    });
  });
});
