import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { ShopScope, TenantRepository } from '../common/tenancy';
import { chunkedBulkWrite } from '../database/bulk-write';
import { LineItem, PayoutStatus } from '../line-items/line-item.schema';
import { addMoney } from './payout-money';

export interface PayoutRowFilter {
  vendorId?: Types.ObjectId;
  orderCreatedAt?: { $gte?: Date; $lte?: Date };
  payoutStatus?: PayoutStatus;
  fulfillmentStatus?: 'fulfilled' | 'unfulfilled';
}

/** The fields a payout row (spec §2.8) is built from. */
export type PayoutRowSource = Pick<
  LineItem,
  | '_id'
  | 'orderNumber'
  | 'orderName'
  | 'vendorId'
  | 'vendorName'
  | 'name'
  | 'payout'
  | 'paid'
  | 'balance'
  | 'payoutStatus'
  | 'fulfillmentStatus'
  | 'batchId'
  | 'orderCreatedAt'
>;

const ROW_PROJECTION = {
  orderNumber: 1,
  orderName: 1,
  vendorId: 1,
  vendorName: 1,
  name: 1,
  payout: 1,
  paid: 1,
  balance: 1,
  payoutStatus: 1,
  fulfillmentStatus: 1,
  batchId: 1,
  orderCreatedAt: 1,
} as const;

/** What the payout engine reads of a payable line item. */
export interface PayableLineItem {
  _id: Types.ObjectId;
  paid: number;
  balance: number;
}

export interface BatchPaidLineItem {
  _id: Types.ObjectId;
  orderId: number;
  batchPaidAmount: number | null;
}

/**
 * Line items as the payouts side sees them: payout rows, and the payout engine's selection and
 * conditional marking. The only writer of paid / balance / payoutStatus / frozen / batchId.
 */
@Injectable()
export class PayoutLineItemsRepository extends TenantRepository<LineItem> {
  protected override readonly vendorField = 'vendorId';

  constructor(@InjectModel(LineItem.name) model: Model<LineItem>) {
    super(model);
  }

  /**
   * Payout rows newest first: line items of a vendor on paid orders (and any line a batch already
   * paid, whatever happened to the order since). The total is counted only when the page cannot tell it.
   */
  async page(
    scope: ShopScope,
    filter: PayoutRowFilter,
    page: { offset: number; limit: number },
  ): Promise<{ total: number; items: PayoutRowSource[] }> {
    const where = {
      ...filter,
      ...(filter.vendorId ? {} : { vendorId: { $ne: null } }),
      $or: [{ financialStatus: 'paid' }, { batchId: { $ne: null } }],
    };
    return this.offsetPage<PayoutRowSource>(
      scope,
      where,
      { orderCreatedAt: -1, _id: -1 },
      page,
      ROW_PROJECTION,
    );
  }

  // ---- payout engine --------------------------------------------------------------------------

  private payableFilter(cutoff: Date): Record<string, unknown> {
    return {
      financialStatus: 'paid',
      cancelled: { $ne: true },
      orderCreatedAt: { $lte: cutoff },
      balance: { $gt: 0 },
      batchId: null,
      frozen: false,
    };
  }

  /** The vendor's payable line items up to the cut-off, in a stable order (one read). */
  listPayable(scope: ShopScope, vendorId: Types.ObjectId, cutoff: Date): Promise<PayableLineItem[]> {
    return this.model
      .find(this.scoped(scope, { ...this.payableFilter(cutoff), vendorId }), { paid: 1, balance: 1 })
      .sort({ _id: 1 })
      .lean<PayableLineItem[]>()
      .exec();
  }

  /** Vendors with at least one payable line item up to the cut-off. */
  async vendorsWithPayable(scope: ShopScope, cutoff: Date): Promise<Types.ObjectId[]> {
    const rows = await this.model
      .aggregate<{ _id: Types.ObjectId | null }>([
        { $match: this.scoped(scope, this.payableFilter(cutoff)) },
        { $group: { _id: '$vendorId' } },
      ])
      .exec();
    return rows.map((r) => r._id).filter((id): id is Types.ObjectId => id !== null);
  }

  /**
   * Pays each line with its own conditional write (chunked bulk writes, each by `_id`): it matches
   * only while the line is still unbatched,
   * unfrozen and has the paid / balance that was read, so a concurrent batch or a changed figure
   * leaves it alone (it is then paid by a later batch) and nothing is paid twice.
   */
  async markPaid(scope: ShopScope, items: PayableLineItem[], batchId: string, at: Date): Promise<void> {
    if (items.length === 0) return;
    const ops = items.map((li) => ({
      updateOne: {
        filter: this.scoped(scope, {
          _id: li._id,
          batchId: null,
          frozen: false,
          paid: li.paid,
          balance: li.balance,
        }),
        update: {
          $set: {
            paid: addMoney(li.paid, li.balance),
            balance: 0,
            payoutStatus: 'paid' as const,
            frozen: true,
            batchId,
            batchPaidAmount: li.balance,
            paidAt: at,
          },
        },
      },
    }));
    await chunkedBulkWrite(this.model, ops);
  }

  /** What a batch actually paid: the line items carrying its id. */
  paidByBatch(scope: ShopScope, batchId: string): Promise<BatchPaidLineItem[]> {
    return this.model
      .find(this.scoped(scope, { batchId }), { batchPaidAmount: 1, orderId: 1 })
      .lean<BatchPaidLineItem[]>()
      .exec();
  }
}
