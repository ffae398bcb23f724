import { Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { Queue } from 'bull';
import { keepTrying, scheduleRepeatable, whenConnected } from './queues';

/** One repeatable job of a maintenance processor: its name on the queue and its period. */
export interface RepeatableJob {
  name: string;
  everyMs: number;
}

/**
 * What every maintenance processor does at start, in one place: in the background (start-up never
 * waits for Redis), register its repeatable jobs — retried every 5 s while Redis is unreachable,
 * until the process stops — then run `onStart` once (a sweeper catching up at once on what a
 * crashed process left, rather than a period later). A failed `onStart` is logged; the repeatable
 * run retries it. Subclasses declare their `@OnJob` handlers themselves.
 */
export abstract class RepeatableJobsProcessor implements OnApplicationBootstrap, OnApplicationShutdown {
  protected readonly logger: Logger;
  private stopped = false;

  /** `what` names the jobs in the log lines ("the payout sweeper"); `logger` is the log context. */
  protected constructor(
    private readonly queue: Queue,
    private readonly what: string,
    logger: string,
  ) {
    this.logger = new Logger(logger);
  }

  /** The repeatable jobs to register (read at start, after the subclass's constructor ran). */
  protected abstract repeatableJobs(): RepeatableJob[];

  /** Run once after the jobs are scheduled; none by default. */
  protected onStart(): Promise<unknown> | null {
    return null;
  }

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
        for (const job of this.repeatableJobs()) await scheduleRepeatable(this.queue, job.name, job.everyMs);
      },
      (err) =>
        this.logger.warn({ err: (err as Error)?.message }, `Could not schedule ${this.what} yet; retrying`),
      () => this.stopped,
    );
    if (this.stopped) return;
    await this.onStart()?.catch((err: unknown) =>
      this.logger.warn(
        { err: (err as Error)?.message },
        `Start-up run of ${this.what} failed; the repeatable one retries`,
      ),
    );
  }
}
