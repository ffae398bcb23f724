import { Injectable } from '@nestjs/common';
import { Types } from 'mongoose';
import { AuditTrail } from '../audit/audit-trail.service';
import { Clock } from '../common/clock/clock';
import { parseDateTime } from '../common/dates/date-time';
import { ConflictError, NotFoundError } from '../common/errors';
import { ShopScope, toObjectId } from '../common/tenancy';
import { FulfillmentChangesRepository, FulfilledLine } from '../line-items/fulfillment-changes.repository';
import {
  BulkShipmentEventItemDto,
  BulkShipmentEventResultDto,
  BulkShipmentEventsResultDto,
  CreateShipmentEventDto,
  ShipmentEventDto,
  ShipmentEventsDto,
} from './dto/shipment-event.dto';
import { ShipmentEvent } from './shipment-event.schema';
import { NewShipmentEvent, ShipmentEventsRepository } from './shipment-events.repository';

export const SHIPMENT_EVENT_MESSAGES = {
  notFound: 'Line item not found',
  notFulfilled: 'Line item is not fulfilled; tracking events need a fulfilled line item',
  recorded: 'Recorded',
} as const;

/**
 * Tracking events (POST/GET /fulfillments/events…): stored in shipment_events, then the latest by
 * `happenedAt` sets the line's shipment status with a conditional update, so events arriving out of
 * order leave the newest status in place. `delivered` also sets the line's deliveredAt.
 */
@Injectable()
export class ShipmentEventsService {
  constructor(
    private readonly events: ShipmentEventsRepository,
    private readonly lines: FulfillmentChangesRepository,
    private readonly clock: Clock,
    private readonly audit: AuditTrail,
  ) {}

  async record(
    scope: ShopScope,
    lineItemId: string,
    body: CreateShipmentEventDto,
  ): Promise<ShipmentEventDto> {
    const result = await this.recordMany(scope, [{ ...body, lineItemId }]);
    const only = result.results[0];
    if (only.type === 'error') {
      if (only.message === SHIPMENT_EVENT_MESSAGES.notFound) throw new NotFoundError('Line item');
      throw new ConflictError(only.message);
    }
    return only.event!;
  }

  async list(scope: ShopScope, lineItemId: string): Promise<ShipmentEventsDto> {
    const id = toObjectId(lineItemId);
    const [line] = id ? await this.lines.findLines(scope, [id]) : [];
    if (!line) throw new NotFoundError('Line item');
    const events = await this.events.forLine(scope, line._id);
    return {
      events: events.map(toShipmentEventDto),
      shipmentStatus: line.fulfillment?.shipmentStatus ?? null,
    };
  }

  /** Up to 100 events: one read of the lines, one insert, one bulk write of the statuses. */
  async recordMany(
    scope: ShopScope,
    items: BulkShipmentEventItemDto[],
  ): Promise<BulkShipmentEventsResultDto> {
    const ids = items.map((i) => toObjectId(i.lineItemId));
    const unique = [
      ...new Map(ids.filter((i): i is Types.ObjectId => !!i).map((i) => [String(i), i])).values(),
    ];
    const lines = new Map((await this.lines.findLines(scope, unique)).map((l) => [String(l._id), l]));
    const now = this.clock.now();
    const results: BulkShipmentEventResultDto[] = [];
    const accepted: Array<{ index: number; event: NewShipmentEvent }> = [];
    items.forEach((item, index) => {
      const line: FulfilledLine | undefined = ids[index] ? lines.get(String(ids[index])) : undefined;
      const fail = (message: string) => results.push({ type: 'error', lineItemId: item.lineItemId, message });
      if (!line) return fail(SHIPMENT_EVENT_MESSAGES.notFound);
      if (line.fulfillmentStatus !== 'fulfilled' || !line.fulfillment)
        return fail(SHIPMENT_EVENT_MESSAGES.notFulfilled);
      results.push({
        type: 'success',
        lineItemId: item.lineItemId,
        message: SHIPMENT_EVENT_MESSAGES.recorded,
      });
      accepted.push({
        index,
        event: {
          vendorId: line.vendorId ?? null,
          orderId: line.orderId,
          lineItemId: line._id,
          status: item.status,
          happenedAt: (item.happenedAt ? parseDateTime(item.happenedAt) : null) ?? now,
          message: item.message ?? null,
        },
      });
    });
    const stored = await this.events.insert(
      scope,
      accepted.map((a) => a.event),
    );
    stored.forEach((e, k) => (results[accepted[k].index].event = toShipmentEventDto(e)));
    // Per line, the newest event of this request; older stored ones are refused by the condition.
    const latest = new Map<string, ShipmentEvent>();
    for (const e of stored) {
      const seen = latest.get(String(e.lineItemId));
      if (!seen || seen.happenedAt <= e.happenedAt) latest.set(String(e.lineItemId), e);
    }
    // fulfillment.updated per line whose status the newest event moved: the event rides in the
    // line's outbox in the same conditional write, so a refused (older) event reports nothing.
    const stamp = this.audit.begin();
    const updates = [...latest.values()].map((e) => {
      const before = lines.get(String(e.lineItemId))!.fulfillment;
      return {
        _id: e.lineItemId,
        status: e.status,
        at: e.happenedAt,
        deliveredAt: e.status === 'delivered' ? e.happenedAt : null,
        event: this.audit.changed(
          scope,
          stamp,
          'line_item.fulfillment.update',
          { type: 'line_item', id: e.lineItemId },
          { shipmentStatus: before?.shipmentStatus ?? null },
          { shipmentStatus: e.status },
          { after: { happenedAt: e.happenedAt.toISOString() } },
        ),
      };
    });
    await this.lines.applyShipmentStatus(scope, updates, stamp);
    await this.audit.commit(
      scope,
      this.lines.outbox,
      stamp,
      updates.map((u) => u.event),
      'check',
    );
    const failedCount = results.filter((r) => r.type === 'error').length;
    return { successCount: results.length - failedCount, failedCount, results };
  }
}

export function toShipmentEventDto(e: ShipmentEvent): ShipmentEventDto {
  return {
    _id: String(e._id),
    lineItemId: String(e.lineItemId),
    orderId: e.orderId,
    vendorId: e.vendorId ? String(e.vendorId) : null,
    status: e.status,
    happenedAt: new Date(e.happenedAt).toISOString(),
    message: e.message ?? null,
    createdAt: new Date(e.createdAt).toISOString(),
  };
}
