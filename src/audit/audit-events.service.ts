import { Inject, Injectable } from '@nestjs/common';
import { dayRangeFilter } from '../common/dates/day-range';
import { nextOffset, readCursorPage } from '../common/pagination';
import type { ShopScope } from '../common/tenancy';
import { authConfig, AuthConfig } from '../config/configuration';
import type { AuditEvent } from './audit-event.schema';
import { AuditEventFilter, AuditEventsRepository } from './audit-events.repository';
import {
  AuditEventDto,
  AuditEventListDto,
  AuditEventListQueryDto,
  AuditEventPageQueryDto,
  AuditEventQuery,
  AuditEventsPageDto,
} from './dto/audit-event.dto';

/** GET /v1/audit-events and GET /v2/audit-events: the shop's own trail, newest first. */
@Injectable()
export class AuditEventsService {
  constructor(
    private readonly events: AuditEventsRepository,
    @Inject(authConfig.KEY) private readonly auth: AuthConfig,
  ) {}

  async list(scope: ShopScope, q: AuditEventListQueryDto): Promise<AuditEventListDto> {
    const { total, items } = await this.events.page(scope, filterOf(q), q);
    return { total, nextOffset: nextOffset(q, total), events: items.map(toAuditEventResponse) };
  }

  async page(scope: ShopScope, q: AuditEventPageQueryDto): Promise<AuditEventsPageDto> {
    const filter = filterOf(q);
    const page = await readCursorPage(
      q,
      this.auth.cursorKey,
      `audit-events:${scope.shopId}`,
      (window) => this.events.cursor(scope, filter, window),
      (e) => ({ t: new Date(e.at).getTime(), id: String(e._id) }),
    );
    return {
      events: page.items.map(toAuditEventResponse),
      pageInfo: page.pageInfo,
      totalCount: page.totalCount,
    };
  }
}

function filterOf(q: AuditEventQuery): AuditEventFilter {
  return {
    resourceType: q.resourceType,
    resourceId: q.resourceId?.toLowerCase(),
    actorKind: q.actorKind,
    actorId: q.actorId?.toLowerCase(),
    action: q.action,
    at: dayRangeFilter(q.start, q.end),
  };
}

export function toAuditEventResponse(e: AuditEvent): AuditEventDto {
  return {
    _id: String(e._id),
    at: new Date(e.at).toISOString(),
    actor: { kind: e.actor.kind, id: e.actor.id },
    action: e.action,
    resource: { type: e.resource.type, id: e.resource.id },
    before: e.before ?? null,
    after: e.after ?? null,
    requestId: e.requestId ?? null,
    clientRequestId: e.clientRequestId ?? null,
  };
}
