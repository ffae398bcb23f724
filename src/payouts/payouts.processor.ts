import { Process, Processor } from '@nestjs/bull';
import type { Job } from 'bull';
import { shopScope } from '../common/tenancy';
import { Queues } from '../queues/queues';
import { PAYOUT_BATCH_JOB, PayoutBatchJob, PayoutEngine } from './payout-engine.service';

/** Rebuilds the scope from the job and runs the batch; a throw makes Bull retry with backoff. */
@Processor(Queues.Payouts)
export class PayoutsProcessor {
  constructor(private readonly engine: PayoutEngine) {}

  @Process(PAYOUT_BATCH_JOB)
  async run(job: Job<PayoutBatchJob>): Promise<void> {
    const final = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    await this.engine.run(shopScope(job.data.shopId), job.data.batchId, { final });
  }
}
