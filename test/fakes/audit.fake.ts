import { Types } from 'mongoose';
import type { AuditEvent } from '../../src/audit/audit-event.schema';
import type {
  AuditEventFilter,
  AuditEventsRepository,
  AuditIntentsRepository,
} from '../../src/audit/audit-events.repository';
import type { AuditOutbox, AuditOutboxFields } from '../../src/audit/audit-outbox';
import type { AuditRecord, AuditStamp } from '../../src/audit/audit-record';
import { AuditRepairStore, PendingOutbox, StaleDeletion } from '../../src/audit/audit-repair.service';
import { AuditTrail } from '../../src/audit/audit-trail.service';
import type { Clock } from '../../src/common/clock/clock';
import type { ShopScope } from '../../src/common/tenancy';
import { asReal } from './fake';

/** An audited document as the outbox fields leave it (one collection's worth, in memory). */
export interface OutboxDoc extends AuditOutboxFields {
  collection: string;
  _id: Types.ObjectId;
  shopId: Types.ObjectId;
  /** Anything the "write" changed, to see that it happened. */
  data: Record<string, unknown>;
}

/**
 * Documents with the audit outbox, written the way `withOutbox` / `outboxOnInsert` write them:
 * the change and its outbox entry together, or neither.
 */
export class FakeOutboxDocs {
  readonly docs: OutboxDoc[] = [];

  get(id: Types.ObjectId | string): OutboxDoc | undefined {
    return this.docs.find((d) => String(d._id) === String(id));
  }

  /** An audited write of `data` to the document (created when absent). */
  write(
    shopId: Types.ObjectId,
    id: Types.ObjectId,
    data: Record<string, unknown>,
    stamp: AuditStamp,
    record: AuditRecord | null,
    collection = 'things',
  ): OutboxDoc {
    let doc = this.get(id);
    if (!doc) {
      doc = { collection, _id: id, shopId, data: {} };
      this.docs.push(doc);
    }
    Object.assign(doc.data, data);
    if (record) {
      doc.auditOutbox = { ...(doc.auditOutbox ?? {}), [stamp.key]: record };
      doc.auditPending = (doc.auditPending ?? 0) + 1;
      doc.auditPendingKey = stamp.key;
      doc.auditPendingAt = stamp.at;
    }
    return doc;
  }

  clear(doc: OutboxDoc): void {
    delete doc.auditOutbox;
    delete doc.auditPending;
    delete doc.auditPendingKey;
    delete doc.auditPendingAt;
  }
}

/** `ModelOutbox` over FakeOutboxDocs, with the same match conditions. */
export class FakeOutbox implements AuditOutbox {
  constructor(private readonly store: FakeOutboxDocs) {}

  async stamped(scope: ShopScope, ids: Types.ObjectId[], key: string): Promise<Types.ObjectId[]> {
    return this.mine(scope, ids)
      .filter((d) => d.auditPendingKey === key)
      .map((d) => d._id);
  }

  async settle(scope: ShopScope, ids: Types.ObjectId[], key: string): Promise<void> {
    for (const d of this.mine(scope, ids))
      if (d.auditPendingKey === key && d.auditPending === 1) this.store.clear(d);
  }

  private mine(scope: ShopScope, ids: Types.ObjectId[]): OutboxDoc[] {
    const wanted = new Set(ids.map(String));
    return this.store.docs.filter((d) => String(d.shopId) === scope.shopId && wanted.has(String(d._id)));
  }
}

/** `audit_events`: append-only, the `_id` index refusing a second copy. */
export class FakeAuditEvents implements Pick<AuditEventsRepository, 'store' | 'page'> {
  readonly events = new Map<string, AuditRecord>();
  /** Insert attempts refused as duplicates (an event copied twice). */
  duplicates = 0;
  /** Set to make the next store fail (the database went away between write and relay). */
  failNext = false;

  async store(scope: ShopScope, records: AuditRecord[]): Promise<void> {
    this.insert(records.filter((r) => String(r.shopId) === scope.shopId));
  }

  /** The facet filter of the real repository (every given facet must be on the event), newest first. */
  async page(
    scope: ShopScope,
    filter: AuditEventFilter,
    page: { offset: number; limit: number },
  ): Promise<{ total: number; items: AuditEvent[] }> {
    const facets = [
      filter.resourceType && `t:${filter.resourceType}`,
      filter.resourceId && `r:${filter.resourceId}`,
      filter.action && `a:${filter.action}`,
      filter.actorKind && `k:${filter.actorKind}`,
      filter.actorId && `u:${filter.actorId}`,
    ].filter((x): x is string => !!x);
    const hits = [...this.events.values()]
      .filter((e) => String(e.shopId) === scope.shopId && facets.every((f) => e.facets.includes(f)))
      .sort((a, b) => b.at.getTime() - a.at.getTime());
    return {
      total: hits.length,
      items: hits.slice(page.offset, page.offset + page.limit) as unknown as AuditEvent[],
    };
  }

  insert(records: AuditRecord[]): void {
    if (this.failNext) {
      this.failNext = false;
      throw new Error('connection reset');
    }
    for (const r of records) {
      if (this.events.has(String(r._id))) this.duplicates++;
      else this.events.set(String(r._id), r);
    }
  }
}

export interface FakeIntent extends StaleDeletion {
  createdAt: Date;
}

/** Pending deletions. */
export class FakeAuditIntents implements Pick<AuditIntentsRepository, 'add' | 'remove'> {
  readonly intents: FakeIntent[] = [];

  async add(
    scope: ShopScope,
    id: Types.ObjectId,
    record: AuditRecord,
    collectionName: string,
    at: Date,
  ): Promise<void> {
    this.intents.push({
      _id: id,
      shopId: new Types.ObjectId(scope.shopId),
      collectionName,
      record,
      createdAt: at,
    });
  }

  async remove(scope: ShopScope, id: Types.ObjectId): Promise<void> {
    const i = this.intents.findIndex((x) => x._id.equals(id) && String(x.shopId) === scope.shopId);
    if (i >= 0) this.intents.splice(i, 1);
  }
}

/**
 * The repair job's store over the same fakes, with SystemAuditRepository's conditions: an outbox is
 * emptied only while its last key and count are as read; a resource "exists" while its document does.
 */
export class FakeAuditRepairStore extends AuditRepairStore {
  /** Called between reading the outboxes and clearing them: a test can write "concurrently" here. */
  beforeClear: () => void = () => undefined;

  constructor(
    readonly docs: FakeOutboxDocs,
    readonly events: FakeAuditEvents,
    readonly intents: FakeAuditIntents,
  ) {
    super();
  }

  async pendingOutboxes(before: Date, limit: number): Promise<PendingOutbox[]> {
    const found = this.docs.docs
      .filter((d) => d.auditPendingAt && d.auditPendingAt.getTime() < before.getTime())
      .slice(0, limit)
      .map((d) => ({
        collection: d.collection,
        _id: d._id,
        shopId: d.shopId,
        key: d.auditPendingKey ?? null,
        count: d.auditPending ?? 0,
        records: Object.values(d.auditOutbox ?? {}),
      }));
    this.beforeClear();
    return found;
  }

  async storeEvents(records: AuditRecord[]): Promise<void> {
    this.events.insert(records);
  }

  async clearOutbox(p: PendingOutbox): Promise<boolean> {
    const doc = this.docs.get(p._id);
    if (!doc || doc.auditPendingKey !== (p.key ?? undefined) || (doc.auditPending ?? 0) !== p.count)
      return false;
    this.docs.clear(doc);
    return true;
  }

  async staleDeletions(before: Date, limit: number): Promise<StaleDeletion[]> {
    return this.intents.intents.filter((i) => i.createdAt.getTime() < before.getTime()).slice(0, limit);
  }

  async resourceExists(d: StaleDeletion): Promise<boolean> {
    return this.docs.get(d.record.resource.id) !== undefined;
  }

  async dropDeletion(d: StaleDeletion): Promise<void> {
    const i = this.intents.intents.findIndex((x) => x._id.equals(d._id));
    if (i >= 0) this.intents.intents.splice(i, 1);
  }
}

/** The real AuditTrail over in-memory events and intents (services under test record through it). */
export function fakeAuditTrail(
  clock: Clock,
  events = new FakeAuditEvents(),
  intents = new FakeAuditIntents(),
): AuditTrail {
  return new AuditTrail(
    asReal<AuditEventsRepository>(events),
    asReal<AuditIntentsRepository>(intents),
    clock,
  );
}
