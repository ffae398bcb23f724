import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { round2 } from '../common/money';
import { ShopScope } from '../common/tenancy';
import { TenantRepository } from '../database/tenant-repository';
import { chunkedBulkWrite } from '../database/bulk-write';
import { dropSupersededIndexes } from '../database/superseded-indexes';
import type { IncomingRefund } from '../line-items/incoming-refund';
import { Refund } from './refund.schema';

/** The only repository of `refunds`. */
@Injectable()
export class RefundsRepository extends TenantRepository<Refund> implements OnApplicationBootstrap {
  constructor(@InjectModel(Refund.name) model: Model<Refund>) {
    super(model);
  }

  /** An order's refunds gained `_id` in their index (read in a total order): the old one goes. */
  onApplicationBootstrap(): Promise<void> {
    return dropSupersededIndexes(this.model, ['shopId_1_orderId_1_processedAt_1']);
  }

  /** Stores each refund the first time it is seen (an upsert that only inserts); repeats change nothing. */
  async record(scope: ShopScope, refunds: IncomingRefund[]): Promise<void> {
    if (refunds.length === 0) return;
    const ops = refunds.map((r) => ({
      updateOne: {
        filter: this.scoped(scope, { refundId: r.refundId }),
        update: {
          $setOnInsert: {
            ...this.owner(scope),
            refundId: r.refundId,
            orderId: r.orderId,
            platformCreatedAt: r.createdAt,
            processedAt: r.processedAt,
            note: r.note,
            lines: r.lines.map((l) => ({
              refundLineItemId: l.refundLineItemId,
              lineItemId: l.lineItemId,
              quantity: l.quantity,
              restockType: l.restockType,
              subtotal: round2(l.subtotal),
              totalTax: round2(l.totalTax),
            })),
            unattributed: r.orderAdjustments.map((a) => ({
              kind: a.kind,
              amount: round2(a.amount),
              reason: a.reason,
            })),
            transactionsTotal: round2(r.transactionsTotal),
            rowsApplied: r.lines.length === 0,
          },
        },
        upsert: true,
      },
    }));
    await chunkedBulkWrite(this.model, ops as Parameters<Model<Refund>['bulkWrite']>[0]);
  }

  /** Every refund of the order, oldest first (refund rows are cut in this order). */
  forOrder(scope: ShopScope, orderId: number): Promise<Refund[]> {
    // `_id` after the time: refunds processed in the same second stay in one order (a total order:
    // database/store-ranges.ts)
    // MongoDB: the same order from the same index; without the `_id` its ties would be unordered.
    return this.model
      .find(this.scoped(scope, { orderId }))
      .sort({ processedAt: 1, _id: 1 })
      .lean<Refund[]>()
      .exec();
  }

  async markApplied(scope: ShopScope, refundIds: string[]): Promise<void> {
    if (refundIds.length === 0) return;
    await this.model
      .updateMany(this.scoped(scope, { refundId: { $in: refundIds } }), {
        $set: { rowsApplied: true },
      })
      .exec();
  }

  /**
   * Flips `waiting` of one refund (a conditional write: true when this call changed it), so the
   * shop's counter moves once per refund however often its deliveries repeat.
   */
  async setWaiting(scope: ShopScope, refundId: string, waiting: boolean): Promise<boolean> {
    const res = await this.model
      .updateOne(this.scoped(scope, { refundId, waiting: !waiting }), { $set: { waiting } })
      .exec();
    return res.modifiedCount === 1;
  }
}
