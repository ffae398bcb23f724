import { Types } from 'mongoose';
import { withOutbox } from '../audit/audit-outbox';
import { auditRecord, type AuditRecord, type AuditStamp } from '../audit/audit-record';
import type { ShopScope } from '../common/tenancy';
import { FakeAuditEvents, FakeOutbox, FakeOutboxDocs, fakeAuditTrail } from '../../test/fakes/audit.fake';
import { asReal, FixedClock, matchesAll, SHOP } from '../../test/fakes/fake';
import { EndpointNarrowing } from './endpoint-narrowing.service';
import type { SystemEventsRepository } from './system-events.repository';
import type { WebhookEndpointsRepository } from './webhook-endpoints.repository';
import type { WebhookEndpoint } from '../event-port/webhook-endpoint.schema';

type Doc = WebhookEndpoint & Record<string, unknown>;
/** What a lean read returns: a copy (ids stay ObjectIds). */
const copy = (d: Doc): Doc => ({ ...d, enabledEvents: [...d.enabledEvents] });

/** The endpoints collection in memory, with the repository's conditional update and outbox. */
class FakeEndpoints implements Pick<WebhookEndpointsRepository, 'findById' | 'update'> {
  readonly docs: Doc[] = [];
  readonly outboxDocs = new FakeOutboxDocs();
  readonly outbox = new FakeOutbox(this.outboxDocs);
  /** Runs once before the next update applies (another process's write). */
  beforeUpdate: (() => void) | null = null;

  async findById(scope: ShopScope, id: string | Types.ObjectId): Promise<WebhookEndpoint | null> {
    const d = this.docs.find((x) => String(x._id) === String(id) && String(x.shopId) === scope.shopId);
    return d ? copy(d) : null;
  }

  async update(
    scope: ShopScope,
    id: Types.ObjectId,
    set: Record<string, unknown>,
    stamp: AuditStamp | null = null,
    event: AuditRecord | null = null,
    expect: Record<string, unknown> = {},
  ): Promise<WebhookEndpoint | null> {
    const race = this.beforeUpdate;
    this.beforeUpdate = null;
    race?.();
    const d = this.docs.find((x) => String(x._id) === String(id) && String(x.shopId) === scope.shopId);
    const holds = (k: string, v: unknown) => JSON.stringify(d?.[k] ?? null) === JSON.stringify(v ?? null);
    if (!d || !Object.entries(expect).every(([k, v]) => holds(k, v))) return null;
    Object.assign(d, set);
    if (stamp && event)
      this.outboxDocs.write(d.shopId, d._id, withOutbox({ $set: set }, stamp, event), stamp, event);
    return copy(d);
  }

  /** What SystemEventsRepository.endpointsToNarrow finds, across shops. */
  toNarrow(
    which: 'unscoped' | { merchantListing: string[] },
  ): Array<Pick<WebhookEndpoint, '_id' | 'shopId'>> {
    return this.docs
      .filter((d) =>
        which === 'unscoped'
          ? d.eventScope == null
          : d.eventScope === 'merchant' && d.enabledEvents.some((t) => which.merchantListing.includes(t)),
      )
      .map((d) => ({ _id: d._id, shopId: d.shopId }));
  }
}

describe('EndpointNarrowing (start-up narrowing of webhook endpoints)', () => {
  const clock = new FixedClock();
  let endpoints: FakeEndpoints;
  let audit: FakeAuditEvents;
  let narrowing: EndpointNarrowing;

  const endpoint = (enabledEvents: string[], extra: Partial<Doc> = {}): Doc => {
    const d = {
      _id: new Types.ObjectId(),
      shopId: new Types.ObjectId(SHOP.shopId),
      url: 'https://erp.example.com/h',
      description: null,
      enabledEvents,
      status: 'enabled',
      disabledReason: null,
      secrets: [],
      failingSince: null,
      createdBy: null,
      lastReplayAt: null,
      createdAt: clock.now(),
      updatedAt: clock.now(),
      ...extra,
    } as Doc;
    endpoints.docs.push(d);
    return d;
  };
  const merchantCreated = (d: Doc) =>
    audit.insert([
      auditRecord(
        SHOP.shopId,
        {
          key: new Types.ObjectId().toHexString(),
          at: clock.now(),
          actor: { kind: 'merchant', id: 'key-1' },
          requestId: null,
          clientRequestId: null,
        },
        {
          action: 'webhook_endpoint.create',
          resource: { type: 'webhook_endpoint', id: d._id },
          before: null,
          after: {},
        },
      ),
    ]);
  const narrowed = () => [...audit.events.values()].filter((e) => e.action === 'webhook_endpoint.narrow');

  beforeEach(() => {
    endpoints = new FakeEndpoints();
    audit = new FakeAuditEvents();
    const system = {
      endpointsToNarrow: async (w: Parameters<FakeEndpoints['toNarrow']>[0]) => endpoints.toNarrow(w),
    };
    narrowing = new EndpointNarrowing(
      asReal<SystemEventsRepository>(system),
      asReal<WebhookEndpointsRepository>(endpoints as unknown as WebhookEndpointsRepository),
      fakeAuditTrail(clock, audit),
    );
  });

  it('a legacy endpoint the trail shows a merchant created loses what a merchant cannot read; others stay', async () => {
    const shown = endpoint(['order.received', 'vendor.created']);
    const silent = endpoint(['order.received']);
    const wildcard = endpoint(['*']);
    merchantCreated(shown);
    expect(await narrowing.run()).toEqual({ narrowed: 1, scoped: 2 });
    expect(shown).toMatchObject({
      enabledEvents: ['vendor.created'],
      eventScope: 'merchant',
      createdBy: 'merchant',
    });
    expect(silent).toMatchObject({ enabledEvents: ['order.received'], eventScope: 'shop', createdBy: null });
    expect(wildcard).toMatchObject({ enabledEvents: ['*'], eventScope: 'shop' });
    expect(narrowed()).toHaveLength(1);
    expect(narrowed()[0]).toMatchObject({
      actor: { kind: 'platform' },
      resource: { id: String(shown._id) },
      before: { enabledEvents: ['order.received', 'vendor.created'], eventScope: 'shop', createdBy: null },
      after: {
        enabledEvents: ['vendor.created'],
        eventScope: 'merchant',
        createdBy: 'merchant',
        removed: ['order.received'],
      },
    });
    // the outbox was relayed and emptied by the commit
    expect(endpoints.outboxDocs.get(shown._id)?.auditPending ?? 0).toBe(0);
  });

  it('a merchant endpoint left with nothing is disabled, saying why; * stays *', async () => {
    const none = endpoint(['refund.recorded', 'transfer.paid'], {
      eventScope: 'merchant',
      createdBy: 'merchant',
    });
    const all = endpoint(['*'], { eventScope: 'merchant', createdBy: 'merchant' });
    await narrowing.run();
    expect(none).toMatchObject({ enabledEvents: [], status: 'disabled' });
    expect(none.disabledReason).toContain('refund.recorded, transfer.paid');
    expect(all).toMatchObject({ enabledEvents: ['*'], status: 'enabled' });
    expect(narrowed().map((e) => e.resource.id)).toEqual([String(none._id)]);
  });

  it('idempotent: a second start changes and records nothing', async () => {
    merchantCreated(endpoint(['order.received', 'user.created']));
    endpoint(['payout_batch.paid'], { eventScope: 'merchant' });
    await narrowing.run();
    const after = JSON.stringify(endpoints.docs);
    expect(await narrowing.run()).toEqual({ narrowed: 0, scoped: 0 });
    expect(JSON.stringify(endpoints.docs)).toBe(after);
    expect(narrowed()).toHaveLength(2);
  });

  it('an endpoint changed between the read and the write (another process, the shop) is left to it', async () => {
    const d = endpoint(['order.received', 'vendor.created'], { eventScope: 'merchant' });
    endpoints.beforeUpdate = () => {
      d.enabledEvents = ['vendor.created'];
    };
    expect(await narrowing.narrowOne(SHOP, d._id)).toBe('unchanged');
    expect(narrowed()).toHaveLength(0);
    expect(matchesAll(d, { eventScope: 'merchant' })).toBe(true);
  });
});
