import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { ShopScope, TenantRepository } from '../common/tenancy';
import { duplicateKeyIndexes } from '../database/duplicate-key';
import { DeliveryAttempt, EventDelivery, EventDeliveryState } from './event-delivery.schema';

const NEWEST = { createdAt: -1, _id: -1 } as const;
/** "Not claimed": claims compare with `$lt now`, so the field is never null. */
export const UNCLAIMED = new Date(0);
/** The log keeps the latest attempts of a delivery. */
const KEPT_ATTEMPTS = 50;

export interface DeliveryFilter {
  status?: EventDeliveryState;
  eventType?: string;
  createdAt?: { $gte?: Date; $lte?: Date };
}

export type NewDelivery = Pick<EventDelivery, '_id' | 'endpointId' | 'eventId' | 'eventType'>;

/** Deliveries of events to a shop's endpoints, with their attempt log. */
@Injectable()
export class EventDeliveriesRepository extends TenantRepository<EventDelivery> {
  constructor(@InjectModel(EventDelivery.name) model: Model<EventDelivery>) {
    super(model);
  }

  /** New pending deliveries, due at `at`; ones already there (same derived id) stay as they are. */
  async insert(scope: ShopScope, rows: NewDelivery[], at: Date): Promise<void> {
    if (rows.length === 0) return;
    const owner = this.owner(scope);
    try {
      await this.model.collection.insertMany(
        rows.map((r) => ({
          ...r,
          ...owner,
          status: 'pending',
          attemptCount: 0,
          attempts: [],
          nextAttemptAt: at,
          claimedUntil: UNCLAIMED,
          createdAt: at,
          updatedAt: at,
        })) as unknown as EventDelivery[],
        { ordered: false },
      );
    } catch (err) {
      if (duplicateKeyIndexes(err) === null) throw err;
    }
  }

  findById(scope: ShopScope, id: string | Types.ObjectId): Promise<EventDelivery | null> {
    return this.findOneById(scope, id);
  }

  /**
   * Takes the delivery for one attempt: only while it is pending, due and not held by another
   * worker (a sweeper's duplicate job, a second process). Null when someone else has it.
   */
  claim(scope: ShopScope, id: Types.ObjectId, now: Date, until: Date): Promise<EventDelivery | null> {
    return this.model
      .findOneAndUpdate(
        this.scoped(scope, {
          _id: id,
          status: 'pending',
          nextAttemptAt: { $lte: now },
          claimedUntil: { $lt: now },
        }),
        { $set: { claimedUntil: until } },
        { new: true, timestamps: false },
      )
      .lean<EventDelivery>()
      .exec();
  }

  /** Logs one attempt and what follows it (released for the next attempt, or finished). */
  async recordAttempt(
    scope: ShopScope,
    id: Types.ObjectId,
    attempt: DeliveryAttempt,
    next: { status: EventDeliveryState; nextAttemptAt: Date | null },
  ): Promise<void> {
    await this.model
      .updateOne(this.scoped(scope, { _id: id }), {
        $push: { attempts: { $each: [attempt], $slice: -KEPT_ATTEMPTS } },
        $inc: { attemptCount: 1 },
        $set: { ...next, claimedUntil: UNCLAIMED },
      })
      .exec();
  }

  /** Ends a pending delivery without an attempt (its endpoint is gone or disabled). */
  async abandon(scope: ShopScope, id: Types.ObjectId): Promise<void> {
    await this.model
      .updateOne(this.scoped(scope, { _id: id, status: 'pending' }), {
        $set: { status: 'failed', nextAttemptAt: null, claimedUntil: UNCLAIMED },
      })
      .exec();
  }

  /** Starts a delivery over (retry by hand, replay): pending, due now, the schedule from the top. */
  restart(scope: ShopScope, id: Types.ObjectId, at: Date): Promise<EventDelivery | null> {
    return this.model
      .findOneAndUpdate(
        this.scoped(scope, { _id: id }),
        { $set: { status: 'pending', attemptCount: 0, nextAttemptAt: at, claimedUntil: UNCLAIMED } },
        { new: true },
      )
      .lean<EventDelivery>()
      .exec();
  }

  /** `restart` for many deliveries of one shop in one statement (replay). */
  async restartMany(scope: ShopScope, ids: Types.ObjectId[], at: Date): Promise<void> {
    if (ids.length === 0) return;
    await this.model
      .updateMany(this.scoped(scope, { _id: { $in: ids } }), {
        $set: { status: 'pending', attemptCount: 0, nextAttemptAt: at, claimedUntil: UNCLAIMED },
      })
      .exec();
  }

  page(
    scope: ShopScope,
    endpointId: Types.ObjectId,
    filter: DeliveryFilter,
    page: { offset: number; limit: number },
  ): Promise<{ total: number; items: EventDelivery[] }> {
    return this.offsetPage<EventDelivery>(scope, { endpointId, ...filter }, NEWEST, page);
  }
}
