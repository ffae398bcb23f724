import { Processor } from '@nestjs/bull';
import type { Job } from 'bull';
import { shopScope } from '../common/tenancy';
import { JobData, Jobs, OnJob, Queues } from '../queues/jobs';
import { PayoutEngine } from './payout-engine.service';

/** Rebuilds the scope from the job and runs the batch; a throw makes Bull retry with backoff. */
@Processor(Queues.Payouts)
export class PayoutsProcessor {
  constructor(private readonly engine: PayoutEngine) {}

  @OnJob({ queue: Queues.Payouts, name: Jobs.RunPayoutBatch })
  async run(job: Job<JobData<typeof Jobs.RunPayoutBatch>>): Promise<void> {
    const final = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    await this.engine.run(shopScope(job.data.shopId), job.data.batchId, { final });
  }
}
