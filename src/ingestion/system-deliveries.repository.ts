import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { systemQuery } from '../database/tenant-guard.plugin';
import { DELIVERY_STATES, DeliveryState, WebhookDelivery } from './webhook-delivery.schema';

/** What the sweeper needs to re-enqueue a delivery. */
export interface StrandedDelivery {
  _id: Types.ObjectId;
  shopId: Types.ObjectId;
  leaseUntil: Date | null;
}

/**
 * The system's own cross-shop reads and deletes of the inbox (sweeper, retention, metrics): the
 * only code that opts out of the tenant guard for deliveries (`systemQuery`), every query served by
 * the `{state, receivedAt}` index. It never returns a payload; each delivery it names is then
 * handled in its own shop's scope.
 */
@Injectable()
export class SystemDeliveriesRepository {
  constructor(@InjectModel(WebhookDelivery.name) private readonly model: Model<WebhookDelivery>) {}

  /** Deliveries still `received` that arrived before `before`, oldest first. */
  stranded(before: Date, limit: number): Promise<StrandedDelivery[]> {
    return this.model
      .find({ state: 'received', receivedAt: { $lt: before } }, { shopId: 1, leaseUntil: 1 })
      .sort({ receivedAt: 1 })
      .limit(limit)
      .setOptions(systemQuery('inbox sweeper: re-enqueue stranded deliveries'))
      .lean<StrandedDelivery[]>()
      .exec();
  }

  /** Deletes processed deliveries that arrived before `before`; how many. */
  async purgeProcessed(before: Date): Promise<number> {
    const res = await this.model
      .deleteMany({ state: 'processed', receivedAt: { $lt: before } })
      .setOptions(systemQuery('inbox retention: purge old processed deliveries'))
      .exec();
    return res.deletedCount;
  }

  /** How many deliveries are in each state, across shops. */
  async countByState(): Promise<Record<DeliveryState, number>> {
    const counts = await Promise.all(
      DELIVERY_STATES.map((state) =>
        this.model.countDocuments({ state }).setOptions(systemQuery('metrics: deliveries by state')).exec(),
      ),
    );
    return Object.fromEntries(DELIVERY_STATES.map((s, i) => [s, counts[i]])) as Record<DeliveryState, number>;
  }

  /** When the oldest delivery still waiting to be processed arrived; null when none waits. */
  async oldestReceivedAt(): Promise<Date | null> {
    const doc = await this.model
      .findOne({ state: 'received' }, { receivedAt: 1 })
      .sort({ receivedAt: 1 })
      .setOptions(systemQuery('metrics: age of the oldest unprocessed delivery'))
      .lean<{ receivedAt: Date }>()
      .exec();
    return doc?.receivedAt ?? null;
  }
}
