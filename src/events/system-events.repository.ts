import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { systemQuery } from '../database/tenant-guard.plugin';
import { EventDelivery } from './event-delivery.schema';
import { OutboundEvent } from './outbound-event.schema';
import { WebhookEndpoint } from '../event-port/webhook-endpoint.schema';

export type DueDelivery = Pick<
  EventDelivery,
  '_id' | 'shopId' | 'endpointId' | 'eventId' | 'nextAttemptAt'
> & {
  nextAttemptAt: Date;
};

const FANOUT_SCAN = 'events sweeper: events a crash left before their fan-out';
const DUE_SCAN = 'events sweeper: pending deliveries past their attempt time';
const STATS_SCAN = 'metrics: outbound event deliveries by state';
const NARROW_SCAN = 'start-up narrowing: webhook endpoints a merchant token may have configured';
const PURGE_SCAN = 'events retention: events and deliveries past the 30 days kept for pollers and replay';

/**
 * The events sweeper's and the metrics' cross-shop reads (the events module's only opt-out of the
 * tenant guard), each served by a declared index that does not start with shopId.
 */
@Injectable()
export class SystemEventsRepository {
  constructor(
    @InjectModel(OutboundEvent.name) private readonly events: Model<OutboundEvent>,
    @InjectModel(EventDelivery.name) private readonly deliveries: Model<EventDelivery>,
    @InjectModel(WebhookEndpoint.name) private readonly endpoints: Model<WebhookEndpoint>,
  ) {}

  /**
   * Endpoints of every shop the start-up narrowing looks at (index `{eventScope, enabledEvents}`):
   * `unscoped` ones stored before issue 28 (no `eventScope` yet), or merchant ones listing one of
   * `types` (the types a merchant token cannot read). Each is then handled within its shop.
   */
  endpointsToNarrow(
    which: 'unscoped' | { merchantListing: string[] },
    limit: number,
  ): Promise<Array<Pick<WebhookEndpoint, '_id' | 'shopId'>>> {
    const filter =
      which === 'unscoped'
        ? { eventScope: null }
        : { eventScope: 'merchant', enabledEvents: { $in: which.merchantListing } };
    return this.endpoints
      .find(filter, { _id: 1, shopId: 1 })
      .setOptions(systemQuery(NARROW_SCAN))
      .limit(limit)
      .lean<Array<Pick<WebhookEndpoint, '_id' | 'shopId'>>>()
      .exec();
  }

  pendingFanout(before: Date, limit: number): Promise<Array<Pick<OutboundEvent, '_id' | 'shopId'>>> {
    return this.events
      .find({ fanoutPendingAt: { $lt: before } }, { _id: 1, shopId: 1 })
      .sort({ fanoutPendingAt: 1 })
      .setOptions(systemQuery(FANOUT_SCAN))
      .limit(limit)
      .lean<Array<Pick<OutboundEvent, '_id' | 'shopId'>>>()
      .exec();
  }

  dueDeliveries(before: Date, limit: number): Promise<DueDelivery[]> {
    return this.deliveries
      .find(
        { status: 'pending', nextAttemptAt: { $lt: before } },
        { _id: 1, shopId: 1, endpointId: 1, eventId: 1, nextAttemptAt: 1 },
      )
      .sort({ nextAttemptAt: 1 })
      .setOptions(systemQuery(DUE_SCAN))
      .limit(limit)
      .lean<DueDelivery[]>()
      .exec();
  }

  /**
   * Events and their deliveries older than `before` (the 30 days `GET /v1/events` and replay serve):
   * deleted in bounded batches by id, oldest first, so one sweep never holds the store for long.
   */
  async purgeBefore(before: Date, limit: number): Promise<number> {
    let purged = 0;
    for (const model of [this.deliveries, this.events] as Array<Model<EventDelivery | OutboundEvent>>) {
      const old = await model
        .find({ createdAt: { $lt: before } }, { _id: 1 })
        .sort({ createdAt: 1 })
        .setOptions(systemQuery(PURGE_SCAN))
        .limit(limit)
        .lean<Array<{ _id: unknown }>>()
        .exec();
      if (old.length === 0) continue;
      const res = await model
        .deleteMany({ _id: { $in: old.map((o) => o._id) } })
        .setOptions(systemQuery(PURGE_SCAN))
        .exec();
      purged += res.deletedCount;
    }
    return purged;
  }

  /** When the oldest pending delivery was due (null when none is pending). */
  async oldestPending(): Promise<Date | null> {
    const [row] = await this.deliveries
      .find({ status: 'pending' }, { _id: 0, nextAttemptAt: 1 })
      .sort({ nextAttemptAt: 1 })
      .setOptions(systemQuery(STATS_SCAN))
      .limit(1)
      .lean<Array<{ nextAttemptAt: Date }>>()
      .exec();
    return row?.nextAttemptAt ?? null;
  }

  countByState(state: string): Promise<number> {
    return this.deliveries.countDocuments({ status: state }).setOptions(systemQuery(STATS_SCAN)).exec();
  }
}
