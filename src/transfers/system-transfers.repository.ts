import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { systemQuery } from '../database/tenant-guard.plugin';
import { markedBefore } from '../event-port/pending-event-marker';
import { Transfer } from './transfer.schema';
import { OPEN_STATES, TransferState } from './transfer-states';

export const CREDITED_STATES: readonly TransferState[] = ['failed', 'reversed'];

/**
 * The transfer sweeper's cross-shop read (served by `{state, updatedAt}`): open transfers nothing
 * touched lately — their job was lost (Redis, a killed worker) or a PayPal payout is still
 * being followed. Each is then handled in its own shop's scope.
 */
@Injectable()
export class SystemTransfersRepository {
  constructor(@InjectModel(Transfer.name) private readonly model: Model<Transfer>) {}

  async stale(before: Date, limit: number): Promise<Array<Pick<Transfer, '_id' | 'shopId' | 'state'>>> {
    const found = await Promise.all(
      [...OPEN_STATES, ...CREDITED_STATES].map((state) =>
        this.model
          .find(
            { state, creditAdjustmentId: null, updatedAt: { $lt: before } },
            { _id: 1, shopId: 1, state: 1 },
          )
          .sort({ updatedAt: 1 })
          .limit(limit)
          .setOptions(systemQuery(`transfer sweeper: ${state} transfers to drive or credit back`))
          .lean<Array<Pick<Transfer, '_id' | 'shopId' | 'state'>>>()
          .exec(),
      ),
    );
    return found.flat();
  }
}

/** The events sweeper's cross-shop scan (served by `{eventPendingAt}`): moves whose event a crash left unrecorded. */
@Injectable()
export class SystemTransferEventsRepository {
  constructor(@InjectModel(Transfer.name) private readonly model: Model<Transfer>) {}

  eventPending(before: Date, limit: number): Promise<Transfer[]> {
    return markedBefore<Transfer>(this.model, 'transfers', { before, limit });
  }
}
