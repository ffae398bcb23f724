import { InjectQueue } from '@nestjs/bull';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Queue } from 'bull';
import { withTimeout } from '../common/async/timeout';
import type { ShopScope } from '../common/tenancy';
import { railsConfig, type RailsConfig } from '../config/configuration';
import { addJob, Jobs, Queues } from '../queues/jobs';

/** Retries of a rail call that met an outage, before the sweeper takes over (it never gives up). */
export const TRANSFER_JOB_OPTIONS = {
  attempts: 6,
  backoff: { type: 'exponential', delay: 2000 },
  removeOnComplete: 1000,
  removeOnFail: 1000,
};
const ENQUEUE_TIMEOUT_MS = 1500;

/**
 * The transfers queue. Redis holds only a pointer (shop and transfer id): a job lost with Redis or a
 * killed worker loses nothing, the sweeper drives the stored transfer again. A failure to enqueue
 * is logged, never thrown: the transfer is stored already.
 */
@Injectable()
export class TransferQueue {
  private readonly logger = new Logger('TransferQueue');

  constructor(
    @InjectQueue(Queues.Transfers) private readonly queue: Queue,
    @Inject(railsConfig.KEY) private readonly cfg: RailsConfig,
  ) {}

  send(scope: ShopScope, transferId: string, delayMs = 0): Promise<boolean> {
    return this.add(Jobs.SendTransfer, scope, transferId, delayMs);
  }

  /** Looks the provider's outcome up after the poll period. */
  follow(scope: ShopScope, transferId: string, delayMs = this.cfg.pollMs): Promise<boolean> {
    return this.add(Jobs.FollowTransfer, scope, transferId, delayMs);
  }

  private async add(
    name: typeof Jobs.SendTransfer | typeof Jobs.FollowTransfer,
    scope: ShopScope,
    transferId: string,
    delayMs: number,
  ): Promise<boolean> {
    try {
      await withTimeout(
        addJob(
          this.queue,
          name,
          { shopId: scope.shopId, transferId },
          { ...TRANSFER_JOB_OPTIONS, delay: delayMs },
        ),
        ENQUEUE_TIMEOUT_MS,
        'the transfers queue (Redis)',
      );
      return true;
    } catch (err) {
      this.logger.warn(
        { transferId, shopId: scope.shopId, err: (err as Error)?.message },
        'Transfer stored but not queued; the transfer sweeper will drive it',
      );
      return false;
    }
  }
}
