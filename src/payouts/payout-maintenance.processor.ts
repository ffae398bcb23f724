import { InjectQueue, Processor } from '@nestjs/bull';
import { Inject, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { Queue } from 'bull';
import { Clock } from '../common/clock/clock';
import { shopScope } from '../common/tenancy';
import { jobsConfig, JobsConfig } from '../config/configuration';
import { Jobs, OnJob, Queues } from '../queues/jobs';
import { keepTrying, scheduleRepeatable, whenConnected } from '../queues/queues';
import { PayoutEngine } from './payout-engine.service';
import { SystemPayoutBatchesRepository } from './system-payout-batches.repository';

const SWEEP_BATCH = 200;

/**
 * The payout sweeper (repeatable, and once at start): resumes `running` batches whose run lease
 * lapsed (their process died) and re-queues `queued` batches whose job was lost, so a batch always
 * completes without an operator.
 */
@Processor(Queues.Maintenance)
export class PayoutMaintenanceProcessor implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('PayoutSweeper');
  private stopped = false;

  constructor(
    private readonly engine: PayoutEngine,
    private readonly system: SystemPayoutBatchesRepository,
    private readonly clock: Clock,
    @InjectQueue(Queues.Maintenance) private readonly queue: Queue,
    @Inject(jobsConfig.KEY) private readonly cfg: JobsConfig,
  ) {}

  onApplicationBootstrap(): void {
    void this.start();
  }

  onApplicationShutdown(): void {
    this.stopped = true;
  }

  private async start(): Promise<void> {
    await keepTrying(
      async () => {
        await whenConnected(this.queue);
        await scheduleRepeatable(this.queue, Jobs.SweepPayoutBatches, this.cfg.sweepEveryMs);
      },
      (err) =>
        this.logger.warn(
          { err: (err as Error)?.message },
          'Could not schedule the payout sweeper yet; retrying',
        ),
      () => this.stopped,
    );
    if (this.stopped) return;
    await this.resumeStalled().catch((err: unknown) =>
      this.logger.warn(
        { err: (err as Error)?.message },
        'Start-up sweep failed; the repeatable sweep retries',
      ),
    );
  }

  @OnJob({ queue: Queues.Maintenance, name: Jobs.SweepPayoutBatches })
  sweep(): Promise<number> {
    return this.resumeStalled();
  }

  private async resumeStalled(): Promise<number> {
    const now = this.clock.now().getTime();
    const stalled = await this.system.stalled(
      new Date(now - this.cfg.payoutLeaseMs),
      new Date(now - this.cfg.redriveAfterMs),
      SWEEP_BATCH,
    );
    let resumed = 0;
    for (const batch of stalled) {
      try {
        if (await this.engine.resumeStalled(shopScope(String(batch.shopId)), batch)) resumed++;
      } catch (err) {
        this.logger.warn(
          { batchId: String(batch._id), err: (err as Error)?.message },
          'Could not resume a batch',
        );
      }
    }
    if (resumed > 0) this.logger.warn({ resumed }, 'Resumed stalled payout batches');
    return resumed;
  }
}
