import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { systemQuery } from '../database/tenant-guard.plugin';
import { markedBefore } from '../event-port/pending-event-marker';
import { PayoutBatch } from './payout-batch.schema';

/**
 * The payout sweeper's cross-shop read (the only opt-out of the tenant guard for payout batches,
 * served by `{status, updatedAt}`): batches that should be moving and have not been touched for a
 * while. Each one is then handled in its own shop's scope.
 */
@Injectable()
export class SystemPayoutBatchesRepository {
  constructor(@InjectModel(PayoutBatch.name) private readonly model: Model<PayoutBatch>) {}

  /**
   * `running` batches not written since `runningBefore` (a live run's heartbeat writes every third
   * of the lease) and `queued` ones not written since `queuedBefore`.
   */
  async stalled(runningBefore: Date, queuedBefore: Date, limit: number): Promise<PayoutBatch[]> {
    const [running, queued] = await Promise.all(
      (
        [
          ['running', runningBefore],
          ['queued', queuedBefore],
        ] as const
      ).map(([status, before]) =>
        this.model
          .find({ status, updatedAt: { $lt: before } })
          .sort({ updatedAt: 1 })
          .limit(limit)
          .setOptions(systemQuery(`payout sweeper: ${status} batches to resume`))
          .lean<PayoutBatch[]>()
          .exec(),
      ),
    );
    return [...running, ...queued];
  }

  /**
   * Completed batches whose transfer was not created (the process died between completing the
   * batch and handing it to the transfers service), completed before `before`. By `completedAt`,
   * set in the same write as `transferDue`, not `updatedAt`: the documents job's write after
   * completion would otherwise make a crashed hand-over wait another lease.
   */
  transferDue(before: Date, limit: number): Promise<PayoutBatch[]> {
    return this.model
      .find({ transferDue: true, completedAt: { $lt: before } })
      .sort({ completedAt: 1 })
      .limit(limit)
      .setOptions(systemQuery('payout sweeper: completed batches without their transfer'))
      .lean<PayoutBatch[]>()
      .exec();
  }

  /**
   * Completed batches whose documents are not issued yet (the issuing process died, or its job was
   * lost), not written since `before` (served by `{documentsDue, updatedAt}`).
   */
  documentsDue(before: Date, limit: number): Promise<PayoutBatch[]> {
    return this.model
      .find({ documentsDue: true, updatedAt: { $lt: before } })
      .sort({ updatedAt: 1 })
      .limit(limit)
      .setOptions(systemQuery('documents sweeper: completed batches without their documents'))
      .lean<PayoutBatch[]>()
      .exec();
  }

  /** Settled batches whose events a crash left unrecorded (served by `{eventPendingAt}`). */
  eventPending(before: Date, limit: number): Promise<PayoutBatch[]> {
    return markedBefore<PayoutBatch>(this.model, 'settled payout batches', { before, limit });
  }
}
