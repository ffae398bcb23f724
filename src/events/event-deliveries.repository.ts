import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { ShopScope } from '../common/tenancy';
import { TenantRepository } from '../database/tenant-repository';
import { duplicateKeyIndexes } from '../common/errors/duplicate-key';
import { DeliveryAttempt, EventDelivery, EventDeliveryState } from './event-delivery.schema';

const NEWEST = { createdAt: -1, _id: -1 } as const;
/** The log keeps the latest attempts of a delivery. */
const KEPT_ATTEMPTS = 50;

export interface DeliveryFilter {
  status?: EventDeliveryState;
  eventType?: string;
  createdAt?: { $gte?: Date; $lte?: Date };
}

export interface RecordedAttempt {
  id: Types.ObjectId;
  /** The delivery's attempt count when the attempt was made. */
  attemptCount: number;
  attempt: DeliveryAttempt;
  next: { status: EventDeliveryState; nextAttemptAt: Date | null };
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

  /** These deliveries of the scope, in one read. */
  findMany(scope: ShopScope, ids: Types.ObjectId[]): Promise<EventDelivery[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.model
      .find(this.scoped(scope, { _id: ids.length === 1 ? ids[0] : { $in: ids } }))
      .lean<EventDelivery[]>()
      .exec();
  }

  /**
   * Which of these deliveries succeeded (replay skips them): point lookups on `_id`, in chunks so
   * a 10,000-event replay sends a few bounded commands.
   */
  async succeededIds(scope: ShopScope, ids: Types.ObjectId[]): Promise<Set<string>> {
    const out = new Set<string>();
    for (let i = 0; i < ids.length; i += 1000) {
      const chunk = ids.slice(i, i + 1000);
      const rows = await this.model
        .find(
          this.scoped(scope, { _id: chunk.length === 1 ? chunk[0] : { $in: chunk }, status: 'succeeded' }),
          {
            _id: 1,
          },
        )
        .lean<Array<{ _id: Types.ObjectId }>>()
        .exec();
      for (const r of rows) out.add(String(r._id));
    }
    return out;
  }

  /**
   * Logs attempts, each with what follows it, in one unordered bulk write; each row applies only
   * while the delivery still has the attempt count it was sent at (never logged twice).
   */
  async recordAttempts(scope: ShopScope, rows: RecordedAttempt[]): Promise<void> {
    if (rows.length === 0) return;
    await this.model.bulkWrite(
      rows.map((r) => ({
        updateOne: {
          filter: this.scoped(scope, { _id: r.id, attemptCount: r.attemptCount }),
          update: {
            $push: { attempts: { $each: [r.attempt], $slice: -KEPT_ATTEMPTS } },
            $inc: { attemptCount: 1 },
            $set: { ...r.next, updatedAt: r.attempt.at },
          },
        },
      })) as unknown as Parameters<Model<EventDelivery>['bulkWrite']>[0],
      { ordered: false },
    );
  }

  /** Ends a pending delivery without an attempt (its endpoint is gone or disabled). */
  async abandon(scope: ShopScope, id: Types.ObjectId): Promise<void> {
    await this.model
      .updateOne(this.scoped(scope, { _id: id, status: 'pending' }), {
        $set: { status: 'failed', nextAttemptAt: null },
      })
      .exec();
  }

  /** Starts a delivery over (retry by hand, replay): pending, due now, the schedule from the top. */
  restart(scope: ShopScope, id: Types.ObjectId, at: Date): Promise<EventDelivery | null> {
    return this.model
      .findOneAndUpdate(
        this.scoped(scope, { _id: id }),
        { $set: { status: 'pending', attemptCount: 0, nextAttemptAt: at } },
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
        $set: { status: 'pending', attemptCount: 0, nextAttemptAt: at },
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
