import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { ShopScope, shopScope } from '../common/tenancy';
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

/** The shipment_events collection: tracking events of fulfilled line items. */
@Injectable()
export class ShipmentEventsRepository extends TenantRepository<ShipmentEvent> {
  protected override readonly vendorField = 'vendorId';

  constructor(@InjectModel(ShipmentEvent.name) model: Model<ShipmentEvent>) {
    super(model);
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
}
