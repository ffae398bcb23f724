import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { ShopScope } from '../common/tenancy';
import { TenantRepository } from '../database/tenant-repository';
import { duplicateKeyIndexes } from '../common/errors/duplicate-key';
import { OutboundEvent } from './outbound-event.schema';

const NEWEST = { createdAt: -1, _id: -1 } as const;

export interface EventFilter {
  type?: string;
  createdAt?: { $gte?: Date; $lte?: Date };
}

/** The shop's outbound events: stored once (ids are deterministic), read by the lists and replay. */
@Injectable()
export class OutboundEventsRepository extends TenantRepository<OutboundEvent> {
  constructor(@InjectModel(OutboundEvent.name) model: Model<OutboundEvent>) {
    super(model);
  }

  /** Stores the events; ones already stored (same id) are left exactly as they are. */
  async insert(scope: ShopScope, events: Array<Omit<OutboundEvent, 'shopId'>>): Promise<void> {
    if (events.length === 0) return;
    const owner = this.owner(scope);
    try {
      await this.model.collection.insertMany(events.map((e) => ({ ...e, ...owner })) as never, {
        ordered: false,
      });
    } catch (err) {
      if (duplicateKeyIndexes(err) === null) throw err;
    }
  }

  /** The stored copies of these events (the body a delivery sends is always the stored one). */
  findMany(scope: ShopScope, ids: string[]): Promise<OutboundEvent[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.model
      .find(this.scoped(scope, { _id: ids.length === 1 ? ids[0] : { $in: ids } }))
      .lean<OutboundEvent[]>()
      .exec();
  }

  /** Which of these ids are stored (`_id` only: a point lookup per id). */
  async storedIds(scope: ShopScope, ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const found = await this.model
      .find(this.scoped(scope, { _id: ids.length === 1 ? ids[0] : { $in: ids } }), { _id: 1 })
      .lean<Array<{ _id: string }>>()
      .exec();
    return new Set(found.map((e) => e._id));
  }

  findById(scope: ShopScope, id: string): Promise<OutboundEvent | null> {
    if (typeof id !== 'string' || !/^evt_[0-9a-f]{24}$/.test(id)) return Promise.resolve(null);
    return this.model
      .findOne(this.scoped(scope, { _id: id }))
      .lean<OutboundEvent>()
      .exec();
  }

  async markFannedOut(scope: ShopScope, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.model
      .updateMany(this.scoped(scope, { _id: ids.length === 1 ? ids[0] : { $in: ids } }), {
        $set: { fanoutPendingAt: null },
      })
      .exec();
  }

  page(scope: ShopScope, filter: EventFilter, page: { offset: number; limit: number }) {
    return this.offsetPage<OutboundEvent>(scope, { ...filter }, NEWEST, page);
  }

  /** Events at or after `since`, oldest first, at most `limit` (replay). */
  since(scope: ShopScope, since: Date, limit: number): Promise<OutboundEvent[]> {
    return this.model
      .find(this.scoped(scope, { createdAt: { $gte: since } }), { body: 0 })
      .sort({ createdAt: 1, _id: 1 })
      .limit(limit)
      .lean<OutboundEvent[]>()
      .exec();
  }
}
