import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { ShopScope, shopScope } from '../common/tenancy';
import { dropSupersededIndexes } from '../database/superseded-indexes';
import { TenantRepository } from '../database/tenant-repository';
import { ShipmentEvent, ShipmentEventStatus } from './shipment-event.schema';

export interface NewShipmentEvent {
  vendorId: Types.ObjectId | null;
  orderId: number;
  lineItemId: Types.ObjectId;
  status: ShipmentEventStatus;
  happenedAt: Date;
  message: string | null;
}

/** Indexes the schema no longer declares (autoIndex never drops one): the order timeline's first shape. */
const SUPERSEDED_INDEXES = ['shopId_1_orderId_1_happenedAt_1__id_1'];

/** At most this many events of one order are read for its timeline (an order's lines carry far fewer). */
export const ORDER_EVENTS_LIMIT = 1000;

/** The shipment_events collection: tracking events of fulfilled line items. */
@Injectable()
export class ShipmentEventsRepository extends TenantRepository<ShipmentEvent> implements OnModuleInit {
  protected override readonly vendorField = 'vendorId';

  constructor(@InjectModel(ShipmentEvent.name) model: Model<ShipmentEvent>) {
    super(model);
  }

  async onModuleInit(): Promise<void> {
    await dropSupersededIndexes(this.model, SUPERSEDED_INDEXES);
  }

  /** Stores the events in one insert; returns them as stored. */
  async insert(scope: ShopScope, events: NewShipmentEvent[]): Promise<ShipmentEvent[]> {
    if (events.length === 0) return [];
    const now = new Date();
    const docs = events.map((e) => ({
      _id: new Types.ObjectId(),
      ...e,
      ...this.owner(scope),
      createdAt: now,
    }));
    await this.model.collection.insertMany(docs, { ordered: false });
    return docs as ShipmentEvent[];
  }

  /**
   * A line's events, oldest first. The caller has checked the line belongs to the scope (a vendor's
   * own line), so the read names the shop and the line: the (shopId, lineItemId, happenedAt) index.
   */
  forLine(scope: ShopScope, lineItemId: Types.ObjectId): Promise<ShipmentEvent[]> {
    return this.model
      .find(this.scoped(shopScope(scope.shopId), { lineItemId }))
      .sort({ happenedAt: 1, _id: 1 })
      .limit(1000)
      .lean<ShipmentEvent[]>()
      .exec();
  }

  /**
   * An order's events the scope sees, oldest first: a vendor's own lines' events (vendorId is in the
   * query: other vendors' events never leave the store), the shop's every event. One read on the
   * (shopId, orderId, vendorId, happenedAt, _id) index, at most ORDER_EVENTS_LIMIT events.
   */
  async forOrder(scope: ShopScope, orderId: number): Promise<ShipmentEvent[]> {
    const rows = await this.model
      .find(this.scoped(scope, { orderId }))
      .sort({ vendorId: 1, happenedAt: 1, _id: 1 })
      .limit(ORDER_EVENTS_LIMIT)
      .lean<ShipmentEvent[]>()
      .exec();
    return rows.sort(
      (a, b) => a.happenedAt.getTime() - b.happenedAt.getTime() || String(a._id).localeCompare(String(b._id)),
    );
  }
}
