import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import type { CursorRows, CursorWindow } from '../common/pagination';
import { ShopScope } from '../common/tenancy';
import { TenantRepository } from '../database/tenant-repository';
import { duplicateKeyIndexes } from '../common/errors/duplicate-key';
import type { AuditAction, AuditActorKind, AuditResourceType } from './audit-actions';
import { AuditEvent, AuditIntent } from './audit-event.schema';
import type { AuditRecord } from './audit-record';

export interface AuditEventFilter {
  resourceType?: AuditResourceType;
  resourceId?: string;
  actorKind?: AuditActorKind;
  actorId?: string;
  action?: AuditAction;
  at?: { $gte?: Date; $lte?: Date };
}

/**
 * Stores events under the ids they were given: an event copied a second time (by the repair job
 * after the request, or the other way round) is refused by the `_id` index and counts as stored.
 */
export async function insertEvents(model: Model<AuditEvent>, records: AuditRecord[]): Promise<void> {
  if (records.length === 0) return;
  try {
    await model.collection.insertMany(records as unknown as AuditEvent[], { ordered: false });
  } catch (err) {
    if (duplicateKeyIndexes(err) === null) throw err;
  }
}

/** Filters as facet equalities: any combination is served by `{shopId, facets, at, _id}`. */
function auditFilter(f: AuditEventFilter): Record<string, unknown> {
  const facets = [
    f.resourceType && `t:${f.resourceType}`,
    f.resourceId && `r:${f.resourceId}`,
    f.action && `a:${f.action}`,
    f.actorKind && `k:${f.actorKind}`,
    f.actorId && `u:${f.actorId}`,
  ].filter((x): x is string => !!x);
  const where: Record<string, unknown> = {};
  if (facets.length === 1) where.facets = facets[0];
  else if (facets.length > 1) where.$and = facets.map((facet) => ({ facets: facet }));
  if (f.at) where.at = f.at;
  return where;
}

const NEWEST = { at: -1, _id: -1 } as const;

/** The audit trail of one shop: append and read, nothing else. */
@Injectable()
export class AuditEventsRepository extends TenantRepository<AuditEvent> {
  constructor(@InjectModel(AuditEvent.name) model: Model<AuditEvent>) {
    super(model);
  }

  /** Appends the scope's events (others' are dropped: a request only writes its own shop's). */
  store(scope: ShopScope, records: AuditRecord[]): Promise<void> {
    return insertEvents(
      this.model,
      records.filter((r) => String(r.shopId) === scope.shopId),
    );
  }

  page(
    scope: ShopScope,
    filter: AuditEventFilter,
    page: { offset: number; limit: number },
  ): Promise<{ total: number; items: AuditEvent[] }> {
    return this.offsetPage<AuditEvent>(scope, auditFilter(filter), NEWEST, page, { facets: 0 });
  }

  cursor(scope: ShopScope, filter: AuditEventFilter, window: CursorWindow): Promise<CursorRows<AuditEvent>> {
    return this.cursorPage<AuditEvent>(scope, auditFilter(filter), window, {
      timeField: 'at',
      projection: { facets: 0 },
    });
  }
}

/** Pending deletions of one shop (see AuditIntent). */
@Injectable()
export class AuditIntentsRepository extends TenantRepository<AuditIntent> {
  constructor(@InjectModel(AuditIntent.name) model: Model<AuditIntent>) {
    super(model);
  }

  async add(
    scope: ShopScope,
    id: Types.ObjectId,
    record: AuditRecord,
    collectionName: string,
    at: Date,
  ): Promise<void> {
    await this.model.collection.insertOne({
      _id: id,
      collectionName,
      record: record as unknown as Record<string, unknown>,
      createdAt: at,
      ...this.owner(scope),
    });
  }

  async remove(scope: ShopScope, id: Types.ObjectId): Promise<void> {
    await this.model.deleteOne(this.scoped(scope, { _id: id })).exec();
  }
}
