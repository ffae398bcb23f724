import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { systemQuery } from '../common/tenancy';
import { EventDelivery } from './event-delivery.schema';
import { OutboundEvent } from './outbound-event.schema';

export type DueDelivery = Pick<
  EventDelivery,
  '_id' | 'shopId' | 'endpointId' | 'eventId' | 'nextAttemptAt'
> & {
  nextAttemptAt: Date;
};

const FANOUT_SCAN = 'events sweeper: events a crash left before their fan-out';
const DUE_SCAN = 'events sweeper: pending deliveries past their attempt time';
const STATS_SCAN = 'metrics: outbound event deliveries by state';

/**
 * The events sweeper's and the metrics' cross-shop reads (the events module's only opt-out of the
 * tenant guard), each served by a declared index that does not start with shopId.
 */
@Injectable()
export class SystemEventsRepository {
  constructor(
    @InjectModel(OutboundEvent.name) private readonly events: Model<OutboundEvent>,
    @InjectModel(EventDelivery.name) private readonly deliveries: Model<EventDelivery>,
  ) {}

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
