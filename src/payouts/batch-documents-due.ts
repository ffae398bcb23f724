import type { Logger } from '@nestjs/common';
import type { Queue } from 'bull';
import type { ShopScope } from '../common/tenancy';
import { addJob, Jobs } from '../queues/jobs';
import type { PayoutBatch } from './payout-batch.schema';

/**
 * A paid batch's documents (DESIGN §14) are issued by the documents feature, on its own queue (this
 * folder never imports it): one job per batch. A job that cannot be added is not an error: the
 * batch keeps `documentsDue` (set in its settling write), and the documents sweeper issues them.
 */
export async function announceDocuments(
  queue: Queue | undefined,
  scope: ShopScope,
  batch: PayoutBatch,
  logger: Logger,
): Promise<void> {
  if (!batch.documentsDue || !queue) return;
  const batchId = String(batch._id);
  try {
    await addJob(
      queue,
      Jobs.IssueBatchDocuments,
      { shopId: scope.shopId, batchId },
      {
        jobId: `documents:${batchId}`,
        attempts: 5,
        backoff: { type: 'exponential', delay: 1000 },
        removeOnComplete: true,
        removeOnFail: true,
      },
    );
  } catch (err) {
    logger.warn(
      { batchId, err: (err as Error)?.message },
      'Documents job not queued; the sweeper issues them',
    );
  }
}
