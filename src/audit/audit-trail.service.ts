import { Injectable, Logger } from '@nestjs/common';
import { Types } from 'mongoose';
import { Clock } from '../common/clock/clock';
import { OperationContexts } from '../common/context/operation-context';
import type { ShopScope } from '../common/tenancy';
import type { AuditAction, AuditResourceType } from './audit-actions';
import { AuditEventFilter, AuditEventsRepository, AuditIntentsRepository } from './audit-events.repository';
import type { AuditOutbox } from './audit-outbox';
import { AuditRelays } from './audit-relays';
import { auditRecord, AuditRecord, AuditStamp, deletionEventId, fieldChanges } from './audit-record';

type View = Record<string, unknown>;

/** A deletion announced before it happens (see `intendDelete`). */
export interface PendingDeletion {
  intentId: Types.ObjectId;
  record: AuditRecord;
}

/**
 * The request side of the audit trail. A service asks for a stamp (`begin`), builds the event of
 * each document it is about to change (`created` / `changed`), hands both to the repository so the
 * write stores the event in the document's outbox atomically with the change, and then calls
 * `commit`, which copies the events of the documents the write reached into `audit_events` and
 * empties their outboxes. Commit failures are logged, not thrown: the change is made and its event
 * is safe in the outbox, where the repair job (AuditRepairService) finds it.
 *
 * Deletions cannot keep an outbox (the document goes): `intendDelete` stores the event as a pending
 * deletion first, `finishDelete` turns it into the event once the delete happened (or drops it).
 */
@Injectable()
export class AuditTrail {
  private readonly logger = new Logger('AuditTrail');

  constructor(
    private readonly events: AuditEventsRepository,
    private readonly intents: AuditIntentsRepository,
    private readonly clock: Clock,
    private readonly relays: AuditRelays = new AuditRelays(),
  ) {}

  /** A stamp for one audited write of the current request; null outside a credentialed request. */
  begin(): AuditStamp | null {
    const ctx = OperationContexts.current();
    if (!ctx?.actor) return null;
    return {
      key: new Types.ObjectId().toHexString(),
      at: this.clock.now(),
      actor: { kind: ctx.actor.kind, id: ctx.actor.id },
      requestId: ctx.kind === 'http' ? ctx.id : null,
      clientRequestId: ctx.kind === 'http' ? (ctx.clientRequestId ?? null) : null,
    };
  }

  /** The event of a new document (every field of its view). */
  created(
    scope: ShopScope,
    stamp: AuditStamp | null,
    action: AuditAction,
    resource: { type: AuditResourceType; id: string | Types.ObjectId },
    after: View,
  ): AuditRecord | null {
    return stamp ? auditRecord(scope.shopId, stamp, { action, resource, before: null, after }) : null;
  }

  /** The event of a change: the fields whose values differ; null when none does. */
  changed(
    scope: ShopScope,
    stamp: AuditStamp | null,
    action: AuditAction,
    resource: { type: AuditResourceType; id: string | Types.ObjectId },
    before: View,
    after: View,
    extra?: { before?: View; after?: View },
  ): AuditRecord | null {
    if (!stamp) return null;
    const diff = fieldChanges(before, after);
    if (!diff && !extra) return null;
    return auditRecord(scope.shopId, stamp, {
      action,
      resource,
      before: { ...(diff?.before ?? {}), ...(extra?.before ?? {}) },
      after: { ...(diff?.after ?? {}), ...(extra?.after ?? {}) },
    });
  }

  /**
   * A stamp for a write no request made (actor `platform`): work the server does on its own, such
   * as the start-up narrowing of webhook endpoints, written through a document's outbox.
   */
  platformStamp(): AuditStamp {
    return {
      key: new Types.ObjectId().toHexString(),
      at: this.clock.now(),
      actor: { kind: 'platform', id: 'platform' },
      requestId: null,
      clientRequestId: null,
    };
  }

  /** Whether the shop's trail holds an event matching every given filter (one facet read). */
  async shows(scope: ShopScope, filter: AuditEventFilter): Promise<boolean> {
    return (await this.events.page(scope, filter, { offset: 0, limit: 1 })).total > 0;
  }

  /**
   * Events of work the store platform caused (a webhook's refund rows) or the engine did on its own
   * (a batch carried forward): actor `platform`. Each event's id is derived from its resource and
   * action, so a retried job stores it once. Stored after the write (no request outbox to ride on);
   * a failure is logged, never thrown.
   */
  async platformEvents(
    scope: ShopScope,
    action: AuditAction,
    items: Array<{ resource: { type: AuditResourceType; id: string }; after: View }>,
  ): Promise<void> {
    if (items.length === 0) return;
    const stamp = this.platformStamp();
    const records = items.map((i) =>
      auditRecord(scope.shopId, stamp, {
        action,
        resource: i.resource,
        before: null,
        after: i.after,
        id: deletionEventId(
          `${action}:${i.resource.type}` as AuditResourceType,
          `${scope.shopId}:${i.resource.id}`,
        ),
      }),
    );
    await OperationContexts.phase('audit', () => this.events.store(scope, records)).catch((err: unknown) =>
      this.logger.warn({ err: (err as Error)?.message, action }, 'Platform audit events not stored'),
    );
  }

  /**
   * An event that changes no document (an export: money data leaving as a file). There is no write
   * for it to diverge from, so it is stored at once; a failure is logged, never fails the export.
   */
  async recordNow(
    scope: ShopScope,
    action: AuditAction,
    resource: { type: AuditResourceType; id: string | Types.ObjectId },
    after: View,
  ): Promise<void> {
    const stamp = this.begin();
    if (!stamp) return;
    try {
      await this.events.store(scope, [
        auditRecord(scope.shopId, stamp, { action, resource, before: null, after }),
      ]);
    } catch (err) {
      this.logger.warn({ err: (err as Error)?.message, action }, 'Audit event of a read not stored');
    }
  }

  /**
   * After the write: stores the events of the documents it reached and empties their outboxes.
   * `applied`: `all` when every document matched its write, the ids known to carry it (an update
   * that returned the document), or `check` to ask the collection which documents carry the stamp.
   */
  async commit(
    scope: ShopScope,
    outbox: AuditOutbox,
    stamp: AuditStamp | null,
    records: Array<AuditRecord | null | undefined>,
    applied: 'all' | 'check' | Types.ObjectId[],
  ): Promise<void> {
    const pending = records.filter((r): r is AuditRecord => !!r);
    if (!stamp || pending.length === 0) return;
    await OperationContexts.phase('audit', async () => {
      try {
        let reached = pending;
        if (applied !== 'all') {
          const ids =
            applied === 'check'
              ? await outbox.stamped(scope, pending.map(resourceObjectId), stamp.key)
              : applied;
          const hit = new Set(ids.map(String));
          reached = pending.filter((r) => hit.has(r.resource.id));
        }
        if (reached.length === 0) return;
        await this.events.store(scope, reached);
        await this.relays.relayed(reached);
        await outbox.settle(scope, reached.map(resourceObjectId), stamp.key);
      } catch (err) {
        this.logger.warn(
          { err: (err as Error)?.message, key: stamp.key },
          'Audit events not relayed yet; the repair job relays them from the outbox',
        );
      }
    });
  }

  /**
   * Before a delete: the deletion event, stored as pending. Throws when it cannot be stored, so
   * nothing is deleted without it. Null outside a credentialed request.
   */
  async intendDelete(
    scope: ShopScope,
    stamp: AuditStamp | null,
    action: AuditAction,
    resource: { type: AuditResourceType; id: string | Types.ObjectId },
    before: View,
    collectionName: string,
  ): Promise<PendingDeletion | null> {
    if (!stamp) return null;
    const id = String(resource.id);
    const record = auditRecord(scope.shopId, stamp, {
      action,
      resource: { type: resource.type, id },
      before,
      after: null,
      id: deletionEventId(resource.type, id),
    });
    const intentId = new Types.ObjectId();
    await OperationContexts.phase('audit', () =>
      this.intents.add(scope, intentId, record, collectionName, stamp.at),
    );
    return { intentId, record };
  }

  /** After the delete: its event when it happened, and the pending deletion goes either way. */
  async finishDelete(scope: ShopScope, pending: PendingDeletion | null, deleted: boolean): Promise<void> {
    if (!pending) return;
    await OperationContexts.phase('audit', async () => {
      try {
        if (deleted) {
          await this.events.store(scope, [pending.record]);
          await this.relays.relayed([pending.record]);
        }
        await this.intents.remove(scope, pending.intentId);
      } catch (err) {
        this.logger.warn(
          { err: (err as Error)?.message, intentId: String(pending.intentId) },
          'Deletion event not settled yet; the repair job settles it',
        );
      }
    });
  }
}

function resourceObjectId(r: AuditRecord): Types.ObjectId {
  return new Types.ObjectId(r.resource.id);
}
