/**
 * Per-endpoint bounded concurrency inside one process: at most `limit` attempts to one endpoint at
 * once; further deliveries to it wait in a bounded in-memory line instead of holding a queue slot,
 * so a receiver that hangs for 15 s delays only its own deliveries, never another endpoint's.
 * Memory only: a delivery waiting here is still `pending` in MongoDB, and a crash leaves it to the
 * sweeper. Duplicates (the sweeper re-driving a waiting delivery) are dropped by id.
 */
export class EndpointGate {
  private readonly running = new Map<string, number>();
  private readonly waiting = new Map<string, Map<string, () => Promise<void>>>();

  constructor(
    private readonly limit: number,
    private readonly maxWaiting = 10_000,
  ) {}

  /**
   * Runs `task` now if the endpoint has a free slot (the promise of its run), else puts it in the
   * endpoint's line (`queued`), or drops it (`dropped`: already waiting, or the line is full).
   */
  submit(endpointId: string, key: string, task: () => Promise<void>): Promise<void> | 'queued' | 'dropped' {
    if ((this.running.get(endpointId) ?? 0) < this.limit) return this.start(endpointId, task);
    const line = this.waiting.get(endpointId) ?? new Map<string, () => Promise<void>>();
    if (line.has(key) || line.size >= this.maxWaiting) return 'dropped';
    line.set(key, task);
    this.waiting.set(endpointId, line);
    return 'queued';
  }

  inFlight(endpointId: string): number {
    return this.running.get(endpointId) ?? 0;
  }

  waitingFor(endpointId: string): number {
    return this.waiting.get(endpointId)?.size ?? 0;
  }

  private start(endpointId: string, task: () => Promise<void>): Promise<void> {
    this.running.set(endpointId, (this.running.get(endpointId) ?? 0) + 1);
    return task()
      .catch(() => undefined)
      .finally(() => {
        const left = (this.running.get(endpointId) ?? 1) - 1;
        if (left <= 0) this.running.delete(endpointId);
        else this.running.set(endpointId, left);
        this.next(endpointId);
      });
  }

  private next(endpointId: string): void {
    const line = this.waiting.get(endpointId);
    if (!line || line.size === 0) return;
    const [key, task] = line.entries().next().value as [string, () => Promise<void>];
    line.delete(key);
    if (line.size === 0) this.waiting.delete(endpointId);
    void this.start(endpointId, task);
  }
}
