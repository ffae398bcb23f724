import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { toObjectId } from '../common/tenancy';
import type { PayoutScheduleSettings } from './payout-schedule.schema';
import { Shop } from './shop.schema';

/** What the payout scheduler reads of a shop (DESIGN §15). */
export interface ShopPayoutSchedule {
  _id: Types.ObjectId;
  payoutSchedule?: PayoutScheduleSettings;
  settings?: { requireCompleteTaxProfile?: boolean };
}
const PROJECTION = { payoutSchedule: 1, 'settings.requireCompleteTaxProfile': 1 } as const;

/**
 * The payout scheduler's reads and writes of the shops collection (DESIGN §15): the shops whose
 * next due date has come (cross-shop, the scheduler's own), and moving a shop's `nextDueAt` on
 * (compare-and-set, so two ticks never move it twice). Like ShopsRepository, reached by shop id.
 */
@Injectable()
export class PayoutSchedulesRepository {
  constructor(@InjectModel(Shop.name) private readonly model: Model<Shop>) {}

  /** Shops whose `nextDueAt` has come, oldest first (served by the `payoutSchedule.nextDueAt` index). */
  due(now: Date, limit: number): Promise<ShopPayoutSchedule[]> {
    return this.model
      .find({ 'payoutSchedule.nextDueAt': { $lte: now } }, PROJECTION)
      .sort({ 'payoutSchedule.nextDueAt': 1 })
      .limit(limit)
      .lean<ShopPayoutSchedule[]>()
      .exec();
  }

  /** One shop's schedule (eligibility, the CLI); null for an unknown id. */
  of(shopId: string): Promise<ShopPayoutSchedule | null> {
    const id = toObjectId(shopId);
    if (!id) return Promise.resolve(null);
    return this.model.findOne({ _id: id }, PROJECTION).lean<ShopPayoutSchedule>().exec();
  }

  /** Moves `nextDueAt` from `from` to `to` (null: none), only while it still reads `from`. */
  async advance(shopId: Types.ObjectId, from: Date, to: Date | null): Promise<boolean> {
    const res = await this.model
      .updateOne(
        { _id: shopId, 'payoutSchedule.nextDueAt': from },
        { $set: { 'payoutSchedule.nextDueAt': to } },
      )
      .exec();
    return res.modifiedCount === 1;
  }
}
