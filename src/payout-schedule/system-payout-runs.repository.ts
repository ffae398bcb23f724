import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { leaseFree } from '../database/lease';
import { systemQuery } from '../database/tenant-guard.plugin';
import { markedBefore } from '../event-port/pending-event-marker';
import { PayoutRun } from './payout-run.schema';

/**
 * The scheduler's cross-shop reads of payout runs (the only opt-out of the tenant guard for runs):
 * runs to work on, and completed runs whose event a crash left unrecorded. Each is then handled in
 * its own shop's scope.
 */
@Injectable()
export class SystemPayoutRunsRepository {
  constructor(@InjectModel(PayoutRun.name) private readonly model: Model<PayoutRun>) {}

  /** Pending runs, and running ones whose lease lapsed or was let go of (served by `{state, leaseUntil}`). */
  workable(now: Date, limit: number): Promise<PayoutRun[]> {
    return this.model
      .find({
        state: { $in: ['pending', 'running'] },
        ...leaseFree(now),
      })
      .sort({ state: 1, leaseUntil: 1 })
      .limit(limit)
      .setOptions(systemQuery('payout scheduler: runs to work on'))
      .lean<PayoutRun[]>()
      .exec();
  }

  /** Completed runs whose `payout_run.completed` is still unrecorded since before `before`. */
  eventPending(before: Date, limit: number): Promise<PayoutRun[]> {
    return markedBefore(this.model, 'payout scheduler: run events to record', { before, limit });
  }
}
