import type { Queue } from 'bull';

interface Waiting {
  resolve(): void;
  reject(err: Error): void;
}

/**
 * Waits for many jobs of one queue with a single pair of global listeners, whichever process runs
 * them. Bull's `job.finished()` adds two listeners per call, so a few hundred jobs in flight broke
 * the queue's listener limit (MaxListenersExceededWarning). A failure event only rejects once the
 * job has failed for good (not while it waits for a retry); a watchdog re-reads the state of every
 * pending job now and then, for jobs that finished before the subscription was in place.
 */
export class JobWaiter {
  private readonly pending = new Map<string, Waiting>();
  private readonly watchdog: NodeJS.Timeout;

  constructor(
    private readonly queue: Queue,
    private readonly onSettled: () => void = () => undefined,
    watchdogMs = 2000,
  ) {
    queue.on('global:completed', this.completed);
    queue.on('global:failed', this.failed);
    this.watchdog = setInterval(() => void this.sweep(), watchdogMs);
    this.watchdog.unref();
  }

  /** Resolves when every job has completed; rejects with the reason of the first that failed for good. */
  async wait(jobIds: string[]): Promise<void> {
    const all = jobIds.map(
      (id) => new Promise<void>((resolve, reject) => this.pending.set(id, { resolve, reject })),
    );
    await Promise.all(jobIds.map((id) => this.check(id)));
    await Promise.all(all);
  }

  close(): void {
    clearInterval(this.watchdog);
    this.queue.removeListener('global:completed', this.completed);
    this.queue.removeListener('global:failed', this.failed);
    for (const [id, w] of this.pending) w.reject(new Error(`Stopped waiting for job ${id}`));
    this.pending.clear();
  }

  private readonly completed = (jobId: string | number): void => this.settle(String(jobId));

  private readonly failed = (jobId: string | number): void => void this.check(String(jobId));

  private async sweep(): Promise<void> {
    await Promise.all([...this.pending.keys()].map((id) => this.check(id)));
  }

  /** A job that is gone was completed and trimmed (removeOnComplete). */
  private async check(id: string): Promise<void> {
    if (!this.pending.has(id)) return;
    try {
      const job = await this.queue.getJob(id);
      const state = job ? await job.getState() : 'completed';
      if (state === 'completed') this.settle(id);
      else if (state === 'failed') this.settle(id, new Error(job?.failedReason ?? `Job ${id} failed`));
    } catch (err) {
      this.settle(id, err as Error);
    }
  }

  private settle(id: string, err?: Error): void {
    const w = this.pending.get(id);
    if (!w) return;
    this.pending.delete(id);
    if (err) {
      w.reject(err);
    } else {
      w.resolve();
      this.onSettled();
    }
  }
}
