import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import type { CursorRows, CursorWindow } from '../common/pagination';
import type { ShopScope } from '../common/tenancy';
import { TenantRepository } from '../database/tenant-repository';
import { Transfer } from './transfer.schema';
import { PAYOUT_METHOD_TYPES, TRANSFER_STATES, type TransferState } from './transfer-states';

/** What a vendor's transfers in one state add up to (store `$sum`s; the caller rounds to the cent). */
export interface TransferStateSums {
  state: TransferState;
  currency: string;
  amount: number;
  reversed: number;
  count: number;
}

export type VendorTransferRow = Pick<
  Transfer,
  '_id' | 'batchId' | 'amount' | 'currency' | 'method' | 'state' | 'createdAt' | 'settledAt'
>;
const ROW = { batchId: 1, amount: 1, currency: 1, method: 1, state: 1, createdAt: 1, settledAt: 1 } as const;

/**
 * One vendor's transfers as the vendor reads them (GET /payouts/transactions, /payouts/summary).
 * Every read is served by (shopId, vendorId, state, method, createdAt, _id): state and method are
 * sent as `$in` over every value when not narrowed, so the vendor's list index serves them all.
 */
@Injectable()
export class VendorTransfersRepository extends TenantRepository<Transfer> {
  protected override readonly vendorField = 'vendorId';

  constructor(@InjectModel(Transfer.name) model: Model<Transfer>) {
    super(model);
  }

  page(
    scope: ShopScope,
    vendorId: Types.ObjectId,
    window: CursorWindow,
  ): Promise<CursorRows<VendorTransferRow>> {
    return this.cursorPage<VendorTransferRow>(
      scope,
      { vendorId, state: { $in: TRANSFER_STATES }, method: { $in: PAYOUT_METHOD_TYPES } },
      window,
      { timeField: 'createdAt', projection: ROW },
    );
  }

  /**
   * Σ amount (and Σ reversedAmount) of the vendor's transfers (vendorId undefined: the shop's) in
   * these states, optionally created in [from, to), per state and currency.
   */
  async sums(
    scope: ShopScope,
    vendorId: Types.ObjectId | undefined,
    states: TransferState[],
    created?: { from: Date; to: Date },
  ): Promise<TransferStateSums[]> {
    const groups = await this.model
      .aggregate<{
        _id: { s: TransferState; c: string };
        amount: number;
        reversed: number;
        count: number;
      }>([
        {
          $match: this.scoped(scope, {
            vendorId,
            state: { $in: states },
            method: { $in: PAYOUT_METHOD_TYPES },
            createdAt: created && { $gte: created.from, $lt: created.to },
          }),
        },
        {
          $group: {
            _id: { s: '$state', c: '$currency' },
            amount: { $sum: '$amount' },
            reversed: { $sum: '$reversedAmount' },
            count: { $sum: 1 },
          },
        },
      ])
      .exec();
    return groups.map((g) => ({
      state: g._id.s,
      currency: g._id.c,
      amount: g.amount,
      reversed: g.reversed ?? 0,
      count: g.count,
    }));
  }

  /** The vendor's newest transfer in this state (one index seek). */
  latest(
    scope: ShopScope,
    vendorId: Types.ObjectId,
    state: TransferState,
  ): Promise<VendorTransferRow | null> {
    return this.model
      .findOne(this.scoped(scope, { vendorId, state, method: { $in: PAYOUT_METHOD_TYPES } }), ROW)
      .sort({ createdAt: -1, _id: -1 })
      .lean<VendorTransferRow>()
      .exec();
  }
}
