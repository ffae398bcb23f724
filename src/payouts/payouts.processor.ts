import { Processor } from '@nestjs/bull';
import type { Job } from 'bull';
import { shopScope } from '../common/tenancy';
import { JobData, Jobs, OnJob, Queues } from '../queues/jobs';
import { BatchBusyError } from './payout-batch-runner';
import { PayoutEngine } from './payout-engine.service';

/**
 * Rebuilds the scope from the job and runs the batch; a throw makes Bull retry with backoff. A
 * batch another run holds is not an error: it runs again when that run's lease ends.
 */
@Processor(Queues.Payouts)
export class PayoutsProcessor {
  constructor(private readonly engine: PayoutEngine) {}

  @OnJob({ queue: Queues.Payouts, name: Jobs.RunPayoutBatch })
  async run(job: Job<JobData<typeof Jobs.RunPayoutBatch>>): Promise<string> {
    const scope = shopScope(job.data.shopId);
    const final = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    try {
      return (await this.engine.run(scope, job.data.batchId, { final })).status;
    } catch (err) {
      if (!(err instanceof BatchBusyError)) throw err;
      await this.engine.retryWhenFree(scope, job.data.batchId, err.leaseUntil);
      return 'busy: scheduled again for when the current run’s lease ends';
    }
  }
}
